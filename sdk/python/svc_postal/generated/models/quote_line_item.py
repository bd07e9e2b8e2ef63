from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="QuoteLineItem")


@_attrs_define
class QuoteLineItem:
    """
    Attributes:
        code (str): Stable identifier of the line, e.g. handling, transport, volumeDiscount
        label (str):
        quantity (float):
        unit (str): m3, truck, km, floor_m3, letter, sheet, page, document, flat
        unit_amount_cents (int):
        amount_cents (int): quantity × unitAmountCents, rounded to the cent; negative for a discount
    """

    code: str
    label: str
    quantity: float
    unit: str
    unit_amount_cents: int
    amount_cents: int

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        label = self.label

        quantity = self.quantity

        unit = self.unit

        unit_amount_cents = self.unit_amount_cents

        amount_cents = self.amount_cents

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "label": label,
                "quantity": quantity,
                "unit": unit,
                "unitAmountCents": unit_amount_cents,
                "amountCents": amount_cents,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        label = d.pop("label")

        quantity = d.pop("quantity")

        unit = d.pop("unit")

        unit_amount_cents = d.pop("unitAmountCents")

        amount_cents = d.pop("amountCents")

        quote_line_item = cls(
            code=code,
            label=label,
            quantity=quantity,
            unit=unit,
            unit_amount_cents=unit_amount_cents,
            amount_cents=amount_cents,
        )

        return quote_line_item
