from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.service_request_kind import ServiceRequestKind
from ..models.service_request_status import ServiceRequestStatus

T = TypeVar("T", bound="ServiceRequest")


@_attrs_define
class ServiceRequest:
    """
    Attributes:
        id (UUID):
        kind (ServiceRequestKind | str):
        title (str):
        description (str):
        example (None | str):
        use_case (None | str):
        contact_email (None | str):
        status (ServiceRequestStatus | str): received → in_review → planned → published, or declined
        status_note (None | str): Our note on the latest status (e.g. why it was declined)
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: UUID
    kind: ServiceRequestKind | str
    title: str
    description: str
    example: None | str
    use_case: None | str
    contact_email: None | str
    status: ServiceRequestStatus | str
    status_note: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        kind: str
        if isinstance(self.kind, ServiceRequestKind):
            kind = self.kind.value
        else:
            kind = self.kind

        title = self.title

        description = self.description

        example: None | str
        example = self.example

        use_case: None | str
        use_case = self.use_case

        contact_email: None | str
        contact_email = self.contact_email

        status: str
        if isinstance(self.status, ServiceRequestStatus):
            status = self.status.value
        else:
            status = self.status

        status_note: None | str
        status_note = self.status_note

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "title": title,
                "description": description,
                "example": example,
                "useCase": use_case,
                "contactEmail": contact_email,
                "status": status,
                "statusNote": status_note,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_kind(data: object) -> ServiceRequestKind | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                kind_type_0 = ServiceRequestKind(data)

                return kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ServiceRequestKind | str, data)

        kind = _parse_kind(d.pop("kind"))

        title = d.pop("title")

        description = d.pop("description")

        def _parse_example(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        example = _parse_example(d.pop("example"))

        def _parse_use_case(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        use_case = _parse_use_case(d.pop("useCase"))

        def _parse_contact_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_email = _parse_contact_email(d.pop("contactEmail"))

        def _parse_status(data: object) -> ServiceRequestStatus | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = ServiceRequestStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ServiceRequestStatus | str, data)

        status = _parse_status(d.pop("status"))

        def _parse_status_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        status_note = _parse_status_note(d.pop("statusNote"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        service_request = cls(
            id=id,
            kind=kind,
            title=title,
            description=description,
            example=example,
            use_case=use_case,
            contact_email=contact_email,
            status=status,
            status_note=status_note,
            created_at=created_at,
            updated_at=updated_at,
        )

        return service_request
