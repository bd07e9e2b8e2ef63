from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys

T = TypeVar("T", bound="ElectronicConsentInput")


@_attrs_define
class ElectronicConsentInput:
    """
    Attributes:
        date (str): The day the recipient agreed (YYYY-MM-DD), not in the future (422 otherwise)
        means (str): How it agreed, e.g. "clause 12 of the lease signed 2026-01-10" or "form on our site"
    """

    date: str
    means: str

    def to_dict(self) -> dict[str, Any]:
        date = self.date

        means = self.means

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "date": date,
                "means": means,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        date = d.pop("date")

        means = d.pop("means")

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "date": "date",
                "means": "means",
            },
        )
        electronic_consent_input = cls(
            date=date,
            means=means,
        )

        return electronic_consent_input
