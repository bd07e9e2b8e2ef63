from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.route_result_geometry_type import RouteResultGeometryType

T = TypeVar("T", bound="RouteResultGeometry")


@_attrs_define
class RouteResultGeometry:
    """Simplified path as GeoJSON [lon, lat] pairs, with geometry=true

    Attributes:
        type_ (RouteResultGeometryType):
        coordinates (list[list[float]]):
    """

    type_: RouteResultGeometryType
    coordinates: list[list[float]]

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        coordinates = []
        for coordinates_item_data in self.coordinates:
            coordinates_item = coordinates_item_data

            coordinates.append(coordinates_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "coordinates": coordinates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = RouteResultGeometryType(d.pop("type"))

        coordinates = []
        _coordinates = d.pop("coordinates")
        for coordinates_item_data in _coordinates:
            coordinates_item = cast(list[float], coordinates_item_data)

            coordinates.append(coordinates_item)

        route_result_geometry = cls(
            type_=type_,
            coordinates=coordinates,
        )

        return route_result_geometry
