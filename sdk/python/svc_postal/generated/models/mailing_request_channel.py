from enum import StrEnum


class MailingRequestChannel(StrEnum):
    ELECTRONIC = "electronic"
    PAPER = "paper"

    def __str__(self) -> str:
        return str(self.value)
