from enum import StrEnum


class LegalSourceStatus(StrEnum):
    UNVERIFIED = "unverified"

    def __str__(self) -> str:
        return str(self.value)
