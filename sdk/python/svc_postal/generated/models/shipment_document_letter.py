from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ShipmentDocumentLetter")


@_attrs_define
class ShipmentDocumentLetter:
    """
    Attributes:
        slug (str):
        provider (None | str):
    """

    slug: str
    provider: None | str

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        provider: None | str
        provider = self.provider

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
                "provider": provider,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        slug = d.pop("slug")

        def _parse_provider(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider = _parse_provider(d.pop("provider"))

        shipment_document_letter = cls(
            slug=slug,
            provider=provider,
        )

        return shipment_document_letter
