from enum import StrEnum


class SegmentType(StrEnum):
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
