from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.webhook_event_type import WebhookEventType

if TYPE_CHECKING:
    from ..models.webhook_event_data import WebhookEventData


T = TypeVar("T", bound="WebhookEvent")


@_attrs_define
class WebhookEvent:
    """
    Attributes:
        id (UUID): Event identifier, the same on every retry and after a workflow reset: deduplicate on it
        type_ (str | WebhookEventType):
        created (datetime.datetime): Event time, ISO 8601 UTC with milliseconds
        livemode (bool): False in the sandbox
        data (WebhookEventData):
    """

    id: UUID
    type_: str | WebhookEventType
    created: datetime.datetime
    livemode: bool
    data: WebhookEventData

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        type_: str
        if isinstance(self.type_, WebhookEventType):
            type_ = self.type_.value
        else:
            type_ = self.type_

        created = self.created.isoformat()

        livemode = self.livemode

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "created": created,
                "livemode": livemode,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_event_data import WebhookEventData

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_type_(data: object) -> str | WebhookEventType:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_0 = WebhookEventType(data)

                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | WebhookEventType, data)

        type_ = _parse_type_(d.pop("type"))

        created = datetime.datetime.fromisoformat(d.pop("created"))

        livemode = d.pop("livemode")

        data = WebhookEventData.from_dict(d.pop("data"))

        webhook_event = cls(
            id=id,
            type_=type_,
            created=created,
            livemode=livemode,
            data=data,
        )

        return webhook_event
