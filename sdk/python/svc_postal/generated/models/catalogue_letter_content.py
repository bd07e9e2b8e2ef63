from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.catalogue_letter_content_fields import CatalogueLetterContentFields


T = TypeVar("T", bound="CatalogueLetterContent")


@_attrs_define
class CatalogueLetterContent:
    """
    Attributes:
        slug (str): Catalogue identifier
        provider (str | Unset):
        fields (CatalogueLetterContentFields | Unset):
    """

    slug: str
    provider: str | Unset = UNSET
    fields: CatalogueLetterContentFields | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        provider = self.provider

        fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fields, Unset):
            fields = self.fields.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
            }
        )
        if provider is not UNSET:
            field_dict["provider"] = provider
        if fields is not UNSET:
            field_dict["fields"] = fields

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalogue_letter_content_fields import (
            CatalogueLetterContentFields,
        )

        d = dict(src_dict)
        slug = d.pop("slug")

        provider = d.pop("provider", UNSET)

        _fields = d.pop("fields", UNSET)
        fields: CatalogueLetterContentFields | Unset
        if isinstance(_fields, Unset):
            fields = UNSET
        else:
            fields = CatalogueLetterContentFields.from_dict(_fields)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "slug": "slug",
                "provider": "provider",
                "fields": "fields",
            },
        )
        catalogue_letter_content = cls(
            slug=slug,
            provider=provider,
            fields=fields,
        )

        return catalogue_letter_content
