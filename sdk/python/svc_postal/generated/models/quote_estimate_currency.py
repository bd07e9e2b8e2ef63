from enum import StrEnum


class QuoteEstimateCurrency(StrEnum):
    EUR = "EUR"

    def __str__(self) -> str:
        return str(self.value)
