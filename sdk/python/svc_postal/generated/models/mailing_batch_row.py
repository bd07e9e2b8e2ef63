from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..types import UNSET, Unset

if TYPE_CHECKING:
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
    """

    recipient: MailingAddress | SiretRecipient
    fields: MailingBatchRowFields | Unset = UNSET
    reference: str | Unset = UNSET

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

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
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

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "recipient": "recipient",
                "fields": "fields",
                "reference": "reference",
            },
        )
        mailing_batch_row = cls(
            recipient=recipient,
            fields=fields,
            reference=reference,
        )

        return mailing_batch_row
