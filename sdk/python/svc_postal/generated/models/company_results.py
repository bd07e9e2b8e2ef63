from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.company_summary import CompanySummary


T = TypeVar("T", bound="CompanyResults")


@_attrs_define
class CompanyResults:
    """
    Attributes:
        results (list[CompanySummary]):
    """

    results: list[CompanySummary]

    def to_dict(self) -> dict[str, Any]:
        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.company_summary import CompanySummary

        d = dict(src_dict)
        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = CompanySummary.from_dict(results_item_data)

            results.append(results_item)

        company_results = cls(
            results=results,
        )

        return company_results
