from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RouteResultFrom")


@_attrs_define
class RouteResultFrom:
    """
    Attributes:
        label (str):
        lon (float):
        lat (float):
    """

    label: str
    lon: float
    lat: float

    def to_dict(self) -> dict[str, Any]:
        label = self.label

        lon = self.lon

        lat = self.lat

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "label": label,
                "lon": lon,
                "lat": lat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        label = d.pop("label")

        lon = d.pop("lon")

        lat = d.pop("lat")

        route_result_from = cls(
            label=label,
            lon=lon,
            lat=lat,
        )

        return route_result_from
