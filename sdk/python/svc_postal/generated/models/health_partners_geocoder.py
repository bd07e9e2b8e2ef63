from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.health_partners_geocoder_state_type_0 import (
    HealthPartnersGeocoderStateType0,
)

T = TypeVar("T", bound="HealthPartnersGeocoder")


@_attrs_define
class HealthPartnersGeocoder:
    """
    Attributes:
        state (HealthPartnersGeocoderStateType0 | str):
    """

    state: HealthPartnersGeocoderStateType0 | str

    def to_dict(self) -> dict[str, Any]:
        state: str
        if isinstance(self.state, HealthPartnersGeocoderStateType0):
            state = self.state.value
        else:
            state = self.state

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_state(data: object) -> HealthPartnersGeocoderStateType0 | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_0 = HealthPartnersGeocoderStateType0(data)

                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HealthPartnersGeocoderStateType0 | str, data)

        state = _parse_state(d.pop("state"))

        health_partners_geocoder = cls(
            state=state,
        )

        return health_partners_geocoder
