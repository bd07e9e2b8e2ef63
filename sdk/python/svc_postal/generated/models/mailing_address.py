from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..models.mailing_address_country import MailingAddressCountry
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
        country (MailingAddressCountry | Unset):  Default: MailingAddressCountry.FR.
    """

    name: str
    lines: list[str]
    postcode: str
    city: str
    country: MailingAddressCountry | Unset = MailingAddressCountry.FR

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        lines = self.lines

        postcode = self.postcode

        city = self.city

        country: str | Unset = UNSET
        if not isinstance(self.country, Unset):
            country = self.country.value

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

        _country = d.pop("country", UNSET)
        country: MailingAddressCountry | Unset
        if isinstance(_country, Unset):
            country = UNSET
        else:
            country = MailingAddressCountry(_country)

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
