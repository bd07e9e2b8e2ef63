from enum import StrEnum


class LegalSourceStatusType0(StrEnum):
    READ_ON_COPY = "read_on_copy"
    UNVERIFIED = "unverified"

    def __str__(self) -> str:
        return str(self.value)
