from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys

T = TypeVar("T", bound="FreeLetterContentInput")


@_attrs_define
class FreeLetterContentInput:
    """
    Attributes:
        title (str):
        body (str): Plain text, a blank line between paragraphs
    """

    title: str
    body: str

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        body = self.body

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
                "body": body,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        body = d.pop("body")

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "title": "title",
                "body": "body",
            },
        )
        free_letter_content_input = cls(
            title=title,
            body=body,
        )

        return free_letter_content_input
