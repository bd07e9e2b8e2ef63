from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.field import Field
    from ..models.legal_source import LegalSource


T = TypeVar("T", bound="CatalogueTool")


@_attrs_define
class CatalogueTool:
    """
    Attributes:
        slug (str):
        title (str):
        category (str):
        inputs (list[Field]):
        summary (str | Unset):
        source (list[str] | Unset):
        sources (list[LegalSource] | Unset):
        needs_route (bool | Unset):
    """

    slug: str
    title: str
    category: str
    inputs: list[Field]
    summary: str | Unset = UNSET
    source: list[str] | Unset = UNSET
    sources: list[LegalSource] | Unset = UNSET
    needs_route: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        title = self.title

        category = self.category

        inputs = []
        for inputs_item_data in self.inputs:
            inputs_item = inputs_item_data.to_dict()
            inputs.append(inputs_item)

        summary = self.summary

        source: list[str] | Unset = UNSET
        if not isinstance(self.source, Unset):
            source = self.source

        sources: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.sources, Unset):
            sources = []
            for sources_item_data in self.sources:
                sources_item = sources_item_data.to_dict()
                sources.append(sources_item)

        needs_route = self.needs_route

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
                "title": title,
                "category": category,
                "inputs": inputs,
            }
        )
        if summary is not UNSET:
            field_dict["summary"] = summary
        if source is not UNSET:
            field_dict["source"] = source
        if sources is not UNSET:
            field_dict["sources"] = sources
        if needs_route is not UNSET:
            field_dict["needsRoute"] = needs_route

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.field import Field
        from ..models.legal_source import LegalSource

        d = dict(src_dict)
        slug = d.pop("slug")

        title = d.pop("title")

        category = d.pop("category")

        inputs = []
        _inputs = d.pop("inputs")
        for inputs_item_data in _inputs:
            inputs_item = Field.from_dict(inputs_item_data)

            inputs.append(inputs_item)

        summary = d.pop("summary", UNSET)

        source = cast(list[str], d.pop("source", UNSET))

        _sources = d.pop("sources", UNSET)
        sources: list[LegalSource] | Unset = UNSET
        if _sources is not UNSET:
            sources = []
            for sources_item_data in _sources:
                sources_item = LegalSource.from_dict(sources_item_data)

                sources.append(sources_item)

        needs_route = d.pop("needsRoute", UNSET)

        catalogue_tool = cls(
            slug=slug,
            title=title,
            category=category,
            inputs=inputs,
            summary=summary,
            source=source,
            sources=sources,
            needs_route=needs_route,
        )

        return catalogue_tool
