from enum import StrEnum


class CatalogueLetterRecommendedMode(StrEnum):
    AR = "ar"
    REGISTERED = "registered"
    SIMPLE = "simple"

    def __str__(self) -> str:
        return str(self.value)
