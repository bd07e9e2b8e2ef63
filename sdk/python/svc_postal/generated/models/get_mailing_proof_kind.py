from enum import StrEnum


class GetMailingProofKind(StrEnum):
    ACCEPTANCE = "acceptance"
    DELIVERY = "delivery"
    DEPOSIT = "deposit"
    FILING = "filing"
    NEGLIGENCE = "negligence"
    REFUSAL = "refusal"
    RETURN = "return"

    def __str__(self) -> str:
        return str(self.value)
