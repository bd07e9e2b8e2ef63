from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.electronic_consent_input import ElectronicConsentInput
    from ..models.mailing_address import MailingAddress
    from ..models.mailing_batch_row_fields import MailingBatchRowFields
    from ..models.siret_recipient import SiretRecipient


T = TypeVar("T", bound="MailingBatchRow")


@_attrs_define
class MailingBatchRow:
    """
    Attributes:
        recipient (MailingAddress | SiretRecipient): An address, or { siret, name? } for an establishment's registered
            address
        fields (MailingBatchRowFields | Unset): This row's values: a catalogue letter's fields (over the letter's own),
            or a free-form letter's {{variables}}
        reference (str | Unset): This row's mailing reference (at most 30 characters), filterable
        recipient_email (str | Unset): This row's recipient's email: required with channel electronic (422
            recipient_email_required), or with options.emailCopy
        consent (ElectronicConsentInput | Unset):
    """

    recipient: MailingAddress | SiretRecipient
    fields: MailingBatchRowFields | Unset = UNSET
    reference: str | Unset = UNSET
    recipient_email: str | Unset = UNSET
    consent: ElectronicConsentInput | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.mailing_address import MailingAddress

        recipient: dict[str, Any]
        if isinstance(self.recipient, MailingAddress):
            recipient = self.recipient.to_dict()
        else:
            recipient = self.recipient.to_dict()

        fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fields, Unset):
            fields = self.fields.to_dict()

        reference = self.reference

        recipient_email = self.recipient_email

        consent: dict[str, Any] | Unset = UNSET
        if not isinstance(self.consent, Unset):
            consent = self.consent.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "recipient": recipient,
            }
        )
        if fields is not UNSET:
            field_dict["fields"] = fields
        if reference is not UNSET:
            field_dict["reference"] = reference
        if recipient_email is not UNSET:
            field_dict["recipientEmail"] = recipient_email
        if consent is not UNSET:
            field_dict["consent"] = consent

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.electronic_consent_input import ElectronicConsentInput
        from ..models.mailing_address import MailingAddress
        from ..models.mailing_batch_row_fields import MailingBatchRowFields
        from ..models.siret_recipient import SiretRecipient

        d = dict(src_dict)

        def _parse_recipient(data: object) -> MailingAddress | SiretRecipient:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                recipient_type_0 = MailingAddress.from_dict(data)

                return recipient_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            recipient_type_1 = SiretRecipient.from_dict(data)

            return recipient_type_1

        recipient = _parse_recipient(d.pop("recipient"))

        _fields = d.pop("fields", UNSET)
        fields: MailingBatchRowFields | Unset
        if isinstance(_fields, Unset):
            fields = UNSET
        else:
            fields = MailingBatchRowFields.from_dict(_fields)

        reference = d.pop("reference", UNSET)

        recipient_email = d.pop("recipientEmail", UNSET)

        _consent = d.pop("consent", UNSET)
        consent: ElectronicConsentInput | Unset
        if isinstance(_consent, Unset):
            consent = UNSET
        else:
            consent = ElectronicConsentInput.from_dict(_consent)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "recipient": "recipient",
                "fields": "fields",
                "reference": "reference",
                "recipient_email": "recipientEmail",
                "consent": "consent",
            },
        )
        mailing_batch_row = cls(
            recipient=recipient,
            fields=fields,
            reference=reference,
            recipient_email=recipient_email,
            consent=consent,
        )

        return mailing_batch_row
