from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.readiness_status import ReadinessStatus

if TYPE_CHECKING:
    from ..models.readiness_postgres import ReadinessPostgres


T = TypeVar("T", bound="Readiness")


@_attrs_define
class Readiness:
    """
    Attributes:
        status (ReadinessStatus | str):
        checked_at (datetime.datetime): When the database was probed; the result is shared for a few seconds
        postgres (ReadinessPostgres): The database answers SELECT 1
    """

    status: ReadinessStatus | str
    checked_at: datetime.datetime
    postgres: ReadinessPostgres

    def to_dict(self) -> dict[str, Any]:
        status: str
        if isinstance(self.status, ReadinessStatus):
            status = self.status.value
        else:
            status = self.status

        checked_at = self.checked_at.isoformat()

        postgres = self.postgres.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "checkedAt": checked_at,
                "postgres": postgres,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.readiness_postgres import ReadinessPostgres

        d = dict(src_dict)

        def _parse_status(data: object) -> ReadinessStatus | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = ReadinessStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ReadinessStatus | str, data)

        status = _parse_status(d.pop("status"))

        checked_at = datetime.datetime.fromisoformat(d.pop("checkedAt"))

        postgres = ReadinessPostgres.from_dict(d.pop("postgres"))

        readiness = cls(
            status=status,
            checked_at=checked_at,
            postgres=postgres,
        )

        return readiness
