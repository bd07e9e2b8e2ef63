from enum import StrEnum


class MailingBatchRequestOptionsReturnedMail(StrEnum):
    DIGITAL = "digital"
    SENDER = "sender"

    def __str__(self) -> str:
        return str(self.value)
