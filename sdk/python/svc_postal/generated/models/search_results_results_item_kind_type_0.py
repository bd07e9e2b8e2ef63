from enum import StrEnum


class SearchResultsResultsItemKindType0(StrEnum):
    AI_TOOL = "ai_tool"
    CALCULATOR = "calculator"
    LETTER = "letter"
    QUOTE = "quote"

    def __str__(self) -> str:
        return str(self.value)
