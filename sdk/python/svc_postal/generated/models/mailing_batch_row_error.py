from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MailingBatchRowError")


@_attrs_define
class MailingBatchRowError:
    """
    Attributes:
        code (str):
        message (str):
        details (Any | Unset):
    """

    code: str
    message: str
    details: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        message = self.message

        details = self.details

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
            }
        )
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        details = d.pop("details", UNSET)

        mailing_batch_row_error = cls(
            code=code,
            message=message,
            details=details,
        )

        return mailing_batch_row_error
