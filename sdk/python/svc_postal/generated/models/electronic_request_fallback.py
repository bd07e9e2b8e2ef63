from enum import StrEnum


class ElectronicRequestFallback(StrEnum):
    NONE = "none"
    PAPER = "paper"

    def __str__(self) -> str:
        return str(self.value)
