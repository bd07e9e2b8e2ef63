from enum import StrEnum


class LetterFieldSegmentType(StrEnum):
    FIELD = "field"

    def __str__(self) -> str:
        return str(self.value)
