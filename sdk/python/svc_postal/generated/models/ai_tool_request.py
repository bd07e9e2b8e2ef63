from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_tool_request_inputs import AiToolRequestInputs


T = TypeVar("T", bound="AiToolRequest")


@_attrs_define
class AiToolRequest:
    """
    Attributes:
        inputs (AiToolRequestInputs | Unset): The tool's inputs by name (see GET /v1/catalogue, aiTools)
    """

    inputs: AiToolRequestInputs | Unset = UNSET

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
        from ..models.ai_tool_request_inputs import AiToolRequestInputs

        d = dict(src_dict)
        _inputs = d.pop("inputs", UNSET)
        inputs: AiToolRequestInputs | Unset
        if isinstance(_inputs, Unset):
            inputs = UNSET
        else:
            inputs = AiToolRequestInputs.from_dict(_inputs)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "inputs": "inputs",
            },
        )
        ai_tool_request = cls(
            inputs=inputs,
        )

        return ai_tool_request
