from enum import IntEnum


class MailingRequestOptionsArchiveYears(IntEnum):
    VALUE_0 = 0
    VALUE_1 = 1
    VALUE_3 = 3
    VALUE_6 = 6
    VALUE_10 = 10

    def __str__(self) -> str:
        return str(self.value)
