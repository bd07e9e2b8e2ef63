from enum import StrEnum


class MailingElectronicFallback(StrEnum):
    NONE = "none"
    PAPER = "paper"

    def __str__(self) -> str:
        return str(self.value)
