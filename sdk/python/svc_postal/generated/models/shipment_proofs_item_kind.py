from enum import StrEnum


class ShipmentProofsItemKind(StrEnum):
    DELIVERY = "delivery"
    FILING = "filing"
    RETURN = "return"

    def __str__(self) -> str:
        return str(self.value)
