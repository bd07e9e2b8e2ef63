from enum import StrEnum


class MailingRequestOptionsAddressCheck(StrEnum):
    LENIENT = "lenient"
    STRICT = "strict"

    def __str__(self) -> str:
        return str(self.value)
