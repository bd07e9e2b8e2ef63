from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.request_warning_code import RequestWarningCode

T = TypeVar("T", bound="RequestWarning")


@_attrs_define
class RequestWarning:
    """
    Attributes:
        code (RequestWarningCode | str): field_replaced: a value given in letter.fields was replaced by the validated
            sender or recipient; field_renamed: a field of an earlier catalogue was read under its new name;
            field_defaulted: a field added since was given the value that writes the earlier letter; value_retired: an
            option of an earlier catalogue, since withdrawn, was read as the option that replaces it (the message names
            both); address_unverified: the national address base does not confirm the recipient address, posted as given
            (options.addressCheck: lenient); address_check_unavailable: the address base could not be reached in time, the
            address was posted unchecked; address_check_not_applied: options.addressCheck was given for a recipient abroad,
            which the national address base does not hold (checked by the postal rules alone)
        field (str): The field of the request concerned, e.g. letter.fields.senderName
        message (str):
    """

    code: RequestWarningCode | str
    field: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        code: str
        if isinstance(self.code, RequestWarningCode):
            code = self.code.value
        else:
            code = self.code

        field = self.field

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "field": field,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_code(data: object) -> RequestWarningCode | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                code_type_0 = RequestWarningCode(data)

                return code_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(RequestWarningCode | str, data)

        code = _parse_code(d.pop("code"))

        field = d.pop("field")

        message = d.pop("message")

        request_warning = cls(
            code=code,
            field=field,
            message=message,
        )

        return request_warning
