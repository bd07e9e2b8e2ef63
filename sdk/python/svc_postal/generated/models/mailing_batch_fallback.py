from enum import StrEnum


class MailingBatchFallback(StrEnum):
    NONE = "none"
    PAPER = "paper"

    def __str__(self) -> str:
        return str(self.value)
