from enum import StrEnum


class ShipmentReturnedMail(StrEnum):
    DIGITAL = "digital"
    SENDER = "sender"

    def __str__(self) -> str:
        return str(self.value)
