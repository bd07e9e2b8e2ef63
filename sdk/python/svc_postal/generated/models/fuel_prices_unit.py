from enum import StrEnum


class FuelPricesUnit(StrEnum):
    EURL = "EUR/L"

    def __str__(self) -> str:
        return str(self.value)
