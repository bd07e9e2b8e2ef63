from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.company_profile_establishment_status import (
    CompanyProfileEstablishmentStatus,
)

T = TypeVar("T", bound="CompanyProfileEstablishment")


@_attrs_define
class CompanyProfileEstablishment:
    """Establishment status and address

    Attributes:
        siret (str):
        address (str):
        postcode (str):
        city (str):
        status (CompanyProfileEstablishmentStatus | str):
        is_head_office (bool):
        activity (None | str):
        created_on (None | str):
    """

    siret: str
    address: str
    postcode: str
    city: str
    status: CompanyProfileEstablishmentStatus | str
    is_head_office: bool
    activity: None | str
    created_on: None | str

    def to_dict(self) -> dict[str, Any]:
        siret = self.siret

        address = self.address

        postcode = self.postcode

        city = self.city

        status: str
        if isinstance(self.status, CompanyProfileEstablishmentStatus):
            status = self.status.value
        else:
            status = self.status

        is_head_office = self.is_head_office

        activity: None | str
        activity = self.activity

        created_on: None | str
        created_on = self.created_on

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "siret": siret,
                "address": address,
                "postcode": postcode,
                "city": city,
                "status": status,
                "isHeadOffice": is_head_office,
                "activity": activity,
                "createdOn": created_on,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        siret = d.pop("siret")

        address = d.pop("address")

        postcode = d.pop("postcode")

        city = d.pop("city")

        def _parse_status(data: object) -> CompanyProfileEstablishmentStatus | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = CompanyProfileEstablishmentStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CompanyProfileEstablishmentStatus | str, data)

        status = _parse_status(d.pop("status"))

        is_head_office = d.pop("isHeadOffice")

        def _parse_activity(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        activity = _parse_activity(d.pop("activity"))

        def _parse_created_on(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        created_on = _parse_created_on(d.pop("createdOn"))

        company_profile_establishment = cls(
            siret=siret,
            address=address,
            postcode=postcode,
            city=city,
            status=status,
            is_head_office=is_head_office,
            activity=activity,
            created_on=created_on,
        )

        return company_profile_establishment
