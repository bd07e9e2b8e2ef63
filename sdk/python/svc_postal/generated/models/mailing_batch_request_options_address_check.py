from enum import StrEnum


class MailingBatchRequestOptionsAddressCheck(StrEnum):
    LENIENT = "lenient"
    STRICT = "strict"

    def __str__(self) -> str:
        return str(self.value)
