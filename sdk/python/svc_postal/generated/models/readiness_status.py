from enum import StrEnum


class ReadinessStatus(StrEnum):
    READY = "ready"
    UNREADY = "unready"

    def __str__(self) -> str:
        return str(self.value)
