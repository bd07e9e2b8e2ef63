from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.v1_test_advance_type_0_status import V1TestAdvanceType0Status
from ..types import UNSET, Unset

T = TypeVar("T", bound="V1TestAdvanceType0")


@_attrs_define
class V1TestAdvanceType0:
    """
    Attributes:
        step (int | Unset):
        status (V1TestAdvanceType0Status | Unset):
    """

    step: int | Unset = UNSET
    status: V1TestAdvanceType0Status | Unset = UNSET

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
        status: V1TestAdvanceType0Status | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = V1TestAdvanceType0Status(_status)

        v1_test_advance_type_0 = cls(
            step=step,
            status=status,
        )

        return v1_test_advance_type_0
