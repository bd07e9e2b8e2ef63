from enum import StrEnum


class SettlementCurrency(StrEnum):
    EUR = "EUR"

    def __str__(self) -> str:
        return str(self.value)
