from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.quote_estimate_request_inputs import QuoteEstimateRequestInputs


T = TypeVar("T", bound="QuoteEstimateRequest")


@_attrs_define
class QuoteEstimateRequest:
    """
    Attributes:
        inputs (QuoteEstimateRequestInputs | Unset): The quote's inputs by name (see GET /v1/catalogue); contact fields
            are not needed to estimate
    """

    inputs: QuoteEstimateRequestInputs | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        inputs: dict[str, Any] | Unset = UNSET
        if not isinstance(self.inputs, Unset):
            inputs = self.inputs.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if inputs is not UNSET:
            field_dict["inputs"] = inputs

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.quote_estimate_request_inputs import QuoteEstimateRequestInputs

        d = dict(src_dict)
        _inputs = d.pop("inputs", UNSET)
        inputs: QuoteEstimateRequestInputs | Unset
        if isinstance(_inputs, Unset):
            inputs = UNSET
        else:
            inputs = QuoteEstimateRequestInputs.from_dict(_inputs)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "inputs": "inputs",
            },
        )
        quote_estimate_request = cls(
            inputs=inputs,
        )

        return quote_estimate_request
