from enum import StrEnum


class V1TestAdvanceStatus(StrEnum):
    ERROR = "error"
    RETURNED = "returned"

    def __str__(self) -> str:
        return str(self.value)
