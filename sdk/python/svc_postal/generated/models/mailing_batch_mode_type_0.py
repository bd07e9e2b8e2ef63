from enum import StrEnum


class MailingBatchModeType0(StrEnum):
    AR = "ar"
    REGISTERED = "registered"
    SIMPLE = "simple"

    def __str__(self) -> str:
        return str(self.value)
