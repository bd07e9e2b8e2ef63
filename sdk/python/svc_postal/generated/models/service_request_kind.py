from enum import StrEnum


class ServiceRequestKind(StrEnum):
    AI_TOOL = "ai_tool"
    CALCULATOR = "calculator"
    LETTER = "letter"

    def __str__(self) -> str:
        return str(self.value)
