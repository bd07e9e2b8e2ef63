from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

T = TypeVar("T", bound="AiFillRequest")


@_attrs_define
class AiFillRequest:
    """
    Attributes:
        slug (str): The catalogue letter to fill
        sentence (str): One sentence in the sender's words, e.g. "Je résilie mon abonnement Free n° 123456 au 31 mars
            2026"
        provider (str | Unset): A provider of the letter: its address and own fields apply
    """

    slug: str
    sentence: str
    provider: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        sentence = self.sentence

        provider = self.provider

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
                "sentence": sentence,
            }
        )
        if provider is not UNSET:
            field_dict["provider"] = provider

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        slug = d.pop("slug")

        sentence = d.pop("sentence")

        provider = d.pop("provider", UNSET)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "slug": "slug",
                "sentence": "sentence",
                "provider": "provider",
            },
        )
        ai_fill_request = cls(
            slug=slug,
            sentence=sentence,
            provider=provider,
        )

        return ai_fill_request
