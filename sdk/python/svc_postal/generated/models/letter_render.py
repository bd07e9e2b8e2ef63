from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.letter_field_segment import LetterFieldSegment
    from ..models.letter_text_segment import LetterTextSegment
    from ..models.request_warning import RequestWarning


T = TypeVar("T", bound="LetterRender")


@_attrs_define
class LetterRender:
    """
    Attributes:
        segments (list[LetterFieldSegment | LetterTextSegment]): Literal text and field slots, in reading order
        text (str): The letter as plain text; a missing value reads as [its label]
        missing_fields (list[str]): Required fields without a value
        warnings (list[RequestWarning]): What was done with the request instead of refusing it; empty when nothing
    """

    segments: list[LetterFieldSegment | LetterTextSegment]
    text: str
    missing_fields: list[str]
    warnings: list[RequestWarning]

    def to_dict(self) -> dict[str, Any]:
        from ..models.letter_text_segment import LetterTextSegment

        segments = []
        for segments_item_data in self.segments:
            segments_item: dict[str, Any]
            if isinstance(segments_item_data, LetterTextSegment):
                segments_item = segments_item_data.to_dict()
            else:
                segments_item = segments_item_data.to_dict()

            segments.append(segments_item)

        text = self.text

        missing_fields = self.missing_fields

        warnings = []
        for warnings_item_data in self.warnings:
            warnings_item = warnings_item_data.to_dict()
            warnings.append(warnings_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "segments": segments,
                "text": text,
                "missingFields": missing_fields,
                "warnings": warnings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.letter_field_segment import LetterFieldSegment
        from ..models.letter_text_segment import LetterTextSegment
        from ..models.request_warning import RequestWarning

        d = dict(src_dict)
        segments = []
        _segments = d.pop("segments")
        for segments_item_data in _segments:

            def _parse_segments_item(
                data: object,
            ) -> LetterFieldSegment | LetterTextSegment:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_segment_type_0 = LetterTextSegment.from_dict(data)

                    return componentsschemas_segment_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_segment_type_1 = LetterFieldSegment.from_dict(data)

                return componentsschemas_segment_type_1

            segments_item = _parse_segments_item(segments_item_data)

            segments.append(segments_item)

        text = d.pop("text")

        missing_fields = cast(list[str], d.pop("missingFields"))

        warnings = []
        _warnings = d.pop("warnings")
        for warnings_item_data in _warnings:
            warnings_item = RequestWarning.from_dict(warnings_item_data)

            warnings.append(warnings_item)

        letter_render = cls(
            segments=segments,
            text=text,
            missing_fields=missing_fields,
            warnings=warnings,
        )

        return letter_render
