from enum import StrEnum


class FuelStationsUnit(StrEnum):
    EURL = "EUR/L"

    def __str__(self) -> str:
        return str(self.value)
