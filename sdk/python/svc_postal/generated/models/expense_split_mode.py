from enum import StrEnum


class ExpenseSplitMode(StrEnum):
    AMOUNTS = "amounts"
    EQUAL = "equal"
    SHARES = "shares"

    def __str__(self) -> str:
        return str(self.value)
