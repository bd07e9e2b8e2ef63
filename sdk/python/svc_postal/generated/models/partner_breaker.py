from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.partner_breaker_state import PartnerBreakerState

T = TypeVar("T", bound="PartnerBreaker")


@_attrs_define
class PartnerBreaker:
    """
    Attributes:
        state (PartnerBreakerState | str): closed: calls go to the partner; open: answered at once without it;
            half_open: one call probes it
    """

    state: PartnerBreakerState | str

    def to_dict(self) -> dict[str, Any]:
        state: str
        if isinstance(self.state, PartnerBreakerState):
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

        def _parse_state(data: object) -> PartnerBreakerState | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_0 = PartnerBreakerState(data)

                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(PartnerBreakerState | str, data)

        state = _parse_state(d.pop("state"))

        partner_breaker = cls(
            state=state,
        )

        return partner_breaker
