from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.free_letter_content import FreeLetterContent
    from ..models.text_segment import TextSegment


T = TypeVar("T", bound="V1AiLetterResult")


@_attrs_define
class V1AiLetterResult:
    """
    Attributes:
        title (str):
        segments (list[TextSegment]): The letter in reading order, as in LetterRender
        text (str):
        missing_fields (list[str]): Always empty: a drafted letter has no field slots
        letter (FreeLetterContent):
        simulated (bool): True with a test key: deterministic output derived from the input, no provider called, nothing
            billed
        model (str): The model that answered ("svc-simulator" when simulated)
        prompt_version (None | str): The prompt file used, e.g. fill-letter@v1; null when simulated
    """

    title: str
    segments: list[TextSegment]
    text: str
    missing_fields: list[str]
    letter: FreeLetterContent
    simulated: bool
    model: str
    prompt_version: None | str

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        segments = []
        for segments_item_data in self.segments:
            segments_item = segments_item_data.to_dict()
            segments.append(segments_item)

        text = self.text

        missing_fields = self.missing_fields

        letter = self.letter.to_dict()

        simulated = self.simulated

        model = self.model

        prompt_version: None | str
        prompt_version = self.prompt_version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
                "segments": segments,
                "text": text,
                "missingFields": missing_fields,
                "letter": letter,
                "simulated": simulated,
                "model": model,
                "promptVersion": prompt_version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.free_letter_content import FreeLetterContent
        from ..models.text_segment import TextSegment

        d = dict(src_dict)
        title = d.pop("title")

        segments = []
        _segments = d.pop("segments")
        for segments_item_data in _segments:
            segments_item = TextSegment.from_dict(segments_item_data)

            segments.append(segments_item)

        text = d.pop("text")

        missing_fields = cast(list[str], d.pop("missingFields"))

        letter = FreeLetterContent.from_dict(d.pop("letter"))

        simulated = d.pop("simulated")

        model = d.pop("model")

        def _parse_prompt_version(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        prompt_version = _parse_prompt_version(d.pop("promptVersion"))

        v1_ai_letter_result = cls(
            title=title,
            segments=segments,
            text=text,
            missing_fields=missing_fields,
            letter=letter,
            simulated=simulated,
            model=model,
            prompt_version=prompt_version,
        )

        return v1_ai_letter_result
