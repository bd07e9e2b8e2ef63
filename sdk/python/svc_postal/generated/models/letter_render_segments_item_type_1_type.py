from enum import StrEnum


class LetterRenderSegmentsItemType1Type(StrEnum):
    FIELD = "field"

    def __str__(self) -> str:
        return str(self.value)
