from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..models.expense_split_mode import ExpenseSplitMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.expense_split_amounts import ExpenseSplitAmounts
    from ..models.expense_split_shares import ExpenseSplitShares


T = TypeVar("T", bound="ExpenseSplit")


@_attrs_define
class ExpenseSplit:
    """
    Attributes:
        mode (ExpenseSplitMode):
        members (list[str] | Unset): mode 'equal': who shares it (default: every member)
        shares (ExpenseSplitShares | Unset): mode 'shares': weight per member
        amounts (ExpenseSplitAmounts | Unset): mode 'amounts': cents per member, summing to amountCents
    """

    mode: ExpenseSplitMode
    members: list[str] | Unset = UNSET
    shares: ExpenseSplitShares | Unset = UNSET
    amounts: ExpenseSplitAmounts | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        members: list[str] | Unset = UNSET
        if not isinstance(self.members, Unset):
            members = self.members

        shares: dict[str, Any] | Unset = UNSET
        if not isinstance(self.shares, Unset):
            shares = self.shares.to_dict()

        amounts: dict[str, Any] | Unset = UNSET
        if not isinstance(self.amounts, Unset):
            amounts = self.amounts.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mode": mode,
            }
        )
        if members is not UNSET:
            field_dict["members"] = members
        if shares is not UNSET:
            field_dict["shares"] = shares
        if amounts is not UNSET:
            field_dict["amounts"] = amounts

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.expense_split_amounts import ExpenseSplitAmounts
        from ..models.expense_split_shares import ExpenseSplitShares

        d = dict(src_dict)
        mode = ExpenseSplitMode(d.pop("mode"))

        members = cast(list[str], d.pop("members", UNSET))

        _shares = d.pop("shares", UNSET)
        shares: ExpenseSplitShares | Unset
        if isinstance(_shares, Unset):
            shares = UNSET
        else:
            shares = ExpenseSplitShares.from_dict(_shares)

        _amounts = d.pop("amounts", UNSET)
        amounts: ExpenseSplitAmounts | Unset
        if isinstance(_amounts, Unset):
            amounts = UNSET
        else:
            amounts = ExpenseSplitAmounts.from_dict(_amounts)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "mode": "mode",
                "members": "members",
                "shares": "shares",
                "amounts": "amounts",
            },
        )
        expense_split = cls(
            mode=mode,
            members=members,
            shares=shares,
            amounts=amounts,
        )

        return expense_split
