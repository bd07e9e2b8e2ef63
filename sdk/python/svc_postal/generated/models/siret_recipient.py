from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

T = TypeVar("T", bound="SiretRecipient")


@_attrs_define
class SiretRecipient:
    """
    Attributes:
        siret (str): The establishment's SIRET (14 digits); its registered address comes from the national business
            directory
        name (str | Unset): Printed instead of the company's name from the directory
    """

    siret: str
    name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        siret = self.siret

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "siret": siret,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        siret = d.pop("siret")

        name = d.pop("name", UNSET)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "siret": "siret",
                "name": "name",
            },
        )
        siret_recipient = cls(
            siret=siret,
            name=name,
        )

        return siret_recipient
