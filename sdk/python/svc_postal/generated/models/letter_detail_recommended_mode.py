from enum import StrEnum


class LetterDetailRecommendedMode(StrEnum):
    AR = "ar"
    REGISTERED = "registered"
    SIMPLE = "simple"

    def __str__(self) -> str:
        return str(self.value)
