from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.expense_split import ExpenseSplit


T = TypeVar("T", bound="Expense")


@_attrs_define
class Expense:
    """
    Attributes:
        amount_cents (int):
        paid_by (str): Member identifier, as used in expenses
        label (str | Unset):
        split (ExpenseSplit | Unset):
    """

    amount_cents: int
    paid_by: str
    label: str | Unset = UNSET
    split: ExpenseSplit | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount_cents = self.amount_cents

        paid_by = self.paid_by

        label = self.label

        split: dict[str, Any] | Unset = UNSET
        if not isinstance(self.split, Unset):
            split = self.split.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amountCents": amount_cents,
                "paidBy": paid_by,
            }
        )
        if label is not UNSET:
            field_dict["label"] = label
        if split is not UNSET:
            field_dict["split"] = split

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.expense_split import ExpenseSplit

        d = dict(src_dict)
        amount_cents = d.pop("amountCents")

        paid_by = d.pop("paidBy")

        label = d.pop("label", UNSET)

        _split = d.pop("split", UNSET)
        split: ExpenseSplit | Unset
        if isinstance(_split, Unset):
            split = UNSET
        else:
            split = ExpenseSplit.from_dict(_split)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "amount_cents": "amountCents",
                "paid_by": "paidBy",
                "label": "label",
                "split": "split",
            },
        )
        expense = cls(
            amount_cents=amount_cents,
            paid_by=paid_by,
            label=label,
            split=split,
        )

        return expense
