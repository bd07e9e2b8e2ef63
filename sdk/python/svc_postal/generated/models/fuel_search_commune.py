from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FuelSearchCommune")


@_attrs_define
class FuelSearchCommune:
    """
    Attributes:
        insee (str):
        name (str):
    """

    insee: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        insee = self.insee

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "insee": insee,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        insee = d.pop("insee")

        name = d.pop("name")

        fuel_search_commune = cls(
            insee=insee,
            name=name,
        )

        return fuel_search_commune
