from enum import StrEnum


class MailingElectronicRecipientKind(StrEnum):
    CONSUMER = "consumer"
    PROFESSIONAL = "professional"

    def __str__(self) -> str:
        return str(self.value)
