from enum import StrEnum


class SearchFuelStationsQueryFuel(StrEnum):
    E85 = "e85"
    GAZOLE = "gazole"
    GPLC = "gplc"
    SP95_E10 = "sp95-e10"
    SP98 = "sp98"

    def __str__(self) -> str:
        return str(self.value)
