from enum import StrEnum


class FieldType(StrEnum):
    ADDRESS = "address"
    AMOUNT = "amount"
    DATE = "date"
    EMAIL = "email"
    ENUM = "enum"
    IBAN = "iban"
    INTEGER = "integer"
    MULTILINE = "multiline"
    NUMBER = "number"
    PHONE = "phone"
    POSTCODE = "postcode"
    SIRET = "siret"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
