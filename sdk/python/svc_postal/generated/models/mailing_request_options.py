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
from ..models.mailing_request_options_archive_years import (
    MailingRequestOptionsArchiveYears,
)
from ..models.mailing_request_options_envelope_windows import (
    MailingRequestOptionsEnvelopeWindows,
)
from ..models.mailing_request_options_postage import MailingRequestOptionsPostage
from ..models.mailing_request_options_returned_mail import (
    MailingRequestOptionsReturnedMail,
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
            worked is refused). The base holds French addresses only: for a recipient abroad it does not apply (an
            address_check_not_applied warning when given)
        return_envelope (bool | Unset): true: the account's pre-addressed return envelope (its settings: type and the
            operator's reference) is slipped into the letter, priced mailing.return_envelope; 422
            return_envelope_not_configured when the account has none. A prepaid one (« enveloppe T ») is left out by the
            operator for a recipient outside metropolitan France and the overseas departments
        archive_years (MailingRequestOptionsArchiveYears | Unset): Years the operator archives the letter and its
            proofs: simple 0, 1, 3, 6 or 10 (0 included), registered and ar 3, 6 or 10 (3 included; 422 option_not_available
            otherwise); each year beyond the included ones is a mailing.archive_year. Absent: the account's setting, else
            the included duration
        envelope_windows (MailingRequestOptionsEnvelopeWindows | Unset): Simple letters only (422 option_not_available
            otherwise): a DL envelope with one window (the recipient) or two (the sender too). Absent: the operator's choice
        print_sender_address (bool | Unset): Simple letters only (422 option_not_available otherwise): the operator
            prints the sender's address too. Absent: false
        postage (MailingRequestOptionsPostage | Unset): Mode simple only (422 option_not_available otherwise: registered
            letters have one speed). fast (the default): Lettre verte, announced J+3; economic: Ecopli, J+4, cheaper (unit
            mailing.simple.economic); urgent: the J+1 letter, dearer (unit mailing.simple.urgent)
        returned_mail (MailingRequestOptionsReturnedMail | Unset): Mode simple only (422 option_not_available
            otherwise). What happens to a letter that cannot be delivered: sender (the default), La Poste brings it back to
            the sender; digital, the operator takes it back and scans it, and the mailing ends returned (step 3) with the
            return proof and mailing.returned carrying the reason (unit mailing.returned_mail.digital)
    """

    color: bool | Unset = False
    duplex: bool | Unset = False
    email_copy: bool | Unset = False
    address_placement: MailingRequestOptionsAddressPlacement | Unset = UNSET
    address_check: MailingRequestOptionsAddressCheck | Unset = UNSET
    return_envelope: bool | Unset = UNSET
    archive_years: MailingRequestOptionsArchiveYears | Unset = UNSET
    envelope_windows: MailingRequestOptionsEnvelopeWindows | Unset = UNSET
    print_sender_address: bool | Unset = UNSET
    postage: MailingRequestOptionsPostage | Unset = UNSET
    returned_mail: MailingRequestOptionsReturnedMail | Unset = UNSET

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

        return_envelope = self.return_envelope

        archive_years: int | Unset = UNSET
        if not isinstance(self.archive_years, Unset):
            archive_years = self.archive_years.value

        envelope_windows: str | Unset = UNSET
        if not isinstance(self.envelope_windows, Unset):
            envelope_windows = self.envelope_windows.value

        print_sender_address = self.print_sender_address

        postage: str | Unset = UNSET
        if not isinstance(self.postage, Unset):
            postage = self.postage.value

        returned_mail: str | Unset = UNSET
        if not isinstance(self.returned_mail, Unset):
            returned_mail = self.returned_mail.value

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
        if return_envelope is not UNSET:
            field_dict["returnEnvelope"] = return_envelope
        if archive_years is not UNSET:
            field_dict["archiveYears"] = archive_years
        if envelope_windows is not UNSET:
            field_dict["envelopeWindows"] = envelope_windows
        if print_sender_address is not UNSET:
            field_dict["printSenderAddress"] = print_sender_address
        if postage is not UNSET:
            field_dict["postage"] = postage
        if returned_mail is not UNSET:
            field_dict["returnedMail"] = returned_mail

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

        return_envelope = d.pop("returnEnvelope", UNSET)

        _archive_years = d.pop("archiveYears", UNSET)
        archive_years: MailingRequestOptionsArchiveYears | Unset
        if isinstance(_archive_years, Unset):
            archive_years = UNSET
        else:
            archive_years = MailingRequestOptionsArchiveYears(_archive_years)

        _envelope_windows = d.pop("envelopeWindows", UNSET)
        envelope_windows: MailingRequestOptionsEnvelopeWindows | Unset
        if isinstance(_envelope_windows, Unset):
            envelope_windows = UNSET
        else:
            envelope_windows = MailingRequestOptionsEnvelopeWindows(_envelope_windows)

        print_sender_address = d.pop("printSenderAddress", UNSET)

        _postage = d.pop("postage", UNSET)
        postage: MailingRequestOptionsPostage | Unset
        if isinstance(_postage, Unset):
            postage = UNSET
        else:
            postage = MailingRequestOptionsPostage(_postage)

        _returned_mail = d.pop("returnedMail", UNSET)
        returned_mail: MailingRequestOptionsReturnedMail | Unset
        if isinstance(_returned_mail, Unset):
            returned_mail = UNSET
        else:
            returned_mail = MailingRequestOptionsReturnedMail(_returned_mail)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "color": "color",
                "duplex": "duplex",
                "email_copy": "emailCopy",
                "address_placement": "addressPlacement",
                "address_check": "addressCheck",
                "return_envelope": "returnEnvelope",
                "archive_years": "archiveYears",
                "envelope_windows": "envelopeWindows",
                "print_sender_address": "printSenderAddress",
                "postage": "postage",
                "returned_mail": "returnedMail",
            },
        )
        mailing_request_options = cls(
            color=color,
            duplex=duplex,
            email_copy=email_copy,
            address_placement=address_placement,
            address_check=address_check,
            return_envelope=return_envelope,
            archive_years=archive_years,
            envelope_windows=envelope_windows,
            print_sender_address=print_sender_address,
            postage=postage,
            returned_mail=returned_mail,
        )

        return mailing_request_options
