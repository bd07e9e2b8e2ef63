from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.postal_address import PostalAddress


T = TypeVar("T", bound="LetterProvider")


@_attrs_define
class LetterProvider:
    """
    Attributes:
        slug (str):
        name (str):
        address (PostalAddress):
    """

    slug: str
    name: str
    address: PostalAddress

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        name = self.name

        address = self.address.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
                "name": name,
                "address": address,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.postal_address import PostalAddress

        d = dict(src_dict)
        slug = d.pop("slug")

        name = d.pop("name")

        address = PostalAddress.from_dict(d.pop("address"))

        letter_provider = cls(
            slug=slug,
            name=name,
            address=address,
        )

        return letter_provider
