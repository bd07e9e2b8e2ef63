from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..models.v1_test_advance_status import V1TestAdvanceStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="V1TestAdvance")


@_attrs_define
class V1TestAdvance:
    """
    Attributes:
        step (int | Unset):
        status (V1TestAdvanceStatus | Unset): returned or error; for an electronic letter before its end, accepted,
            refused, unclaimed or bounced (with fallback paper, the last three then post it)
    """

    step: int | Unset = UNSET
    status: V1TestAdvanceStatus | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        step = self.step

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if step is not UNSET:
            field_dict["step"] = step
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        step = d.pop("step", UNSET)

        _status = d.pop("status", UNSET)
        status: V1TestAdvanceStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = V1TestAdvanceStatus(_status)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "step": "step",
                "status": "status",
            },
        )
        v1_test_advance = cls(
            step=step,
            status=status,
        )

        return v1_test_advance
