from enum import StrEnum


class ShipmentStatus(StrEnum):
    AR_SIGNED = "ar_signed"
    CANCELED = "canceled"
    DELIVERED = "delivered"
    ERROR = "error"
    IN_TRANSIT = "in_transit"
    PAID = "paid"
    POSTED = "posted"
    PRINTED = "printed"
    RETURNED = "returned"

    def __str__(self) -> str:
        return str(self.value)
