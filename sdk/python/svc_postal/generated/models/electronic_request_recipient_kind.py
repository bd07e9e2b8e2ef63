from enum import StrEnum


class ElectronicRequestRecipientKind(StrEnum):
    CONSUMER = "consumer"
    PROFESSIONAL = "professional"

    def __str__(self) -> str:
        return str(self.value)
