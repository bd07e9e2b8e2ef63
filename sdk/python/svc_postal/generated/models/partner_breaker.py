from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.partner_breaker_state_type_0 import PartnerBreakerStateType0

T = TypeVar("T", bound="PartnerBreaker")


@_attrs_define
class PartnerBreaker:
    """
    Attributes:
        state (PartnerBreakerStateType0 | str): closed: calls go to the partner; open: answered at once without it;
            half_open: one call probes it
    """

    state: PartnerBreakerStateType0 | str

    def to_dict(self) -> dict[str, Any]:
        state: str
        if isinstance(self.state, PartnerBreakerStateType0):
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

        def _parse_state(data: object) -> PartnerBreakerStateType0 | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_0 = PartnerBreakerStateType0(data)

                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(PartnerBreakerStateType0 | str, data)

        state = _parse_state(d.pop("state"))

        partner_breaker = cls(
            state=state,
        )

        return partner_breaker
