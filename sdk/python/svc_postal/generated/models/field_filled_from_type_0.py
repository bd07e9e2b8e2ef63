from enum import StrEnum


class FieldFilledFromType0(StrEnum):
    RECIPIENT = "recipient"
    SENDER = "sender"

    def __str__(self) -> str:
        return str(self.value)
