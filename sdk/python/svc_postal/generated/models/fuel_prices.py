from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.fuel_prices_unit import FuelPricesUnit
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fuel_prices_department import FuelPricesDepartment
    from ..models.fuel_prices_national import FuelPricesNational


T = TypeVar("T", bound="FuelPrices")


@_attrs_define
class FuelPrices:
    """
    Attributes:
        unit (FuelPricesUnit):
        national (FuelPricesNational):
        department (FuelPricesDepartment | Unset): Only with ?department=
    """

    unit: FuelPricesUnit
    national: FuelPricesNational
    department: FuelPricesDepartment | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        unit = self.unit.value

        national = self.national.to_dict()

        department: dict[str, Any] | Unset = UNSET
        if not isinstance(self.department, Unset):
            department = self.department.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "unit": unit,
                "national": national,
            }
        )
        if department is not UNSET:
            field_dict["department"] = department

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.fuel_prices_department import FuelPricesDepartment
        from ..models.fuel_prices_national import FuelPricesNational

        d = dict(src_dict)
        unit = FuelPricesUnit(d.pop("unit"))

        national = FuelPricesNational.from_dict(d.pop("national"))

        _department = d.pop("department", UNSET)
        department: FuelPricesDepartment | Unset
        if isinstance(_department, Unset):
            department = UNSET
        else:
            department = FuelPricesDepartment.from_dict(_department)

        fuel_prices = cls(
            unit=unit,
            national=national,
            department=department,
        )

        return fuel_prices
