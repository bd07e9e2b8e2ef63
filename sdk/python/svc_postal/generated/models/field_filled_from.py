from enum import StrEnum


class FieldFilledFrom(StrEnum):
    RECIPIENT = "recipient"
    SENDER = "sender"

    def __str__(self) -> str:
        return str(self.value)
