from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.fuel_stations_sort import FuelStationsSort
from ..models.fuel_stations_unit import FuelStationsUnit

if TYPE_CHECKING:
    from ..models.fuel_search_centre import FuelSearchCentre
    from ..models.fuel_search_commune import FuelSearchCommune
    from ..models.fuel_station import FuelStation


T = TypeVar("T", bound="FuelStations")


@_attrs_define
class FuelStations:
    """
    Attributes:
        fuel (str):
        unit (FuelStationsUnit):
        sort (FuelStationsSort | str):
        radius_km (float):
        centre (FuelSearchCentre | None):
        commune (FuelSearchCommune | None):
        widened (bool): True when the commune had fewer than 3 stations and the radius around the centre was searched
            too
        stations (list[FuelStation]):
    """

    fuel: str
    unit: FuelStationsUnit
    sort: FuelStationsSort | str
    radius_km: float
    centre: FuelSearchCentre | None
    commune: FuelSearchCommune | None
    widened: bool
    stations: list[FuelStation]

    def to_dict(self) -> dict[str, Any]:
        from ..models.fuel_search_centre import FuelSearchCentre
        from ..models.fuel_search_commune import FuelSearchCommune

        fuel = self.fuel

        unit = self.unit.value

        sort: str
        if isinstance(self.sort, FuelStationsSort):
            sort = self.sort.value
        else:
            sort = self.sort

        radius_km = self.radius_km

        centre: dict[str, Any] | None
        if isinstance(self.centre, FuelSearchCentre):
            centre = self.centre.to_dict()
        else:
            centre = self.centre

        commune: dict[str, Any] | None
        if isinstance(self.commune, FuelSearchCommune):
            commune = self.commune.to_dict()
        else:
            commune = self.commune

        widened = self.widened

        stations = []
        for stations_item_data in self.stations:
            stations_item = stations_item_data.to_dict()
            stations.append(stations_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fuel": fuel,
                "unit": unit,
                "sort": sort,
                "radiusKm": radius_km,
                "centre": centre,
                "commune": commune,
                "widened": widened,
                "stations": stations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.fuel_search_centre import FuelSearchCentre
        from ..models.fuel_search_commune import FuelSearchCommune
        from ..models.fuel_station import FuelStation

        d = dict(src_dict)
        fuel = d.pop("fuel")

        unit = FuelStationsUnit(d.pop("unit"))

        def _parse_sort(data: object) -> FuelStationsSort | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sort_type_0 = FuelStationsSort(data)

                return sort_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FuelStationsSort | str, data)

        sort = _parse_sort(d.pop("sort"))

        radius_km = d.pop("radiusKm")

        def _parse_centre(data: object) -> FuelSearchCentre | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                centre_type_0 = FuelSearchCentre.from_dict(data)

                return centre_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FuelSearchCentre | None, data)

        centre = _parse_centre(d.pop("centre"))

        def _parse_commune(data: object) -> FuelSearchCommune | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                commune_type_0 = FuelSearchCommune.from_dict(data)

                return commune_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FuelSearchCommune | None, data)

        commune = _parse_commune(d.pop("commune"))

        widened = d.pop("widened")

        stations = []
        _stations = d.pop("stations")
        for stations_item_data in _stations:
            stations_item = FuelStation.from_dict(stations_item_data)

            stations.append(stations_item)

        fuel_stations = cls(
            fuel=fuel,
            unit=unit,
            sort=sort,
            radius_km=radius_km,
            centre=centre,
            commune=commune,
            widened=widened,
            stations=stations,
        )

        return fuel_stations
