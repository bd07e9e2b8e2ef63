from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="QuoteEstimateDefaultsAppliedItem")


@_attrs_define
class QuoteEstimateDefaultsAppliedItem:
    """
    Attributes:
        field (str):
        value (float | str):
        reason (str):
    """

    field: str
    value: float | str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        field = self.field

        value: float | str
        value = self.value

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "field": field,
                "value": value,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        field = d.pop("field")

        def _parse_value(data: object) -> float | str:
            return cast(float | str, data)

        value = _parse_value(d.pop("value"))

        reason = d.pop("reason")

        quote_estimate_defaults_applied_item = cls(
            field=field,
            value=value,
            reason=reason,
        )

        return quote_estimate_defaults_applied_item
