from enum import StrEnum


class MailingBatchStatusType0(StrEnum):
    COMPLETED = "completed"
    PROCESSING = "processing"

    def __str__(self) -> str:
        return str(self.value)
