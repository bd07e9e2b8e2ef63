from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SettlementBalancesItem")


@_attrs_define
class SettlementBalancesItem:
    """
    Attributes:
        member (str):
        paid_cents (int):
        share_cents (int):
        balance_cents (int): Positive: is owed money; negative: owes money
    """

    member: str
    paid_cents: int
    share_cents: int
    balance_cents: int

    def to_dict(self) -> dict[str, Any]:
        member = self.member

        paid_cents = self.paid_cents

        share_cents = self.share_cents

        balance_cents = self.balance_cents

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "member": member,
                "paidCents": paid_cents,
                "shareCents": share_cents,
                "balanceCents": balance_cents,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        member = d.pop("member")

        paid_cents = d.pop("paidCents")

        share_cents = d.pop("shareCents")

        balance_cents = d.pop("balanceCents")

        settlement_balances_item = cls(
            member=member,
            paid_cents=paid_cents,
            share_cents=share_cents,
            balance_cents=balance_cents,
        )

        return settlement_balances_item
