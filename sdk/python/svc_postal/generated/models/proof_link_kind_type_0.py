from enum import StrEnum


class ProofLinkKindType0(StrEnum):
    DELIVERY = "delivery"
    FILING = "filing"
    RETURN = "return"

    def __str__(self) -> str:
        return str(self.value)
