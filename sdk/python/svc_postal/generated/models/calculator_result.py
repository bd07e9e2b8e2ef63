from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.calculator_result_defaults_applied_item import (
        CalculatorResultDefaultsAppliedItem,
    )
    from ..models.calculator_result_inputs import CalculatorResultInputs
    from ..models.calculator_result_result import CalculatorResultResult


T = TypeVar("T", bound="CalculatorResult")


@_attrs_define
class CalculatorResult:
    """
    Attributes:
        slug (str):
        title (str):
        inputs (CalculatorResultInputs): The inputs used, defaults included
        defaults_applied (list[CalculatorResultDefaultsAppliedItem]):
        result (CalculatorResultResult):
        source (list[str]): Official sources of the formula
    """

    slug: str
    title: str
    inputs: CalculatorResultInputs
    defaults_applied: list[CalculatorResultDefaultsAppliedItem]
    result: CalculatorResultResult
    source: list[str]

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        title = self.title

        inputs = self.inputs.to_dict()

        defaults_applied = []
        for defaults_applied_item_data in self.defaults_applied:
            defaults_applied_item = defaults_applied_item_data.to_dict()
            defaults_applied.append(defaults_applied_item)

        result = self.result.to_dict()

        source = self.source

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
                "title": title,
                "inputs": inputs,
                "defaultsApplied": defaults_applied,
                "result": result,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.calculator_result_defaults_applied_item import (
            CalculatorResultDefaultsAppliedItem,
        )
        from ..models.calculator_result_inputs import CalculatorResultInputs
        from ..models.calculator_result_result import CalculatorResultResult

        d = dict(src_dict)
        slug = d.pop("slug")

        title = d.pop("title")

        inputs = CalculatorResultInputs.from_dict(d.pop("inputs"))

        defaults_applied = []
        _defaults_applied = d.pop("defaultsApplied")
        for defaults_applied_item_data in _defaults_applied:
            defaults_applied_item = CalculatorResultDefaultsAppliedItem.from_dict(
                defaults_applied_item_data
            )

            defaults_applied.append(defaults_applied_item)

        result = CalculatorResultResult.from_dict(d.pop("result"))

        source = cast(list[str], d.pop("source"))

        calculator_result = cls(
            slug=slug,
            title=title,
            inputs=inputs,
            defaults_applied=defaults_applied,
            result=result,
            source=source,
        )

        return calculator_result
