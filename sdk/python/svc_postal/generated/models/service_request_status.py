from enum import StrEnum


class ServiceRequestStatus(StrEnum):
    DECLINED = "declined"
    IN_REVIEW = "in_review"
    PLANNED = "planned"
    PUBLISHED = "published"
    RECEIVED = "received"

    def __str__(self) -> str:
        return str(self.value)
