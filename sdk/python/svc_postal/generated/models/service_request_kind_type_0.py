from enum import StrEnum


class ServiceRequestKindType0(StrEnum):
    AI_TOOL = "ai_tool"
    CALCULATOR = "calculator"
    LETTER = "letter"

    def __str__(self) -> str:
        return str(self.value)
