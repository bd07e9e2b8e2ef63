from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.mailing_batch_row_error import MailingBatchRowError
    from ..models.request_warning import RequestWarning


T = TypeVar("T", bound="MailingBatchReportRowsItem")


@_attrs_define
class MailingBatchReportRowsItem:
    """
    Attributes:
        index (int):
        reference (None | str):
        ok (bool):
        amount_cents (int | None):
        warnings (list[RequestWarning]): What was done with the request instead of refusing it; empty when nothing
        error (MailingBatchRowError | None): What POST /v1/mailings would answer for this row (its 422 code, message and
            details)
    """

    index: int
    reference: None | str
    ok: bool
    amount_cents: int | None
    warnings: list[RequestWarning]
    error: MailingBatchRowError | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.mailing_batch_row_error import MailingBatchRowError

        index = self.index

        reference: None | str
        reference = self.reference

        ok = self.ok

        amount_cents: int | None
        amount_cents = self.amount_cents

        warnings = []
        for warnings_item_data in self.warnings:
            warnings_item = warnings_item_data.to_dict()
            warnings.append(warnings_item)

        error: dict[str, Any] | None
        if isinstance(self.error, MailingBatchRowError):
            error = self.error.to_dict()
        else:
            error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "index": index,
                "reference": reference,
                "ok": ok,
                "amountCents": amount_cents,
                "warnings": warnings,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mailing_batch_row_error import MailingBatchRowError
        from ..models.request_warning import RequestWarning

        d = dict(src_dict)
        index = d.pop("index")

        def _parse_reference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reference = _parse_reference(d.pop("reference"))

        ok = d.pop("ok")

        def _parse_amount_cents(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        amount_cents = _parse_amount_cents(d.pop("amountCents"))

        warnings = []
        _warnings = d.pop("warnings")
        for warnings_item_data in _warnings:
            warnings_item = RequestWarning.from_dict(warnings_item_data)

            warnings.append(warnings_item)

        def _parse_error(data: object) -> MailingBatchRowError | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = MailingBatchRowError.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MailingBatchRowError | None, data)

        error = _parse_error(d.pop("error"))

        mailing_batch_report_rows_item = cls(
            index=index,
            reference=reference,
            ok=ok,
            amount_cents=amount_cents,
            warnings=warnings,
            error=error,
        )

        return mailing_batch_report_rows_item
