from enum import StrEnum


class ProofLinkKind(StrEnum):
    ACCEPTANCE = "acceptance"
    DELIVERY = "delivery"
    DEPOSIT = "deposit"
    FILING = "filing"
    NEGLIGENCE = "negligence"
    REFUSAL = "refusal"
    RETURN = "return"

    def __str__(self) -> str:
        return str(self.value)
