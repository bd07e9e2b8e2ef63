from enum import StrEnum


class SearchCompaniesStatus(StrEnum):
    ACTIVE = "active"
    ALL = "all"

    def __str__(self) -> str:
        return str(self.value)
