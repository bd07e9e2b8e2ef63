from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="CompanyProfileActivity")


@_attrs_define
class CompanyProfileActivity:
    """
    Attributes:
        code (None | str):
    """

    code: None | str

    def to_dict(self) -> dict[str, Any]:
        code: None | str
        code = self.code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        code = _parse_code(d.pop("code"))

        company_profile_activity = cls(
            code=code,
        )

        return company_profile_activity
