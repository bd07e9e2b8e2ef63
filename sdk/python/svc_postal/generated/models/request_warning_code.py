from enum import StrEnum


class RequestWarningCode(StrEnum):
    ADDRESS_CHECK_NOT_APPLIED = "address_check_not_applied"
    ADDRESS_CHECK_UNAVAILABLE = "address_check_unavailable"
    ADDRESS_UNVERIFIED = "address_unverified"
    FIELD_DEFAULTED = "field_defaulted"
    FIELD_RENAMED = "field_renamed"
    FIELD_REPLACED = "field_replaced"
    VALUE_RETIRED = "value_retired"

    def __str__(self) -> str:
        return str(self.value)
