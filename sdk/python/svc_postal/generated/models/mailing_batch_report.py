from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.mailing_batch_report_rows_item import MailingBatchReportRowsItem


T = TypeVar("T", bound="MailingBatchReport")


@_attrs_define
class MailingBatchReport:
    """
    Attributes:
        valid (bool): Every row can be sent
        row_count (int):
        invalid_count (int):
        amount_cents (int): The sum of the valid rows: what a live key is debited, once (test keys: nothing)
        rows (list[MailingBatchReportRowsItem]):
    """

    valid: bool
    row_count: int
    invalid_count: int
    amount_cents: int
    rows: list[MailingBatchReportRowsItem]

    def to_dict(self) -> dict[str, Any]:
        valid = self.valid

        row_count = self.row_count

        invalid_count = self.invalid_count

        amount_cents = self.amount_cents

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "valid": valid,
                "rowCount": row_count,
                "invalidCount": invalid_count,
                "amountCents": amount_cents,
                "rows": rows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mailing_batch_report_rows_item import MailingBatchReportRowsItem

        d = dict(src_dict)
        valid = d.pop("valid")

        row_count = d.pop("rowCount")

        invalid_count = d.pop("invalidCount")

        amount_cents = d.pop("amountCents")

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = MailingBatchReportRowsItem.from_dict(rows_item_data)

            rows.append(rows_item)

        mailing_batch_report = cls(
            valid=valid,
            row_count=row_count,
            invalid_count=invalid_count,
            amount_cents=amount_cents,
            rows=rows,
        )

        return mailing_batch_report
