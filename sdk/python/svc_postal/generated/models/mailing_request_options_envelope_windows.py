from enum import StrEnum


class MailingRequestOptionsEnvelopeWindows(StrEnum):
    DOUBLE = "double"
    SIMPLE = "simple"

    def __str__(self) -> str:
        return str(self.value)
