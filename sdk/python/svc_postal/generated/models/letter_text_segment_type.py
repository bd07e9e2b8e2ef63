from enum import StrEnum


class LetterTextSegmentType(StrEnum):
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
