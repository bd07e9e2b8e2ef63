from enum import StrEnum


class MailingBatchMode(StrEnum):
    AR = "ar"
    REGISTERED = "registered"
    SIMPLE = "simple"

    def __str__(self) -> str:
        return str(self.value)
