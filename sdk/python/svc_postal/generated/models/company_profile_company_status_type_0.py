from enum import StrEnum


class CompanyProfileCompanyStatusType0(StrEnum):
    ACTIVE = "active"
    CLOSED = "closed"

    def __str__(self) -> str:
        return str(self.value)
