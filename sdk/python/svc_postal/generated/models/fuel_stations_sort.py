from enum import StrEnum


class FuelStationsSort(StrEnum):
    DISTANCE = "distance"
    PRICE = "price"

    def __str__(self) -> str:
        return str(self.value)
