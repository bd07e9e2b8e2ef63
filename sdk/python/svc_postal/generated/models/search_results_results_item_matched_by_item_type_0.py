from enum import StrEnum


class SearchResultsResultsItemMatchedByItemType0(StrEnum):
    LEXICAL = "lexical"
    SEMANTIC = "semantic"

    def __str__(self) -> str:
        return str(self.value)
