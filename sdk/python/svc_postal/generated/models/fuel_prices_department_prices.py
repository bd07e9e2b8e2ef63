from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="FuelPricesDepartmentPrices")


@_attrs_define
class FuelPricesDepartmentPrices:
    """Average price in euros per liter (3 decimals), null when no station sells that fuel

    Attributes:
        gazole (float | None):
        sp95 (float | None):
        sp95_e10 (float | None):
        sp98 (float | None):
        e85 (float | None):
        gplc (float | None):
    """

    gazole: float | None
    sp95: float | None
    sp95_e10: float | None
    sp98: float | None
    e85: float | None
    gplc: float | None

    def to_dict(self) -> dict[str, Any]:
        gazole: float | None
        gazole = self.gazole

        sp95: float | None
        sp95 = self.sp95

        sp95_e10: float | None
        sp95_e10 = self.sp95_e10

        sp98: float | None
        sp98 = self.sp98

        e85: float | None
        e85 = self.e85

        gplc: float | None
        gplc = self.gplc

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "gazole": gazole,
                "sp95": sp95,
                "sp95-e10": sp95_e10,
                "sp98": sp98,
                "e85": e85,
                "gplc": gplc,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_gazole(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        gazole = _parse_gazole(d.pop("gazole"))

        def _parse_sp95(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        sp95 = _parse_sp95(d.pop("sp95"))

        def _parse_sp95_e10(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        sp95_e10 = _parse_sp95_e10(d.pop("sp95-e10"))

        def _parse_sp98(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        sp98 = _parse_sp98(d.pop("sp98"))

        def _parse_e85(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        e85 = _parse_e85(d.pop("e85"))

        def _parse_gplc(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        gplc = _parse_gplc(d.pop("gplc"))

        fuel_prices_department_prices = cls(
            gazole=gazole,
            sp95=sp95,
            sp95_e10=sp95_e10,
            sp98=sp98,
            e85=e85,
            gplc=gplc,
        )

        return fuel_prices_department_prices
