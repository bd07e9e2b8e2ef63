from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SettlementTransfersItem")


@_attrs_define
class SettlementTransfersItem:
    """
    Attributes:
        from_ (str):
        to (str):
        amount_cents (int):
    """

    from_: str
    to: str
    amount_cents: int

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_

        to = self.to

        amount_cents = self.amount_cents

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "to": to,
                "amountCents": amount_cents,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        from_ = d.pop("from")

        to = d.pop("to")

        amount_cents = d.pop("amountCents")

        settlement_transfers_item = cls(
            from_=from_,
            to=to,
            amount_cents=amount_cents,
        )

        return settlement_transfers_item
