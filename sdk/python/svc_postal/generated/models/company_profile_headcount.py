from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="CompanyProfileHeadcount")


@_attrs_define
class CompanyProfileHeadcount:
    """
    Attributes:
        range_ (None | str): INSEE headcount range code (tranche d'effectif)
    """

    range_: None | str

    def to_dict(self) -> dict[str, Any]:
        range_: None | str
        range_ = self.range_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "range": range_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_range_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        range_ = _parse_range_(d.pop("range"))

        company_profile_headcount = cls(
            range_=range_,
        )

        return company_profile_headcount
