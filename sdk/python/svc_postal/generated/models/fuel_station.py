from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="FuelStation")


@_attrs_define
class FuelStation:
    """
    Attributes:
        id (str): Station identifier in the official data
        address (str):
        postcode (str):
        city (str):
        lat (float):
        lon (float):
        distance_km (float | None): From the centre, as the crow flies (1 decimal); null when the commune centre is
            unknown
        price_eur_per_liter (float):
        price_updated_at (None | str): When the station declared this price
    """

    id: str
    address: str
    postcode: str
    city: str
    lat: float
    lon: float
    distance_km: float | None
    price_eur_per_liter: float
    price_updated_at: None | str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        address = self.address

        postcode = self.postcode

        city = self.city

        lat = self.lat

        lon = self.lon

        distance_km: float | None
        distance_km = self.distance_km

        price_eur_per_liter = self.price_eur_per_liter

        price_updated_at: None | str
        price_updated_at = self.price_updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "address": address,
                "postcode": postcode,
                "city": city,
                "lat": lat,
                "lon": lon,
                "distanceKm": distance_km,
                "priceEurPerLiter": price_eur_per_liter,
                "priceUpdatedAt": price_updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        address = d.pop("address")

        postcode = d.pop("postcode")

        city = d.pop("city")

        lat = d.pop("lat")

        lon = d.pop("lon")

        def _parse_distance_km(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        distance_km = _parse_distance_km(d.pop("distanceKm"))

        price_eur_per_liter = d.pop("priceEurPerLiter")

        def _parse_price_updated_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        price_updated_at = _parse_price_updated_at(d.pop("priceUpdatedAt"))

        fuel_station = cls(
            id=id,
            address=address,
            postcode=postcode,
            city=city,
            lat=lat,
            lon=lon,
            distance_km=distance_km,
            price_eur_per_liter=price_eur_per_liter,
            price_updated_at=price_updated_at,
        )

        return fuel_station
