from enum import StrEnum


class LegalSourceStatus(StrEnum):
    READ_ON_COPY = "read_on_copy"
    UNVERIFIED = "unverified"

    def __str__(self) -> str:
        return str(self.value)
