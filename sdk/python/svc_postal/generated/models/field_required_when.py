from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="FieldRequiredWhen")


@_attrs_define
class FieldRequiredWhen:
    """The field is required when the enum field `field` has one of `values` (a letter then prints the passage that uses
    it; a calculator computes with it)

        Attributes:
            field (str):
            values (list[str]):
    """

    field: str
    values: list[str]

    def to_dict(self) -> dict[str, Any]:
        field = self.field

        values = self.values

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "field": field,
                "values": values,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        field = d.pop("field")

        values = cast(list[str], d.pop("values"))

        field_required_when = cls(
            field=field,
            values=values,
        )

        return field_required_when
