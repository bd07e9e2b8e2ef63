from enum import StrEnum


class MailingBatchChannel(StrEnum):
    ELECTRONIC = "electronic"
    PAPER = "paper"

    def __str__(self) -> str:
        return str(self.value)
