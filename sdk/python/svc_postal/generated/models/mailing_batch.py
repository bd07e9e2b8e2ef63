from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.mailing_batch_channel import MailingBatchChannel
from ..models.mailing_batch_fallback import MailingBatchFallback
from ..models.mailing_batch_mode import MailingBatchMode
from ..models.mailing_batch_status import MailingBatchStatus

if TYPE_CHECKING:
    from ..models.mailing_batch_counts import MailingBatchCounts


T = TypeVar("T", bound="MailingBatch")


@_attrs_define
class MailingBatch:
    """
    Attributes:
        id (UUID): UUID
        mode (MailingBatchMode | str):
        test (bool):
        channel (MailingBatchChannel | str): paper (every batch created without a channel) or electronic
        fallback (MailingBatchFallback | None | str): An electronic batch's paper fallback; null for paper
        status (MailingBatchStatus | str): completed once every mailing of the batch is final (mailing_batch.completed)
        mailing_count (int):
        amount_cents (int): Debited once for the whole batch (live keys), excluding VAT
        counts (MailingBatchCounts): The batch's mailings by status (statuses with none are absent)
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
    """

    id: UUID
    mode: MailingBatchMode | str
    test: bool
    channel: MailingBatchChannel | str
    fallback: MailingBatchFallback | None | str
    status: MailingBatchStatus | str
    mailing_count: int
    amount_cents: int
    counts: MailingBatchCounts
    created_at: datetime.datetime
    finished_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        mode: str
        if isinstance(self.mode, MailingBatchMode):
            mode = self.mode.value
        else:
            mode = self.mode

        test = self.test

        channel: str
        if isinstance(self.channel, MailingBatchChannel):
            channel = self.channel.value
        else:
            channel = self.channel

        fallback: None | str
        if isinstance(self.fallback, MailingBatchFallback):
            fallback = self.fallback.value
        else:
            fallback = self.fallback

        status: str
        if isinstance(self.status, MailingBatchStatus):
            status = self.status.value
        else:
            status = self.status

        mailing_count = self.mailing_count

        amount_cents = self.amount_cents

        counts = self.counts.to_dict()

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "mode": mode,
                "test": test,
                "channel": channel,
                "fallback": fallback,
                "status": status,
                "mailingCount": mailing_count,
                "amountCents": amount_cents,
                "counts": counts,
                "createdAt": created_at,
                "finishedAt": finished_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mailing_batch_counts import MailingBatchCounts

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_mode(data: object) -> MailingBatchMode | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                mode_type_0 = MailingBatchMode(data)

                return mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MailingBatchMode | str, data)

        mode = _parse_mode(d.pop("mode"))

        test = d.pop("test")

        def _parse_channel(data: object) -> MailingBatchChannel | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                channel_type_0 = MailingBatchChannel(data)

                return channel_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MailingBatchChannel | str, data)

        channel = _parse_channel(d.pop("channel"))

        def _parse_fallback(data: object) -> MailingBatchFallback | None | str:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                fallback_type_0_type_0 = MailingBatchFallback(data)

                return fallback_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MailingBatchFallback | None | str, data)

        fallback = _parse_fallback(d.pop("fallback"))

        def _parse_status(data: object) -> MailingBatchStatus | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = MailingBatchStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MailingBatchStatus | str, data)

        status = _parse_status(d.pop("status"))

        mailing_count = d.pop("mailingCount")

        amount_cents = d.pop("amountCents")

        counts = MailingBatchCounts.from_dict(d.pop("counts"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finishedAt"))

        mailing_batch = cls(
            id=id,
            mode=mode,
            test=test,
            channel=channel,
            fallback=fallback,
            status=status,
            mailing_count=mailing_count,
            amount_cents=amount_cents,
            counts=counts,
            created_at=created_at,
            finished_at=finished_at,
        )

        return mailing_batch
