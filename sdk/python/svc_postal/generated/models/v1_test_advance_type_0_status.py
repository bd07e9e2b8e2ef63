from enum import StrEnum


class V1TestAdvanceType0Status(StrEnum):
    ERROR = "error"
    RETURNED = "returned"

    def __str__(self) -> str:
        return str(self.value)
