from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.search_fuel_stations_query_fuel import SearchFuelStationsQueryFuel
from ..models.search_fuel_stations_query_sort import SearchFuelStationsQuerySort
from ..types import UNSET, Unset

T = TypeVar("T", bound="SearchFuelStationsQuery")


@_attrs_define
class SearchFuelStationsQuery:
    """
    Attributes:
        fuel (SearchFuelStationsQueryFuel | Unset):  Default: SearchFuelStationsQueryFuel.GAZOLE.
        lat (float | Unset): Latitude of the centre (with lon)
        lon (float | Unset): Longitude of the centre (with lat)
        insee (str | Unset): INSEE commune code: its stations; with lat/lon as centre (else the commune centre), the
            search widens to radiusKm when the commune has fewer than 3 stations
        radius_km (float | Unset):  Default: 10.0.
        sort (SearchFuelStationsQuerySort | Unset): price: cheapest first, then nearest; distance: nearest first
            Default: SearchFuelStationsQuerySort.PRICE.
        limit (int | Unset):  Default: 20.
    """

    fuel: SearchFuelStationsQueryFuel | Unset = SearchFuelStationsQueryFuel.GAZOLE
    lat: float | Unset = UNSET
    lon: float | Unset = UNSET
    insee: str | Unset = UNSET
    radius_km: float | Unset = 10.0
    sort: SearchFuelStationsQuerySort | Unset = SearchFuelStationsQuerySort.PRICE
    limit: int | Unset = 20

    def to_dict(self) -> dict[str, Any]:
        fuel: str | Unset = UNSET
        if not isinstance(self.fuel, Unset):
            fuel = self.fuel.value

        lat = self.lat

        lon = self.lon

        insee = self.insee

        radius_km = self.radius_km

        sort: str | Unset = UNSET
        if not isinstance(self.sort, Unset):
            sort = self.sort.value

        limit = self.limit

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if fuel is not UNSET:
            field_dict["fuel"] = fuel
        if lat is not UNSET:
            field_dict["lat"] = lat
        if lon is not UNSET:
            field_dict["lon"] = lon
        if insee is not UNSET:
            field_dict["insee"] = insee
        if radius_km is not UNSET:
            field_dict["radiusKm"] = radius_km
        if sort is not UNSET:
            field_dict["sort"] = sort
        if limit is not UNSET:
            field_dict["limit"] = limit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _fuel = d.pop("fuel", UNSET)
        fuel: SearchFuelStationsQueryFuel | Unset
        if isinstance(_fuel, Unset):
            fuel = UNSET
        else:
            fuel = SearchFuelStationsQueryFuel(_fuel)

        lat = d.pop("lat", UNSET)

        lon = d.pop("lon", UNSET)

        insee = d.pop("insee", UNSET)

        radius_km = d.pop("radiusKm", UNSET)

        _sort = d.pop("sort", UNSET)
        sort: SearchFuelStationsQuerySort | Unset
        if isinstance(_sort, Unset):
            sort = UNSET
        else:
            sort = SearchFuelStationsQuerySort(_sort)

        limit = d.pop("limit", UNSET)

        search_fuel_stations_query = cls(
            fuel=fuel,
            lat=lat,
            lon=lon,
            insee=insee,
            radius_km=radius_km,
            sort=sort,
            limit=limit,
        )

        return search_fuel_stations_query
