from enum import StrEnum


class SettlementMethod(StrEnum):
    EXACT = "exact"
    HEURISTIC = "heuristic"

    def __str__(self) -> str:
        return str(self.value)
