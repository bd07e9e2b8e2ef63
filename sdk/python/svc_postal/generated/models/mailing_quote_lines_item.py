from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="MailingQuoteLinesItem")


@_attrs_define
class MailingQuoteLinesItem:
    """
    Attributes:
        unit (str): A unit of the price table (GET /v1/catalogue prices, docs/billing.md)
        quantity (int):
        amount_cents (int):
    """

    unit: str
    quantity: int
    amount_cents: int

    def to_dict(self) -> dict[str, Any]:
        unit = self.unit

        quantity = self.quantity

        amount_cents = self.amount_cents

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "unit": unit,
                "quantity": quantity,
                "amountCents": amount_cents,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        unit = d.pop("unit")

        quantity = d.pop("quantity")

        amount_cents = d.pop("amountCents")

        mailing_quote_lines_item = cls(
            unit=unit,
            quantity=quantity,
            amount_cents=amount_cents,
        )

        return mailing_quote_lines_item
