from enum import StrEnum


class MailingBatchRequestOptionsEnvelopeWindows(StrEnum):
    DOUBLE = "double"
    SIMPLE = "simple"

    def __str__(self) -> str:
        return str(self.value)
