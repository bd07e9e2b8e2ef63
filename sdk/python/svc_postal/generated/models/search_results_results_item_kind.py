from enum import StrEnum


class SearchResultsResultsItemKind(StrEnum):
    AI_TOOL = "ai_tool"
    CALCULATOR = "calculator"
    LETTER = "letter"
    QUOTE = "quote"

    def __str__(self) -> str:
        return str(self.value)
