from enum import StrEnum


class ShipmentMode(StrEnum):
    AR = "ar"
    REGISTERED = "registered"
    SIMPLE = "simple"

    def __str__(self) -> str:
        return str(self.value)
