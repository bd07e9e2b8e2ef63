from enum import StrEnum


class MailingPostageSpeed(StrEnum):
    ECONOMIC = "economic"
    FAST = "fast"
    URGENT = "urgent"

    def __str__(self) -> str:
        return str(self.value)
