from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.field_filled_from import FieldFilledFrom
from ..models.field_type import FieldType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.field_options_item import FieldOptionsItem
    from ..models.field_required_when import FieldRequiredWhen


T = TypeVar("T", bound="Field")


@_attrs_define
class Field:
    """
    Attributes:
        name (str):
        label (str):
        type_ (FieldType | str):
        required (bool):
        pattern (str | Unset):
        options (list[FieldOptionsItem] | Unset):
        help_ (str | Unset):
        example (float | str | Unset):
        default (bool | float | str | Unset):
        required_when (FieldRequiredWhen | Unset): The field is required when the enum field `field` has one of `values`
            (a letter then prints the passage that uses it; a calculator computes with it)
        filled_from (FieldFilledFrom | str | Unset): In POST /v1/mailings this field is filled from the request's
            `sender` or `recipient` (the validated addresses the envelope window shows): no need to send it there; a
            different value is replaced, with a warning on the mailing
    """

    name: str
    label: str
    type_: FieldType | str
    required: bool
    pattern: str | Unset = UNSET
    options: list[FieldOptionsItem] | Unset = UNSET
    help_: str | Unset = UNSET
    example: float | str | Unset = UNSET
    default: bool | float | str | Unset = UNSET
    required_when: FieldRequiredWhen | Unset = UNSET
    filled_from: FieldFilledFrom | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        label = self.label

        type_: str
        if isinstance(self.type_, FieldType):
            type_ = self.type_.value
        else:
            type_ = self.type_

        required = self.required

        pattern = self.pattern

        options: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = []
            for options_item_data in self.options:
                options_item = options_item_data.to_dict()
                options.append(options_item)

        help_ = self.help_

        example: float | str | Unset
        if isinstance(self.example, Unset):
            example = UNSET
        else:
            example = self.example

        default: bool | float | str | Unset
        if isinstance(self.default, Unset):
            default = UNSET
        else:
            default = self.default

        required_when: dict[str, Any] | Unset = UNSET
        if not isinstance(self.required_when, Unset):
            required_when = self.required_when.to_dict()

        filled_from: str | Unset
        if isinstance(self.filled_from, Unset):
            filled_from = UNSET
        elif isinstance(self.filled_from, FieldFilledFrom):
            filled_from = self.filled_from.value
        else:
            filled_from = self.filled_from

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "label": label,
                "type": type_,
                "required": required,
            }
        )
        if pattern is not UNSET:
            field_dict["pattern"] = pattern
        if options is not UNSET:
            field_dict["options"] = options
        if help_ is not UNSET:
            field_dict["help"] = help_
        if example is not UNSET:
            field_dict["example"] = example
        if default is not UNSET:
            field_dict["default"] = default
        if required_when is not UNSET:
            field_dict["requiredWhen"] = required_when
        if filled_from is not UNSET:
            field_dict["filledFrom"] = filled_from

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.field_options_item import FieldOptionsItem
        from ..models.field_required_when import FieldRequiredWhen

        d = dict(src_dict)
        name = d.pop("name")

        label = d.pop("label")

        def _parse_type_(data: object) -> FieldType | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_0 = FieldType(data)

                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FieldType | str, data)

        type_ = _parse_type_(d.pop("type"))

        required = d.pop("required")

        pattern = d.pop("pattern", UNSET)

        _options = d.pop("options", UNSET)
        options: list[FieldOptionsItem] | Unset = UNSET
        if _options is not UNSET:
            options = []
            for options_item_data in _options:
                options_item = FieldOptionsItem.from_dict(options_item_data)

                options.append(options_item)

        help_ = d.pop("help", UNSET)

        def _parse_example(data: object) -> float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(float | str | Unset, data)

        example = _parse_example(d.pop("example", UNSET))

        def _parse_default(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        default = _parse_default(d.pop("default", UNSET))

        _required_when = d.pop("requiredWhen", UNSET)
        required_when: FieldRequiredWhen | Unset
        if isinstance(_required_when, Unset):
            required_when = UNSET
        else:
            required_when = FieldRequiredWhen.from_dict(_required_when)

        def _parse_filled_from(data: object) -> FieldFilledFrom | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                filled_from_type_0 = FieldFilledFrom(data)

                return filled_from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FieldFilledFrom | str | Unset, data)

        filled_from = _parse_filled_from(d.pop("filledFrom", UNSET))

        field = cls(
            name=name,
            label=label,
            type_=type_,
            required=required,
            pattern=pattern,
            options=options,
            help_=help_,
            example=example,
            default=default,
            required_when=required_when,
            filled_from=filled_from,
        )

        return field
