from enum import StrEnum


class SettlementMethodType0(StrEnum):
    EXACT = "exact"
    HEURISTIC = "heuristic"

    def __str__(self) -> str:
        return str(self.value)
