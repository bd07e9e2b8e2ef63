from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys

if TYPE_CHECKING:
    from ..models.expense import Expense
    from ..models.expense_member import ExpenseMember


T = TypeVar("T", bound="ExpenseGroup")


@_attrs_define
class ExpenseGroup:
    """
    Attributes:
        members (list[ExpenseMember]):
        expenses (list[Expense]):
    """

    members: list[ExpenseMember]
    expenses: list[Expense]

    def to_dict(self) -> dict[str, Any]:
        members = []
        for members_item_data in self.members:
            members_item = members_item_data.to_dict()
            members.append(members_item)

        expenses = []
        for expenses_item_data in self.expenses:
            expenses_item = expenses_item_data.to_dict()
            expenses.append(expenses_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "members": members,
                "expenses": expenses,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.expense import Expense
        from ..models.expense_member import ExpenseMember

        d = dict(src_dict)
        members = []
        _members = d.pop("members")
        for members_item_data in _members:
            members_item = ExpenseMember.from_dict(members_item_data)

            members.append(members_item)

        expenses = []
        _expenses = d.pop("expenses")
        for expenses_item_data in _expenses:
            expenses_item = Expense.from_dict(expenses_item_data)

            expenses.append(expenses_item)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "members": "members",
                "expenses": "expenses",
            },
        )
        expense_group = cls(
            members=members,
            expenses=expenses,
        )

        return expense_group
