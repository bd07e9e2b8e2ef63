from enum import StrEnum


class WebhookEventDataProofKindType0(StrEnum):
    DELIVERY = "delivery"
    FILING = "filing"
    RETURN = "return"

    def __str__(self) -> str:
        return str(self.value)
