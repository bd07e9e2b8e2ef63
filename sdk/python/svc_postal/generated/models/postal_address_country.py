from enum import StrEnum


class PostalAddressCountry(StrEnum):
    FR = "FR"

    def __str__(self) -> str:
        return str(self.value)
