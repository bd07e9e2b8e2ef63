from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.shipment_events_item_status import ShipmentEventsItemStatus

T = TypeVar("T", bound="ShipmentEventsItem")


@_attrs_define
class ShipmentEventsItem:
    """
    Attributes:
        step (int):
        status (ShipmentEventsItemStatus | str):
        label (str):
        at (datetime.datetime):
    """

    step: int
    status: ShipmentEventsItemStatus | str
    label: str
    at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        step = self.step

        status: str
        if isinstance(self.status, ShipmentEventsItemStatus):
            status = self.status.value
        else:
            status = self.status

        label = self.label

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "step": step,
                "status": status,
                "label": label,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        step = d.pop("step")

        def _parse_status(data: object) -> ShipmentEventsItemStatus | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = ShipmentEventsItemStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ShipmentEventsItemStatus | str, data)

        status = _parse_status(d.pop("status"))

        label = d.pop("label")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        shipment_events_item = cls(
            step=step,
            status=status,
            label=label,
            at=at,
        )

        return shipment_events_item
