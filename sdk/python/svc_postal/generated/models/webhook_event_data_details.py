from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookEventDataDetails")


@_attrs_define
class WebhookEventDataDetails:
    """Only for mailing.error, when the reason is known (the mailing is then refunded), and for mailing.returned of a
    simple letter with options.returnedMail digital

        Attributes:
            reason (str): Why the mailing ended in error, e.g. the postal operator's reason for refusing the letter; or why
                a letter whose returns are handled digitally came back
    """

    reason: str

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reason = d.pop("reason")

        webhook_event_data_details = cls(
            reason=reason,
        )

        return webhook_event_data_details
