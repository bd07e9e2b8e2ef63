from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.letter_text_segment_type import LetterTextSegmentType

T = TypeVar("T", bound="LetterTextSegment")


@_attrs_define
class LetterTextSegment:
    """
    Attributes:
        type_ (LetterTextSegmentType):
        text (str):
    """

    type_: LetterTextSegmentType
    text: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = LetterTextSegmentType(d.pop("type"))

        text = d.pop("text")

        letter_text_segment = cls(
            type_=type_,
            text=text,
        )

        return letter_text_segment
