from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CompanyProfileHeadOffice")


@_attrs_define
class CompanyProfileHeadOffice:
    """
    Attributes:
        siret (str):
        address (str):
        postcode (str):
        city (str):
    """

    siret: str
    address: str
    postcode: str
    city: str

    def to_dict(self) -> dict[str, Any]:
        siret = self.siret

        address = self.address

        postcode = self.postcode

        city = self.city

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "siret": siret,
                "address": address,
                "postcode": postcode,
                "city": city,
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

        company_profile_head_office = cls(
            siret=siret,
            address=address,
            postcode=postcode,
            city=city,
        )

        return company_profile_head_office
