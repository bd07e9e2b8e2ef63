from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..models.service_request_input_kind import ServiceRequestInputKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ServiceRequestInput")


@_attrs_define
class ServiceRequestInput:
    """
    Attributes:
        kind (ServiceRequestInputKind): What is missing from the catalogue
        title (str):
        description (str): What it should do, for whom
        example (str | Unset): An example: a letter you send today, a computation you make by hand
        use_case (str | Unset): Where it fits in your product
        contact_email (str | Unset): Who to tell when its status changes
    """

    kind: ServiceRequestInputKind
    title: str
    description: str
    example: str | Unset = UNSET
    use_case: str | Unset = UNSET
    contact_email: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        title = self.title

        description = self.description

        example = self.example

        use_case = self.use_case

        contact_email = self.contact_email

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "title": title,
                "description": description,
            }
        )
        if example is not UNSET:
            field_dict["example"] = example
        if use_case is not UNSET:
            field_dict["useCase"] = use_case
        if contact_email is not UNSET:
            field_dict["contactEmail"] = contact_email

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = ServiceRequestInputKind(d.pop("kind"))

        title = d.pop("title")

        description = d.pop("description")

        example = d.pop("example", UNSET)

        use_case = d.pop("useCase", UNSET)

        contact_email = d.pop("contactEmail", UNSET)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "kind": "kind",
                "title": "title",
                "description": "description",
                "example": "example",
                "use_case": "useCase",
                "contact_email": "contactEmail",
            },
        )
        service_request_input = cls(
            kind=kind,
            title=title,
            description=description,
            example=example,
            use_case=use_case,
            contact_email=contact_email,
        )

        return service_request_input
