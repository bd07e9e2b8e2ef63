from enum import StrEnum


class MailingAddressCountry(StrEnum):
    FR = "FR"

    def __str__(self) -> str:
        return str(self.value)
