from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.search_results_mode import SearchResultsMode

if TYPE_CHECKING:
    from ..models.search_results_results_item import SearchResultsResultsItem


T = TypeVar("T", bound="SearchResults")


@_attrs_define
class SearchResults:
    """
    Attributes:
        query (str):
        mode (SearchResultsMode | str): lexical when the semantic engine was not used or was unavailable
        results (list[SearchResultsResultsItem]):
    """

    query: str
    mode: SearchResultsMode | str
    results: list[SearchResultsResultsItem]

    def to_dict(self) -> dict[str, Any]:
        query = self.query

        mode: str
        if isinstance(self.mode, SearchResultsMode):
            mode = self.mode.value
        else:
            mode = self.mode

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "query": query,
                "mode": mode,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.search_results_results_item import SearchResultsResultsItem

        d = dict(src_dict)
        query = d.pop("query")

        def _parse_mode(data: object) -> SearchResultsMode | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                mode_type_0 = SearchResultsMode(data)

                return mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(SearchResultsMode | str, data)

        mode = _parse_mode(d.pop("mode"))

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = SearchResultsResultsItem.from_dict(results_item_data)

            results.append(results_item)

        search_results = cls(
            query=query,
            mode=mode,
            results=results,
        )

        return search_results
