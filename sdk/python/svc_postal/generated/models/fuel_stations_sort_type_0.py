from enum import StrEnum


class FuelStationsSortType0(StrEnum):
    DISTANCE = "distance"
    PRICE = "price"

    def __str__(self) -> str:
        return str(self.value)
