from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

T = TypeVar("T", bound="MailingAddress")


@_attrs_define
class MailingAddress:
    """
    Attributes:
        name (str):
        lines (list[str]):
        postcode (str):
        city (str):
        country (str | Unset): ISO 3166-1 alpha-2, in capitals (FR when absent). A sender is in France (FR). A recipient
            may be abroad, in any country of the postal operator's list (an unknown code: 422 address_invalid naming
            recipient.country); France's overseas departments and territories are FR with their postcode. Registered and AR
            letters abroad: Monaco (MC) and Andorra (AD) only (422 destination_not_served); an electronic one goes anywhere
            by email, its paper fallback only there Default: 'FR'.
    """

    name: str
    lines: list[str]
    postcode: str
    city: str
    country: str | Unset = "FR"

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        lines = self.lines

        postcode = self.postcode

        city = self.city

        country = self.country

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "lines": lines,
                "postcode": postcode,
                "city": city,
            }
        )
        if country is not UNSET:
            field_dict["country"] = country

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        lines = cast(list[str], d.pop("lines"))

        postcode = d.pop("postcode")

        city = d.pop("city")

        country = d.pop("country", UNSET)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "name": "name",
                "lines": "lines",
                "postcode": "postcode",
                "city": "city",
                "country": "country",
            },
        )
        mailing_address = cls(
            name=name,
            lines=lines,
            postcode=postcode,
            city=city,
            country=country,
        )

        return mailing_address
