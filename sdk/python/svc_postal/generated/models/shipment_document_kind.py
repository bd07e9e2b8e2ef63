from enum import StrEnum


class ShipmentDocumentKind(StrEnum):
    CATALOGUE = "catalogue"
    FREE = "free"
    PDF = "pdf"

    def __str__(self) -> str:
        return str(self.value)
