from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.letter_field_segment_type import LetterFieldSegmentType

T = TypeVar("T", bound="LetterFieldSegment")


@_attrs_define
class LetterFieldSegment:
    """
    Attributes:
        type_ (LetterFieldSegmentType):
        name (str):
        label (str):
        value (None | str):
    """

    type_: LetterFieldSegmentType
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
        type_ = LetterFieldSegmentType(d.pop("type"))

        name = d.pop("name")

        label = d.pop("label")

        def _parse_value(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        value = _parse_value(d.pop("value"))

        letter_field_segment = cls(
            type_=type_,
            name=name,
            label=label,
            value=value,
        )

        return letter_field_segment
