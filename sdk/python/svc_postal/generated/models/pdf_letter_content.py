from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

T = TypeVar("T", bound="PdfLetterContent")


@_attrs_define
class PdfLetterContent:
    """
    Attributes:
        pdf (str): The PDF file, base64 encoded: A4 portrait pages, fonts embedded, no encryption, scripts or actions,
            at most 45 sheets
        title (str | Unset): Title of the mailing; "Document PDF" when absent
    """

    pdf: str
    title: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        pdf = self.pdf

        title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pdf": pdf,
            }
        )
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pdf = d.pop("pdf")

        title = d.pop("title", UNSET)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "pdf": "pdf",
                "title": "title",
            },
        )
        pdf_letter_content = cls(
            pdf=pdf,
            title=title,
        )

        return pdf_letter_content
