from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="LetterDetailTemplate")


@_attrs_define
class LetterDetailTemplate:
    """
    Attributes:
        subject (str):
        body (str):
    """

    subject: str
    body: str

    def to_dict(self) -> dict[str, Any]:
        subject = self.subject

        body = self.body

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subject": subject,
                "body": body,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subject = d.pop("subject")

        body = d.pop("body")

        letter_detail_template = cls(
            subject=subject,
            body=body,
        )

        return letter_detail_template
