from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.letter_render import LetterRender
    from ..models.v1_ai_fill_result_rejected_item import V1AiFillResultRejectedItem
    from ..models.v1_ai_fill_result_values import V1AiFillResultValues


T = TypeVar("T", bound="V1AiFillResult")


@_attrs_define
class V1AiFillResult:
    """
    Attributes:
        slug (str):
        provider (None | str):
        values (V1AiFillResultValues): Field values found, checked with the rules of /render
        missing_fields (list[str]): Required fields still without a value
        rejected (list[V1AiFillResultRejectedItem]): Values the model proposed that fail the field rules: left out of
            values
        render (LetterRender):
        simulated (bool): True with a test key: deterministic output derived from the input, no provider called, nothing
            billed
        model (str): The model that answered ("svc-simulator" when simulated)
        prompt_version (None | str): The prompt file used, e.g. fill-letter@v1; null when simulated
    """

    slug: str
    provider: None | str
    values: V1AiFillResultValues
    missing_fields: list[str]
    rejected: list[V1AiFillResultRejectedItem]
    render: LetterRender
    simulated: bool
    model: str
    prompt_version: None | str

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        provider: None | str
        provider = self.provider

        values = self.values.to_dict()

        missing_fields = self.missing_fields

        rejected = []
        for rejected_item_data in self.rejected:
            rejected_item = rejected_item_data.to_dict()
            rejected.append(rejected_item)

        render = self.render.to_dict()

        simulated = self.simulated

        model = self.model

        prompt_version: None | str
        prompt_version = self.prompt_version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
                "provider": provider,
                "values": values,
                "missingFields": missing_fields,
                "rejected": rejected,
                "render": render,
                "simulated": simulated,
                "model": model,
                "promptVersion": prompt_version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.letter_render import LetterRender
        from ..models.v1_ai_fill_result_rejected_item import V1AiFillResultRejectedItem
        from ..models.v1_ai_fill_result_values import V1AiFillResultValues

        d = dict(src_dict)
        slug = d.pop("slug")

        def _parse_provider(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider = _parse_provider(d.pop("provider"))

        values = V1AiFillResultValues.from_dict(d.pop("values"))

        missing_fields = cast(list[str], d.pop("missingFields"))

        rejected = []
        _rejected = d.pop("rejected")
        for rejected_item_data in _rejected:
            rejected_item = V1AiFillResultRejectedItem.from_dict(rejected_item_data)

            rejected.append(rejected_item)

        render = LetterRender.from_dict(d.pop("render"))

        simulated = d.pop("simulated")

        model = d.pop("model")

        def _parse_prompt_version(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        prompt_version = _parse_prompt_version(d.pop("promptVersion"))

        v1_ai_fill_result = cls(
            slug=slug,
            provider=provider,
            values=values,
            missing_fields=missing_fields,
            rejected=rejected,
            render=render,
            simulated=simulated,
            model=model,
            prompt_version=prompt_version,
        )

        return v1_ai_fill_result
