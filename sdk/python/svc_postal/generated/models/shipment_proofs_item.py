from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.shipment_proofs_item_kind import ShipmentProofsItemKind

T = TypeVar("T", bound="ShipmentProofsItem")


@_attrs_define
class ShipmentProofsItem:
    """
    Attributes:
        kind (ShipmentProofsItemKind | str):
        label (str):
    """

    kind: ShipmentProofsItemKind | str
    label: str

    def to_dict(self) -> dict[str, Any]:
        kind: str
        if isinstance(self.kind, ShipmentProofsItemKind):
            kind = self.kind.value
        else:
            kind = self.kind

        label = self.label

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "label": label,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_kind(data: object) -> ShipmentProofsItemKind | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                kind_type_0 = ShipmentProofsItemKind(data)

                return kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ShipmentProofsItemKind | str, data)

        kind = _parse_kind(d.pop("kind"))

        label = d.pop("label")

        shipment_proofs_item = cls(
            kind=kind,
            label=label,
        )

        return shipment_proofs_item
