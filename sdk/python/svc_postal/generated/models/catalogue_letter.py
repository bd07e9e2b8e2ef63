from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.catalogue_letter_recommended_mode import CatalogueLetterRecommendedMode

if TYPE_CHECKING:
    from ..models.catalogue_letter_providers_item import CatalogueLetterProvidersItem
    from ..models.field import Field
    from ..models.legal_source import LegalSource


T = TypeVar("T", bound="CatalogueLetter")


@_attrs_define
class CatalogueLetter:
    """
    Attributes:
        slug (str):
        title (str):
        category (str):
        summary (str):
        legal_basis (list[str]):
        sources (list[LegalSource]):
        recommended_mode (CatalogueLetterRecommendedMode | str):
        keywords (list[str]):
        providers (list[CatalogueLetterProvidersItem]):
        fields (list[Field]):
    """

    slug: str
    title: str
    category: str
    summary: str
    legal_basis: list[str]
    sources: list[LegalSource]
    recommended_mode: CatalogueLetterRecommendedMode | str
    keywords: list[str]
    providers: list[CatalogueLetterProvidersItem]
    fields: list[Field]

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        title = self.title

        category = self.category

        summary = self.summary

        legal_basis = self.legal_basis

        sources = []
        for sources_item_data in self.sources:
            sources_item = sources_item_data.to_dict()
            sources.append(sources_item)

        recommended_mode: str
        if isinstance(self.recommended_mode, CatalogueLetterRecommendedMode):
            recommended_mode = self.recommended_mode.value
        else:
            recommended_mode = self.recommended_mode

        keywords = self.keywords

        providers = []
        for providers_item_data in self.providers:
            providers_item = providers_item_data.to_dict()
            providers.append(providers_item)

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
                "title": title,
                "category": category,
                "summary": summary,
                "legalBasis": legal_basis,
                "sources": sources,
                "recommendedMode": recommended_mode,
                "keywords": keywords,
                "providers": providers,
                "fields": fields,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalogue_letter_providers_item import (
            CatalogueLetterProvidersItem,
        )
        from ..models.field import Field
        from ..models.legal_source import LegalSource

        d = dict(src_dict)
        slug = d.pop("slug")

        title = d.pop("title")

        category = d.pop("category")

        summary = d.pop("summary")

        legal_basis = cast(list[str], d.pop("legalBasis"))

        sources = []
        _sources = d.pop("sources")
        for sources_item_data in _sources:
            sources_item = LegalSource.from_dict(sources_item_data)

            sources.append(sources_item)

        def _parse_recommended_mode(
            data: object,
        ) -> CatalogueLetterRecommendedMode | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                recommended_mode_type_0 = CatalogueLetterRecommendedMode(data)

                return recommended_mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CatalogueLetterRecommendedMode | str, data)

        recommended_mode = _parse_recommended_mode(d.pop("recommendedMode"))

        keywords = cast(list[str], d.pop("keywords"))

        providers = []
        _providers = d.pop("providers")
        for providers_item_data in _providers:
            providers_item = CatalogueLetterProvidersItem.from_dict(providers_item_data)

            providers.append(providers_item)

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = Field.from_dict(fields_item_data)

            fields.append(fields_item)

        catalogue_letter = cls(
            slug=slug,
            title=title,
            category=category,
            summary=summary,
            legal_basis=legal_basis,
            sources=sources,
            recommended_mode=recommended_mode,
            keywords=keywords,
            providers=providers,
            fields=fields,
        )

        return catalogue_letter
