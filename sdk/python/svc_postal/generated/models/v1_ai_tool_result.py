from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="V1AiToolResult")


@_attrs_define
class V1AiToolResult:
    """
    Attributes:
        slug (str):
        title (str):
        text (str): The generated text
        simulated (bool): True with a test key: deterministic output derived from the input, no provider called, nothing
            billed
        model (str): The model that answered ("svc-simulator" when simulated)
        prompt_version (None | str): The prompt file used, e.g. fill-letter@v1; null when simulated
    """

    slug: str
    title: str
    text: str
    simulated: bool
    model: str
    prompt_version: None | str

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        title = self.title

        text = self.text

        simulated = self.simulated

        model = self.model

        prompt_version: None | str
        prompt_version = self.prompt_version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
                "title": title,
                "text": text,
                "simulated": simulated,
                "model": model,
                "promptVersion": prompt_version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        slug = d.pop("slug")

        title = d.pop("title")

        text = d.pop("text")

        simulated = d.pop("simulated")

        model = d.pop("model")

        def _parse_prompt_version(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        prompt_version = _parse_prompt_version(d.pop("promptVersion"))

        v1_ai_tool_result = cls(
            slug=slug,
            title=title,
            text=text,
            simulated=simulated,
            model=model,
            prompt_version=prompt_version,
        )

        return v1_ai_tool_result
