from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.company_summary_status import CompanySummaryStatus

if TYPE_CHECKING:
    from ..models.company_summary_head_office import CompanySummaryHeadOffice


T = TypeVar("T", bound="CompanySummary")


@_attrs_define
class CompanySummary:
    """
    Attributes:
        siren (str):
        name (str):
        acronym (None | str):
        status (CompanySummaryStatus | str):
        head_office (CompanySummaryHeadOffice):
        activity (None | str): NAF/APE code
        establishments (int):
    """

    siren: str
    name: str
    acronym: None | str
    status: CompanySummaryStatus | str
    head_office: CompanySummaryHeadOffice
    activity: None | str
    establishments: int

    def to_dict(self) -> dict[str, Any]:
        siren = self.siren

        name = self.name

        acronym: None | str
        acronym = self.acronym

        status: str
        if isinstance(self.status, CompanySummaryStatus):
            status = self.status.value
        else:
            status = self.status

        head_office = self.head_office.to_dict()

        activity: None | str
        activity = self.activity

        establishments = self.establishments

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "siren": siren,
                "name": name,
                "acronym": acronym,
                "status": status,
                "headOffice": head_office,
                "activity": activity,
                "establishments": establishments,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.company_summary_head_office import CompanySummaryHeadOffice

        d = dict(src_dict)
        siren = d.pop("siren")

        name = d.pop("name")

        def _parse_acronym(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        acronym = _parse_acronym(d.pop("acronym"))

        def _parse_status(data: object) -> CompanySummaryStatus | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = CompanySummaryStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CompanySummaryStatus | str, data)

        status = _parse_status(d.pop("status"))

        head_office = CompanySummaryHeadOffice.from_dict(d.pop("headOffice"))

        def _parse_activity(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        activity = _parse_activity(d.pop("activity"))

        establishments = d.pop("establishments")

        company_summary = cls(
            siren=siren,
            name=name,
            acronym=acronym,
            status=status,
            head_office=head_office,
            activity=activity,
            establishments=establishments,
        )

        return company_summary
