from enum import StrEnum


class SearchResultsResultsItemMatchedByItem(StrEnum):
    LEXICAL = "lexical"
    SEMANTIC = "semantic"

    def __str__(self) -> str:
        return str(self.value)
