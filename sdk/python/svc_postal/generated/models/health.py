from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.health_status import HealthStatus

if TYPE_CHECKING:
    from ..models.health_partners import HealthPartners
    from ..models.health_postgres import HealthPostgres
    from ..models.health_temporal import HealthTemporal
    from ..models.health_worker import HealthWorker


T = TypeVar("T", bound="Health")


@_attrs_define
class Health:
    """
    Attributes:
        status (HealthStatus | str):
        checked_at (datetime.datetime): When the components were probed; the result is shared for a few seconds
        postgres (HealthPostgres): The database answers SELECT 1
        temporal (HealthTemporal): The Temporal server answers
        worker (HealthWorker): A worker polled the task queue of mailings within the last 90 seconds
        partners (HealthPartners): This process's circuit breaker of each partner called on the request path: open while
            the partner keeps failing (its calls are answered at once, as when it fails: a mailing goes on with
            address_check_unavailable, a lookup answers 502), half_open while one call probes it. Partners are not our
            components: an open breaker leaves status ok.
    """

    status: HealthStatus | str
    checked_at: datetime.datetime
    postgres: HealthPostgres
    temporal: HealthTemporal
    worker: HealthWorker
    partners: HealthPartners

    def to_dict(self) -> dict[str, Any]:
        status: str
        if isinstance(self.status, HealthStatus):
            status = self.status.value
        else:
            status = self.status

        checked_at = self.checked_at.isoformat()

        postgres = self.postgres.to_dict()

        temporal = self.temporal.to_dict()

        worker = self.worker.to_dict()

        partners = self.partners.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "checkedAt": checked_at,
                "postgres": postgres,
                "temporal": temporal,
                "worker": worker,
                "partners": partners,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.health_partners import HealthPartners
        from ..models.health_postgres import HealthPostgres
        from ..models.health_temporal import HealthTemporal
        from ..models.health_worker import HealthWorker

        d = dict(src_dict)

        def _parse_status(data: object) -> HealthStatus | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = HealthStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HealthStatus | str, data)

        status = _parse_status(d.pop("status"))

        checked_at = datetime.datetime.fromisoformat(d.pop("checkedAt"))

        postgres = HealthPostgres.from_dict(d.pop("postgres"))

        temporal = HealthTemporal.from_dict(d.pop("temporal"))

        worker = HealthWorker.from_dict(d.pop("worker"))

        partners = HealthPartners.from_dict(d.pop("partners"))

        health = cls(
            status=status,
            checked_at=checked_at,
            postgres=postgres,
            temporal=temporal,
            worker=worker,
            partners=partners,
        )

        return health
