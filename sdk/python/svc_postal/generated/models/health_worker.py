from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="HealthWorker")


@_attrs_define
class HealthWorker:
    """A worker polled the task queue of mailings within the last 90 seconds

    Attributes:
        ok (bool):
        last_poll_at (datetime.datetime | Unset): When a worker last asked for work, as the Temporal server knows it
    """

    ok: bool
    last_poll_at: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        ok = self.ok

        last_poll_at: str | Unset = UNSET
        if not isinstance(self.last_poll_at, Unset):
            last_poll_at = self.last_poll_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "ok": ok,
            }
        )
        if last_poll_at is not UNSET:
            field_dict["lastPollAt"] = last_poll_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ok = d.pop("ok")

        _last_poll_at = d.pop("lastPollAt", UNSET)
        last_poll_at: datetime.datetime | Unset
        if isinstance(_last_poll_at, Unset):
            last_poll_at = UNSET
        else:
            last_poll_at = datetime.datetime.fromisoformat(_last_poll_at)

        health_worker = cls(
            ok=ok,
            last_poll_at=last_poll_at,
        )

        return health_worker
