from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.mailing_batch import MailingBatch


T = TypeVar("T", bound="MailingBatchList")


@_attrs_define
class MailingBatchList:
    """
    Attributes:
        data (list[MailingBatch]): Items, most recent first
        next_cursor (None | str): Opaque cursor of the next page; null on the last page
        has_more (bool):
    """

    data: list[MailingBatch]
    next_cursor: None | str
    has_more: bool

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        has_more = self.has_more

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "nextCursor": next_cursor,
                "hasMore": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mailing_batch import MailingBatch

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = MailingBatch.from_dict(data_item_data)

            data.append(data_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("nextCursor"))

        has_more = d.pop("hasMore")

        mailing_batch_list = cls(
            data=data,
            next_cursor=next_cursor,
            has_more=has_more,
        )

        return mailing_batch_list
