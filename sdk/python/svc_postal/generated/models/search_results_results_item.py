from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.search_results_results_item_kind import SearchResultsResultsItemKind
from ..models.search_results_results_item_matched_by_item import (
    SearchResultsResultsItemMatchedByItem,
)

T = TypeVar("T", bound="SearchResultsResultsItem")


@_attrs_define
class SearchResultsResultsItem:
    """
    Attributes:
        kind (SearchResultsResultsItemKind | str):
        slug (str):
        title (str):
        category (str):
        summary (str):
        score (float):
        matched_by (list[SearchResultsResultsItemMatchedByItem | str]):
    """

    kind: SearchResultsResultsItemKind | str
    slug: str
    title: str
    category: str
    summary: str
    score: float
    matched_by: list[SearchResultsResultsItemMatchedByItem | str]

    def to_dict(self) -> dict[str, Any]:
        kind: str
        if isinstance(self.kind, SearchResultsResultsItemKind):
            kind = self.kind.value
        else:
            kind = self.kind

        slug = self.slug

        title = self.title

        category = self.category

        summary = self.summary

        score = self.score

        matched_by = []
        for matched_by_item_data in self.matched_by:
            matched_by_item: str
            if isinstance(matched_by_item_data, SearchResultsResultsItemMatchedByItem):
                matched_by_item = matched_by_item_data.value
            else:
                matched_by_item = matched_by_item_data
            matched_by.append(matched_by_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "slug": slug,
                "title": title,
                "category": category,
                "summary": summary,
                "score": score,
                "matchedBy": matched_by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_kind(data: object) -> SearchResultsResultsItemKind | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                kind_type_0 = SearchResultsResultsItemKind(data)

                return kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(SearchResultsResultsItemKind | str, data)

        kind = _parse_kind(d.pop("kind"))

        slug = d.pop("slug")

        title = d.pop("title")

        category = d.pop("category")

        summary = d.pop("summary")

        score = d.pop("score")

        matched_by = []
        _matched_by = d.pop("matchedBy")
        for matched_by_item_data in _matched_by:

            def _parse_matched_by_item(
                data: object,
            ) -> SearchResultsResultsItemMatchedByItem | str:
                try:
                    if not isinstance(data, str):
                        raise TypeError()
                    matched_by_item_type_0 = SearchResultsResultsItemMatchedByItem(data)

                    return matched_by_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(SearchResultsResultsItemMatchedByItem | str, data)

            matched_by_item = _parse_matched_by_item(matched_by_item_data)

            matched_by.append(matched_by_item)

        search_results_results_item = cls(
            kind=kind,
            slug=slug,
            title=title,
            category=category,
            summary=summary,
            score=score,
            matched_by=matched_by,
        )

        return search_results_results_item
