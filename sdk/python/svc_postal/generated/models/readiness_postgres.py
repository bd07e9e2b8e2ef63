from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReadinessPostgres")


@_attrs_define
class ReadinessPostgres:
    """The database answers SELECT 1

    Attributes:
        ok (bool):
        latency_ms (int): Time the probe took
    """

    ok: bool
    latency_ms: int

    def to_dict(self) -> dict[str, Any]:
        ok = self.ok

        latency_ms = self.latency_ms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "ok": ok,
                "latencyMs": latency_ms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ok = d.pop("ok")

        latency_ms = d.pop("latencyMs")

        readiness_postgres = cls(
            ok=ok,
            latency_ms=latency_ms,
        )

        return readiness_postgres
