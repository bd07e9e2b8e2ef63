from enum import StrEnum


class AiLetterRequestTone(StrEnum):
    CORDIAL = "cordial"
    FERME = "ferme"
    FORMEL = "formel"

    def __str__(self) -> str:
        return str(self.value)
