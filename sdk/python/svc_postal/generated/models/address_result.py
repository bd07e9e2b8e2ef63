from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AddressResult")


@_attrs_define
class AddressResult:
    """
    Attributes:
        label (str):
        street (str):
        postcode (str):
        city (str):
        lat (float):
        lon (float):
    """

    label: str
    street: str
    postcode: str
    city: str
    lat: float
    lon: float

    def to_dict(self) -> dict[str, Any]:
        label = self.label

        street = self.street

        postcode = self.postcode

        city = self.city

        lat = self.lat

        lon = self.lon

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "label": label,
                "street": street,
                "postcode": postcode,
                "city": city,
                "lat": lat,
                "lon": lon,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        label = d.pop("label")

        street = d.pop("street")

        postcode = d.pop("postcode")

        city = d.pop("city")

        lat = d.pop("lat")

        lon = d.pop("lon")

        address_result = cls(
            label=label,
            street=street,
            postcode=postcode,
            city=city,
            lat=lat,
            lon=lon,
        )

        return address_result
