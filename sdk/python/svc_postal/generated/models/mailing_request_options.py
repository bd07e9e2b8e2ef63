from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..models.mailing_request_options_address_check import (
    MailingRequestOptionsAddressCheck,
)
from ..models.mailing_request_options_address_placement import (
    MailingRequestOptionsAddressPlacement,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="MailingRequestOptions")


@_attrs_define
class MailingRequestOptions:
    """
    Attributes:
        color (bool | Unset):  Default: False.
        duplex (bool | Unset):  Default: False.
        email_copy (bool | Unset): Also send an electronic copy to recipientEmail (then required) Default: False.
        address_placement (MailingRequestOptionsAddressPlacement | Unset): PDF letters only. insert_blank_page (the
            default): an address sheet printed with the sender and recipient is put in front, priced as one more sheet;
            first_page: the window zone of page 1 must be blank (422 otherwise).
        address_check (MailingRequestOptionsAddressCheck | Unset): strict: a recipient address the national address base
            does not confirm is refused (422 address_invalid with details.suggestions); lenient: it is posted as given, with
            an address_unverified warning. Absent: strict, or lenient for accounts opened before 2026-11-25 (no request that
            worked is refused)
    """

    color: bool | Unset = False
    duplex: bool | Unset = False
    email_copy: bool | Unset = False
    address_placement: MailingRequestOptionsAddressPlacement | Unset = UNSET
    address_check: MailingRequestOptionsAddressCheck | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        color = self.color

        duplex = self.duplex

        email_copy = self.email_copy

        address_placement: str | Unset = UNSET
        if not isinstance(self.address_placement, Unset):
            address_placement = self.address_placement.value

        address_check: str | Unset = UNSET
        if not isinstance(self.address_check, Unset):
            address_check = self.address_check.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if color is not UNSET:
            field_dict["color"] = color
        if duplex is not UNSET:
            field_dict["duplex"] = duplex
        if email_copy is not UNSET:
            field_dict["emailCopy"] = email_copy
        if address_placement is not UNSET:
            field_dict["addressPlacement"] = address_placement
        if address_check is not UNSET:
            field_dict["addressCheck"] = address_check

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        color = d.pop("color", UNSET)

        duplex = d.pop("duplex", UNSET)

        email_copy = d.pop("emailCopy", UNSET)

        _address_placement = d.pop("addressPlacement", UNSET)
        address_placement: MailingRequestOptionsAddressPlacement | Unset
        if isinstance(_address_placement, Unset):
            address_placement = UNSET
        else:
            address_placement = MailingRequestOptionsAddressPlacement(
                _address_placement
            )

        _address_check = d.pop("addressCheck", UNSET)
        address_check: MailingRequestOptionsAddressCheck | Unset
        if isinstance(_address_check, Unset):
            address_check = UNSET
        else:
            address_check = MailingRequestOptionsAddressCheck(_address_check)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "color": "color",
                "duplex": "duplex",
                "email_copy": "emailCopy",
                "address_placement": "addressPlacement",
                "address_check": "addressCheck",
            },
        )
        mailing_request_options = cls(
            color=color,
            duplex=duplex,
            email_copy=email_copy,
            address_placement=address_placement,
            address_check=address_check,
        )

        return mailing_request_options
