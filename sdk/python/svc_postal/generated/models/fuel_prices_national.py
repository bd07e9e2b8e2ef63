from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.fuel_prices_national_prices import FuelPricesNationalPrices


T = TypeVar("T", bound="FuelPricesNational")


@_attrs_define
class FuelPricesNational:
    """
    Attributes:
        stations (int): Stations in the average
        prices (FuelPricesNationalPrices): Average price in euros per liter (3 decimals), null when no station sells
            that fuel
    """

    stations: int
    prices: FuelPricesNationalPrices

    def to_dict(self) -> dict[str, Any]:
        stations = self.stations

        prices = self.prices.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "stations": stations,
                "prices": prices,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.fuel_prices_national_prices import FuelPricesNationalPrices

        d = dict(src_dict)
        stations = d.pop("stations")

        prices = FuelPricesNationalPrices.from_dict(d.pop("prices"))

        fuel_prices_national = cls(
            stations=stations,
            prices=prices,
        )

        return fuel_prices_national
