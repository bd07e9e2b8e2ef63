from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.company_profile_activity import CompanyProfileActivity
    from ..models.company_profile_company import CompanyProfileCompany
    from ..models.company_profile_establishment import CompanyProfileEstablishment
    from ..models.company_profile_head_office import CompanyProfileHeadOffice
    from ..models.company_profile_headcount import CompanyProfileHeadcount


T = TypeVar("T", bound="CompanyProfile")


@_attrs_define
class CompanyProfile:
    """
    Attributes:
        siret (str):
        establishment (CompanyProfileEstablishment): Establishment status and address
        company (CompanyProfileCompany):
        head_office (CompanyProfileHeadOffice):
        activity (CompanyProfileActivity):
        headcount (CompanyProfileHeadcount):
        data_freshness (None | str): When the directory last updated this company
    """

    siret: str
    establishment: CompanyProfileEstablishment
    company: CompanyProfileCompany
    head_office: CompanyProfileHeadOffice
    activity: CompanyProfileActivity
    headcount: CompanyProfileHeadcount
    data_freshness: None | str

    def to_dict(self) -> dict[str, Any]:
        siret = self.siret

        establishment = self.establishment.to_dict()

        company = self.company.to_dict()

        head_office = self.head_office.to_dict()

        activity = self.activity.to_dict()

        headcount = self.headcount.to_dict()

        data_freshness: None | str
        data_freshness = self.data_freshness

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "siret": siret,
                "establishment": establishment,
                "company": company,
                "headOffice": head_office,
                "activity": activity,
                "headcount": headcount,
                "dataFreshness": data_freshness,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.company_profile_activity import CompanyProfileActivity
        from ..models.company_profile_company import CompanyProfileCompany
        from ..models.company_profile_establishment import CompanyProfileEstablishment
        from ..models.company_profile_head_office import CompanyProfileHeadOffice
        from ..models.company_profile_headcount import CompanyProfileHeadcount

        d = dict(src_dict)
        siret = d.pop("siret")

        establishment = CompanyProfileEstablishment.from_dict(d.pop("establishment"))

        company = CompanyProfileCompany.from_dict(d.pop("company"))

        head_office = CompanyProfileHeadOffice.from_dict(d.pop("headOffice"))

        activity = CompanyProfileActivity.from_dict(d.pop("activity"))

        headcount = CompanyProfileHeadcount.from_dict(d.pop("headcount"))

        def _parse_data_freshness(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        data_freshness = _parse_data_freshness(d.pop("dataFreshness"))

        company_profile = cls(
            siret=siret,
            establishment=establishment,
            company=company,
            head_office=head_office,
            activity=activity,
            headcount=headcount,
            data_freshness=data_freshness,
        )

        return company_profile
