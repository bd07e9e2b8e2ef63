from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..models.mailing_request_channel import MailingRequestChannel
from ..models.mailing_request_mode import MailingRequestMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.catalogue_letter_content import CatalogueLetterContent
    from ..models.electronic_request import ElectronicRequest
    from ..models.free_letter_content_input import FreeLetterContentInput
    from ..models.mailing_address import MailingAddress
    from ..models.mailing_request_options import MailingRequestOptions
    from ..models.pdf_letter_content import PdfLetterContent
    from ..models.siret_recipient import SiretRecipient


T = TypeVar("T", bound="MailingRequest")


@_attrs_define
class MailingRequest:
    """
    Attributes:
        mode (MailingRequestMode): simple, registered, or ar (registered with acknowledgment of receipt)
        letter (CatalogueLetterContent | FreeLetterContentInput | PdfLetterContent):
        sender (MailingAddress):
        recipient (MailingAddress | SiretRecipient | Unset): An address, or { siret, name? } for an establishment's
            registered address. Optional when the catalogue letter's provider carries the address
        recipient_email (str | Unset):
        reference (str | Unset): Your own reference (at most 30 characters), filterable
        options (MailingRequestOptions | Unset):
        send_at (str | Unset): The day the letter is filed (YYYY-MM-DD, Europe/Paris), from today to 180 days ahead.
            Paid at once; it stays paid, and can be canceled free, until 00:00 Europe/Paris that day, when it is filed.
            Absent: filed at once.
        channel (MailingRequestChannel | Unset): paper (the default): printed and posted. electronic: a qualified
            electronic registered letter (LRE, CPCE L100), for modes registered and ar only (422 channel_not_available),
            sent to recipientEmail (then required, 422 recipient_email_required); then `electronic` is required Default:
            MailingRequestChannel.PAPER.
        electronic (ElectronicRequest | Unset):
    """

    mode: MailingRequestMode
    letter: CatalogueLetterContent | FreeLetterContentInput | PdfLetterContent
    sender: MailingAddress
    recipient: MailingAddress | SiretRecipient | Unset = UNSET
    recipient_email: str | Unset = UNSET
    reference: str | Unset = UNSET
    options: MailingRequestOptions | Unset = UNSET
    send_at: str | Unset = UNSET
    channel: MailingRequestChannel | Unset = MailingRequestChannel.PAPER
    electronic: ElectronicRequest | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.catalogue_letter_content import CatalogueLetterContent
        from ..models.free_letter_content_input import FreeLetterContentInput
        from ..models.mailing_address import MailingAddress

        mode = self.mode.value

        letter: dict[str, Any]
        if isinstance(self.letter, CatalogueLetterContent) or isinstance(
            self.letter, FreeLetterContentInput
        ):
            letter = self.letter.to_dict()
        else:
            letter = self.letter.to_dict()

        sender = self.sender.to_dict()

        recipient: dict[str, Any] | Unset
        if isinstance(self.recipient, Unset):
            recipient = UNSET
        elif isinstance(self.recipient, MailingAddress):
            recipient = self.recipient.to_dict()
        else:
            recipient = self.recipient.to_dict()

        recipient_email = self.recipient_email

        reference = self.reference

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        send_at = self.send_at

        channel: str | Unset = UNSET
        if not isinstance(self.channel, Unset):
            channel = self.channel.value

        electronic: dict[str, Any] | Unset = UNSET
        if not isinstance(self.electronic, Unset):
            electronic = self.electronic.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mode": mode,
                "letter": letter,
                "sender": sender,
            }
        )
        if recipient is not UNSET:
            field_dict["recipient"] = recipient
        if recipient_email is not UNSET:
            field_dict["recipientEmail"] = recipient_email
        if reference is not UNSET:
            field_dict["reference"] = reference
        if options is not UNSET:
            field_dict["options"] = options
        if send_at is not UNSET:
            field_dict["sendAt"] = send_at
        if channel is not UNSET:
            field_dict["channel"] = channel
        if electronic is not UNSET:
            field_dict["electronic"] = electronic

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalogue_letter_content import CatalogueLetterContent
        from ..models.electronic_request import ElectronicRequest
        from ..models.free_letter_content_input import FreeLetterContentInput
        from ..models.mailing_address import MailingAddress
        from ..models.mailing_request_options import MailingRequestOptions
        from ..models.pdf_letter_content import PdfLetterContent
        from ..models.siret_recipient import SiretRecipient

        d = dict(src_dict)
        mode = MailingRequestMode(d.pop("mode"))

        def _parse_letter(
            data: object,
        ) -> CatalogueLetterContent | FreeLetterContentInput | PdfLetterContent:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                letter_type_0 = CatalogueLetterContent.from_dict(data)

                return letter_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                letter_type_1 = FreeLetterContentInput.from_dict(data)

                return letter_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            letter_type_2 = PdfLetterContent.from_dict(data)

            return letter_type_2

        letter = _parse_letter(d.pop("letter"))

        sender = MailingAddress.from_dict(d.pop("sender"))

        def _parse_recipient(data: object) -> MailingAddress | SiretRecipient | Unset:
            if isinstance(data, Unset):
                return data
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

        recipient = _parse_recipient(d.pop("recipient", UNSET))

        recipient_email = d.pop("recipientEmail", UNSET)

        reference = d.pop("reference", UNSET)

        _options = d.pop("options", UNSET)
        options: MailingRequestOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = MailingRequestOptions.from_dict(_options)

        send_at = d.pop("sendAt", UNSET)

        _channel = d.pop("channel", UNSET)
        channel: MailingRequestChannel | Unset
        if isinstance(_channel, Unset):
            channel = UNSET
        else:
            channel = MailingRequestChannel(_channel)

        _electronic = d.pop("electronic", UNSET)
        electronic: ElectronicRequest | Unset
        if isinstance(_electronic, Unset):
            electronic = UNSET
        else:
            electronic = ElectronicRequest.from_dict(_electronic)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "mode": "mode",
                "letter": "letter",
                "sender": "sender",
                "recipient": "recipient",
                "recipient_email": "recipientEmail",
                "reference": "reference",
                "options": "options",
                "send_at": "sendAt",
                "channel": "channel",
                "electronic": "electronic",
            },
        )
        mailing_request = cls(
            mode=mode,
            letter=letter,
            sender=sender,
            recipient=recipient,
            recipient_email=recipient_email,
            reference=reference,
            options=options,
            send_at=send_at,
            channel=channel,
            electronic=electronic,
        )

        return mailing_request
