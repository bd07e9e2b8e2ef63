from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

T = TypeVar("T", bound="ExpenseMember")


@_attrs_define
class ExpenseMember:
    """
    Attributes:
        id (str): Member identifier, as used in expenses
        name (str | Unset):
    """

    id: str
    name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name", UNSET)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "id": "id",
                "name": "name",
            },
        )
        expense_member = cls(
            id=id,
            name=name,
        )

        return expense_member
