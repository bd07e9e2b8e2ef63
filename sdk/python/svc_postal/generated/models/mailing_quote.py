from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.mailing_quote_lines_item import MailingQuoteLinesItem


T = TypeVar("T", bound="MailingQuote")


@_attrs_define
class MailingQuote:
    """
    Attributes:
        amount_cents (int): What POST /v1/mailings would debit (live keys), excluding VAT
        vat_cents (int): VAT on amountCents (20 %)
        sheets (int | None): Sheets in the envelope (PDF letters: the address sheet included); null for catalogue and
            free letters, laid out at filing
        pages (int | None): Pages of the customer's PDF; null for catalogue and free letters
        lines (list[MailingQuoteLinesItem]):
    """

    amount_cents: int
    vat_cents: int
    sheets: int | None
    pages: int | None
    lines: list[MailingQuoteLinesItem]

    def to_dict(self) -> dict[str, Any]:
        amount_cents = self.amount_cents

        vat_cents = self.vat_cents

        sheets: int | None
        sheets = self.sheets

        pages: int | None
        pages = self.pages

        lines = []
        for lines_item_data in self.lines:
            lines_item = lines_item_data.to_dict()
            lines.append(lines_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amountCents": amount_cents,
                "vatCents": vat_cents,
                "sheets": sheets,
                "pages": pages,
                "lines": lines,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mailing_quote_lines_item import MailingQuoteLinesItem

        d = dict(src_dict)
        amount_cents = d.pop("amountCents")

        vat_cents = d.pop("vatCents")

        def _parse_sheets(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        sheets = _parse_sheets(d.pop("sheets"))

        def _parse_pages(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        pages = _parse_pages(d.pop("pages"))

        lines = []
        _lines = d.pop("lines")
        for lines_item_data in _lines:
            lines_item = MailingQuoteLinesItem.from_dict(lines_item_data)

            lines.append(lines_item)

        mailing_quote = cls(
            amount_cents=amount_cents,
            vat_cents=vat_cents,
            sheets=sheets,
            pages=pages,
            lines=lines,
        )

        return mailing_quote
