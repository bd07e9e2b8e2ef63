from enum import StrEnum


class V1TestAdvanceStatus(StrEnum):
    ACCEPTED = "accepted"
    BOUNCED = "bounced"
    ERROR = "error"
    REFUSED = "refused"
    RETURNED = "returned"
    UNCLAIMED = "unclaimed"

    def __str__(self) -> str:
        return str(self.value)
