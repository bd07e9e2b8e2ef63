from enum import StrEnum


class SearchFuelStationsQuerySort(StrEnum):
    DISTANCE = "distance"
    PRICE = "price"

    def __str__(self) -> str:
        return str(self.value)
