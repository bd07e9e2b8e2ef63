from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="QuoteRoute")


@_attrs_define
class QuoteRoute:
    """
    Attributes:
        from_ (str):
        to (str):
        distance_km (float):
        duration_minutes (int):
    """

    from_: str
    to: str
    distance_km: float
    duration_minutes: int

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_

        to = self.to

        distance_km = self.distance_km

        duration_minutes = self.duration_minutes

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "to": to,
                "distanceKm": distance_km,
                "durationMinutes": duration_minutes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        from_ = d.pop("from")

        to = d.pop("to")

        distance_km = d.pop("distanceKm")

        duration_minutes = d.pop("durationMinutes")

        quote_route = cls(
            from_=from_,
            to=to,
            distance_km=distance_km,
            duration_minutes=duration_minutes,
        )

        return quote_route
