from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CityResult")


@_attrs_define
class CityResult:
    """
    Attributes:
        label (str): "<postcode> <city>": the value of the commune field of quotes and calculators
        postcode (str):
        city (str):
        insee (str): INSEE commune code
        department (str):
    """

    label: str
    postcode: str
    city: str
    insee: str
    department: str

    def to_dict(self) -> dict[str, Any]:
        label = self.label

        postcode = self.postcode

        city = self.city

        insee = self.insee

        department = self.department

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "label": label,
                "postcode": postcode,
                "city": city,
                "insee": insee,
                "department": department,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        label = d.pop("label")

        postcode = d.pop("postcode")

        city = d.pop("city")

        insee = d.pop("insee")

        department = d.pop("department")

        city_result = cls(
            label=label,
            postcode=postcode,
            city=city,
            insee=insee,
            department=department,
        )

        return city_result
