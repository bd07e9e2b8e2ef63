from enum import StrEnum


class MailingRequestOptionsReturnedMail(StrEnum):
    DIGITAL = "digital"
    SENDER = "sender"

    def __str__(self) -> str:
        return str(self.value)
