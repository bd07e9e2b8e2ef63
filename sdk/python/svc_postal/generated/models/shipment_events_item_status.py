from enum import StrEnum


class ShipmentEventsItemStatus(StrEnum):
    ACCEPTED = "accepted"
    AR_SIGNED = "ar_signed"
    BOUNCED = "bounced"
    CANCELED = "canceled"
    DELIVERED = "delivered"
    ERROR = "error"
    IN_TRANSIT = "in_transit"
    NOTIFIED = "notified"
    PAID = "paid"
    POSTED = "posted"
    PRINTED = "printed"
    REFUSED = "refused"
    RETURNED = "returned"
    SENT = "sent"
    UNCLAIMED = "unclaimed"

    def __str__(self) -> str:
        return str(self.value)
