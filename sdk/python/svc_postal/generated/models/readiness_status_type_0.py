from enum import StrEnum


class ReadinessStatusType0(StrEnum):
    READY = "ready"
    UNREADY = "unready"

    def __str__(self) -> str:
        return str(self.value)
