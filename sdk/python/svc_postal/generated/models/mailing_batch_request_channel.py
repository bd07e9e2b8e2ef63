from enum import StrEnum


class MailingBatchRequestChannel(StrEnum):
    ELECTRONIC = "electronic"
    PAPER = "paper"

    def __str__(self) -> str:
        return str(self.value)
