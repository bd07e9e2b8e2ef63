from enum import StrEnum


class SearchResultsModeType0(StrEnum):
    HYBRID = "hybrid"
    LEXICAL = "lexical"

    def __str__(self) -> str:
        return str(self.value)
