from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.postal_address_country import PostalAddressCountry

T = TypeVar("T", bound="PostalAddress")


@_attrs_define
class PostalAddress:
    """
    Attributes:
        name (str):
        lines (list[str]):
        postcode (str):
        city (str):
        country (PostalAddressCountry):
    """

    name: str
    lines: list[str]
    postcode: str
    city: str
    country: PostalAddressCountry

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        lines = self.lines

        postcode = self.postcode

        city = self.city

        country = self.country.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "lines": lines,
                "postcode": postcode,
                "city": city,
                "country": country,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        lines = cast(list[str], d.pop("lines"))

        postcode = d.pop("postcode")

        city = d.pop("city")

        country = PostalAddressCountry(d.pop("country"))

        postal_address = cls(
            name=name,
            lines=lines,
            postcode=postcode,
            city=city,
            country=country,
        )

        return postal_address
