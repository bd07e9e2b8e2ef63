from enum import StrEnum


class TextSegmentType(StrEnum):
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
