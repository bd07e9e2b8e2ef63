from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.letter_render_segments_item_type_1_type import (
    LetterRenderSegmentsItemType1Type,
)

T = TypeVar("T", bound="LetterRenderSegmentsItemType1")


@_attrs_define
class LetterRenderSegmentsItemType1:
    """
    Attributes:
        type_ (LetterRenderSegmentsItemType1Type):
        name (str):
        label (str):
        value (None | str):
    """

    type_: LetterRenderSegmentsItemType1Type
    name: str
    label: str
    value: None | str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        name = self.name

        label = self.label

        value: None | str
        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "name": name,
                "label": label,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = LetterRenderSegmentsItemType1Type(d.pop("type"))

        name = d.pop("name")

        label = d.pop("label")

        def _parse_value(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        value = _parse_value(d.pop("value"))

        letter_render_segments_item_type_1 = cls(
            type_=type_,
            name=name,
            label=label,
            value=value,
        )

        return letter_render_segments_item_type_1
