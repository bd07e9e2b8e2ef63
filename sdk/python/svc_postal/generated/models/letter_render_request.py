from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.letter_render_request_fields import LetterRenderRequestFields


T = TypeVar("T", bound="LetterRenderRequest")


@_attrs_define
class LetterRenderRequest:
    """
    Attributes:
        provider (str | Unset): A provider of the letter; its address becomes the recipient and its own fields apply
        fields (LetterRenderRequestFields | Unset): Field values by field name
    """

    provider: str | Unset = UNSET
    fields: LetterRenderRequestFields | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider

        fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fields, Unset):
            fields = self.fields.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if provider is not UNSET:
            field_dict["provider"] = provider
        if fields is not UNSET:
            field_dict["fields"] = fields

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.letter_render_request_fields import LetterRenderRequestFields

        d = dict(src_dict)
        provider = d.pop("provider", UNSET)

        _fields = d.pop("fields", UNSET)
        fields: LetterRenderRequestFields | Unset
        if isinstance(_fields, Unset):
            fields = UNSET
        else:
            fields = LetterRenderRequestFields.from_dict(_fields)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "provider": "provider",
                "fields": "fields",
            },
        )
        letter_render_request = cls(
            provider=provider,
            fields=fields,
        )

        return letter_render_request
