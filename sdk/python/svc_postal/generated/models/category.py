from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Category")


@_attrs_define
class Category:
    """
    Attributes:
        slug (str):
        title (str):
        description (str):
    """

    slug: str
    title: str
    description: str

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        title = self.title

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
                "title": title,
                "description": description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        slug = d.pop("slug")

        title = d.pop("title")

        description = d.pop("description")

        category = cls(
            slug=slug,
            title=title,
            description=description,
        )

        return category
