from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.letter_detail_recommended_mode import LetterDetailRecommendedMode

if TYPE_CHECKING:
    from ..models.field import Field
    from ..models.legal_source import LegalSource
    from ..models.letter_detail_providers_item import LetterDetailProvidersItem
    from ..models.letter_detail_template import LetterDetailTemplate
    from ..models.letter_provider import LetterProvider


T = TypeVar("T", bound="LetterDetail")


@_attrs_define
class LetterDetail:
    """
    Attributes:
        slug (str):
        title (str):
        category (str):
        summary (str):
        legal_basis (list[str]):
        sources (list[LegalSource]):
        recommended_mode (LetterDetailRecommendedMode | str):
        keywords (list[str]):
        providers (list[LetterDetailProvidersItem]):
        provider (LetterProvider | None):
        fields (list[Field]): Every field to send, for this provider when one is given
        template (LetterDetailTemplate):
    """

    slug: str
    title: str
    category: str
    summary: str
    legal_basis: list[str]
    sources: list[LegalSource]
    recommended_mode: LetterDetailRecommendedMode | str
    keywords: list[str]
    providers: list[LetterDetailProvidersItem]
    provider: LetterProvider | None
    fields: list[Field]
    template: LetterDetailTemplate

    def to_dict(self) -> dict[str, Any]:
        from ..models.letter_provider import LetterProvider

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
        if isinstance(self.recommended_mode, LetterDetailRecommendedMode):
            recommended_mode = self.recommended_mode.value
        else:
            recommended_mode = self.recommended_mode

        keywords = self.keywords

        providers = []
        for providers_item_data in self.providers:
            providers_item = providers_item_data.to_dict()
            providers.append(providers_item)

        provider: dict[str, Any] | None
        if isinstance(self.provider, LetterProvider):
            provider = self.provider.to_dict()
        else:
            provider = self.provider

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        template = self.template.to_dict()

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
                "provider": provider,
                "fields": fields,
                "template": template,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.field import Field
        from ..models.legal_source import LegalSource
        from ..models.letter_detail_providers_item import LetterDetailProvidersItem
        from ..models.letter_detail_template import LetterDetailTemplate
        from ..models.letter_provider import LetterProvider

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

        def _parse_recommended_mode(data: object) -> LetterDetailRecommendedMode | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                recommended_mode_type_0 = LetterDetailRecommendedMode(data)

                return recommended_mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LetterDetailRecommendedMode | str, data)

        recommended_mode = _parse_recommended_mode(d.pop("recommendedMode"))

        keywords = cast(list[str], d.pop("keywords"))

        providers = []
        _providers = d.pop("providers")
        for providers_item_data in _providers:
            providers_item = LetterDetailProvidersItem.from_dict(providers_item_data)

            providers.append(providers_item)

        def _parse_provider(data: object) -> LetterProvider | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                provider_type_0 = LetterProvider.from_dict(data)

                return provider_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LetterProvider | None, data)

        provider = _parse_provider(d.pop("provider"))

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = Field.from_dict(fields_item_data)

            fields.append(fields_item)

        template = LetterDetailTemplate.from_dict(d.pop("template"))

        letter_detail = cls(
            slug=slug,
            title=title,
            category=category,
            summary=summary,
            legal_basis=legal_basis,
            sources=sources,
            recommended_mode=recommended_mode,
            keywords=keywords,
            providers=providers,
            provider=provider,
            fields=fields,
            template=template,
        )

        return letter_detail
