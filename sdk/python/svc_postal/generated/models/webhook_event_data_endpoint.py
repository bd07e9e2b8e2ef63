from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.webhook_event_data_endpoint_events_item import (
    WebhookEventDataEndpointEventsItem,
)

T = TypeVar("T", bound="WebhookEventDataEndpoint")


@_attrs_define
class WebhookEventDataEndpoint:
    """Only for ping: the endpoint tried, as declared

    Attributes:
        id (UUID):
        url (str):
        events (list[str | WebhookEventDataEndpointEventsItem]): The event filter; empty: every event type
    """

    id: UUID
    url: str
    events: list[str | WebhookEventDataEndpointEventsItem]

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        url = self.url

        events = []
        for events_item_data in self.events:
            events_item: str
            if isinstance(events_item_data, WebhookEventDataEndpointEventsItem):
                events_item = events_item_data.value
            else:
                events_item = events_item_data
            events.append(events_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "events": events,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:

            def _parse_events_item(
                data: object,
            ) -> str | WebhookEventDataEndpointEventsItem:
                try:
                    if not isinstance(data, str):
                        raise TypeError()
                    events_item_type_0 = WebhookEventDataEndpointEventsItem(data)

                    return events_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(str | WebhookEventDataEndpointEventsItem, data)

            events_item = _parse_events_item(events_item_data)

            events.append(events_item)

        webhook_event_data_endpoint = cls(
            id=id,
            url=url,
            events=events,
        )

        return webhook_event_data_endpoint
