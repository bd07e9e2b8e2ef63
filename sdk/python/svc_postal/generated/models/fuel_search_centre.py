from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FuelSearchCentre")


@_attrs_define
class FuelSearchCentre:
    """
    Attributes:
        lat (float):
        lon (float):
        label (str):
    """

    lat: float
    lon: float
    label: str

    def to_dict(self) -> dict[str, Any]:
        lat = self.lat

        lon = self.lon

        label = self.label

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "lat": lat,
                "lon": lon,
                "label": label,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        lat = d.pop("lat")

        lon = d.pop("lon")

        label = d.pop("label")

        fuel_search_centre = cls(
            lat=lat,
            lon=lon,
            label=label,
        )

        return fuel_search_centre
