from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.company_profile_company_status import CompanyProfileCompanyStatus

T = TypeVar("T", bound="CompanyProfileCompany")


@_attrs_define
class CompanyProfileCompany:
    """
    Attributes:
        siren (str):
        name (str):
        acronym (None | str):
        status (CompanyProfileCompanyStatus | str):
        category (None | str): PME, ETI or GE
        legal_form (None | str): Legal category code (catégorie juridique)
        created_on (None | str):
        establishments (int):
    """

    siren: str
    name: str
    acronym: None | str
    status: CompanyProfileCompanyStatus | str
    category: None | str
    legal_form: None | str
    created_on: None | str
    establishments: int

    def to_dict(self) -> dict[str, Any]:
        siren = self.siren

        name = self.name

        acronym: None | str
        acronym = self.acronym

        status: str
        if isinstance(self.status, CompanyProfileCompanyStatus):
            status = self.status.value
        else:
            status = self.status

        category: None | str
        category = self.category

        legal_form: None | str
        legal_form = self.legal_form

        created_on: None | str
        created_on = self.created_on

        establishments = self.establishments

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "siren": siren,
                "name": name,
                "acronym": acronym,
                "status": status,
                "category": category,
                "legalForm": legal_form,
                "createdOn": created_on,
                "establishments": establishments,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        siren = d.pop("siren")

        name = d.pop("name")

        def _parse_acronym(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        acronym = _parse_acronym(d.pop("acronym"))

        def _parse_status(data: object) -> CompanyProfileCompanyStatus | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = CompanyProfileCompanyStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CompanyProfileCompanyStatus | str, data)

        status = _parse_status(d.pop("status"))

        def _parse_category(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        category = _parse_category(d.pop("category"))

        def _parse_legal_form(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        legal_form = _parse_legal_form(d.pop("legalForm"))

        def _parse_created_on(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        created_on = _parse_created_on(d.pop("createdOn"))

        establishments = d.pop("establishments")

        company_profile_company = cls(
            siren=siren,
            name=name,
            acronym=acronym,
            status=status,
            category=category,
            legal_form=legal_form,
            created_on=created_on,
            establishments=establishments,
        )

        return company_profile_company
