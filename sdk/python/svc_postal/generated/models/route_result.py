from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.route_result_from import RouteResultFrom
    from ..models.route_result_geometry import RouteResultGeometry
    from ..models.route_result_to import RouteResultTo


T = TypeVar("T", bound="RouteResult")


@_attrs_define
class RouteResult:
    """
    Attributes:
        from_ (RouteResultFrom):
        to (RouteResultTo):
        distance_meters (int):
        distance_km (float):
        duration_seconds (int):
        duration_minutes (int):
        geometry (RouteResultGeometry | Unset): Simplified path as GeoJSON [lon, lat] pairs, with geometry=true
    """

    from_: RouteResultFrom
    to: RouteResultTo
    distance_meters: int
    distance_km: float
    duration_seconds: int
    duration_minutes: int
    geometry: RouteResultGeometry | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_.to_dict()

        to = self.to.to_dict()

        distance_meters = self.distance_meters

        distance_km = self.distance_km

        duration_seconds = self.duration_seconds

        duration_minutes = self.duration_minutes

        geometry: dict[str, Any] | Unset = UNSET
        if not isinstance(self.geometry, Unset):
            geometry = self.geometry.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "to": to,
                "distanceMeters": distance_meters,
                "distanceKm": distance_km,
                "durationSeconds": duration_seconds,
                "durationMinutes": duration_minutes,
            }
        )
        if geometry is not UNSET:
            field_dict["geometry"] = geometry

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.route_result_from import RouteResultFrom
        from ..models.route_result_geometry import RouteResultGeometry
        from ..models.route_result_to import RouteResultTo

        d = dict(src_dict)
        from_ = RouteResultFrom.from_dict(d.pop("from"))

        to = RouteResultTo.from_dict(d.pop("to"))

        distance_meters = d.pop("distanceMeters")

        distance_km = d.pop("distanceKm")

        duration_seconds = d.pop("durationSeconds")

        duration_minutes = d.pop("durationMinutes")

        _geometry = d.pop("geometry", UNSET)
        geometry: RouteResultGeometry | Unset
        if isinstance(_geometry, Unset):
            geometry = UNSET
        else:
            geometry = RouteResultGeometry.from_dict(_geometry)

        route_result = cls(
            from_=from_,
            to=to,
            distance_meters=distance_meters,
            distance_km=distance_km,
            duration_seconds=duration_seconds,
            duration_minutes=duration_minutes,
            geometry=geometry,
        )

        return route_result
