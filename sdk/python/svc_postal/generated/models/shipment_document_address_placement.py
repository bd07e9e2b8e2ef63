from enum import StrEnum


class ShipmentDocumentAddressPlacement(StrEnum):
    FIRST_PAGE = "first_page"
    INSERT_BLANK_PAGE = "insert_blank_page"

    def __str__(self) -> str:
        return str(self.value)
