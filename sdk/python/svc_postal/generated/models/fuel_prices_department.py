from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.fuel_prices_department_prices import FuelPricesDepartmentPrices


T = TypeVar("T", bound="FuelPricesDepartment")


@_attrs_define
class FuelPricesDepartment:
    """Only with ?department=

    Attributes:
        stations (int): Stations in the average
        prices (FuelPricesDepartmentPrices): Average price in euros per liter (3 decimals), null when no station sells
            that fuel
        code (str):
    """

    stations: int
    prices: FuelPricesDepartmentPrices
    code: str

    def to_dict(self) -> dict[str, Any]:
        stations = self.stations

        prices = self.prices.to_dict()

        code = self.code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "stations": stations,
                "prices": prices,
                "code": code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.fuel_prices_department_prices import FuelPricesDepartmentPrices

        d = dict(src_dict)
        stations = d.pop("stations")

        prices = FuelPricesDepartmentPrices.from_dict(d.pop("prices"))

        code = d.pop("code")

        fuel_prices_department = cls(
            stations=stations,
            prices=prices,
            code=code,
        )

        return fuel_prices_department
