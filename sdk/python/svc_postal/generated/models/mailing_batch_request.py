from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..models.mailing_batch_request_channel import MailingBatchRequestChannel
from ..models.mailing_batch_request_mode import MailingBatchRequestMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.catalogue_letter_content import CatalogueLetterContent
    from ..models.electronic_request import ElectronicRequest
    from ..models.free_letter_content_input import FreeLetterContentInput
    from ..models.mailing_address import MailingAddress
    from ..models.mailing_batch_request_options import MailingBatchRequestOptions
    from ..models.mailing_batch_row import MailingBatchRow
    from ..models.pdf_letter_content import PdfLetterContent


T = TypeVar("T", bound="MailingBatchRequest")


@_attrs_define
class MailingBatchRequest:
    """
    Attributes:
        mode (MailingBatchRequestMode): simple, registered, or ar (registered with acknowledgment of receipt)
        letter (CatalogueLetterContent | FreeLetterContentInput | PdfLetterContent): One letter for every row: a
            catalogue letter (each row completes its fields), a free-form letter whose title and body may hold
            {{variables}}, or an own PDF
        sender (MailingAddress):
        rows (list[MailingBatchRow]): One mailing per row, at most 5000
        options (MailingBatchRequestOptions | Unset):
        send_at (str | Unset): The day the letter is filed (YYYY-MM-DD, Europe/Paris), from today to 180 days ahead.
            Paid at once; it stays paid, and can be canceled free, until 00:00 Europe/Paris that day, when it is filed.
            Absent: filed at once.
        channel (MailingBatchRequestChannel | Unset): paper (the default): printed and posted. electronic: a qualified
            electronic registered letter (LRE, CPCE L100), for modes registered and ar only (422 channel_not_available),
            sent to recipientEmail (then required, 422 recipient_email_required); then `electronic` is required Default:
            MailingBatchRequestChannel.PAPER.
        electronic (ElectronicRequest | Unset):
        dry_run (bool | Unset): true: check every row and answer the report and the price; nothing is created or charged
            Default: False.
    """

    mode: MailingBatchRequestMode
    letter: CatalogueLetterContent | FreeLetterContentInput | PdfLetterContent
    sender: MailingAddress
    rows: list[MailingBatchRow]
    options: MailingBatchRequestOptions | Unset = UNSET
    send_at: str | Unset = UNSET
    channel: MailingBatchRequestChannel | Unset = MailingBatchRequestChannel.PAPER
    electronic: ElectronicRequest | Unset = UNSET
    dry_run: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        from ..models.catalogue_letter_content import CatalogueLetterContent
        from ..models.free_letter_content_input import FreeLetterContentInput

        mode = self.mode.value

        letter: dict[str, Any]
        if isinstance(self.letter, CatalogueLetterContent) or isinstance(
            self.letter, FreeLetterContentInput
        ):
            letter = self.letter.to_dict()
        else:
            letter = self.letter.to_dict()

        sender = self.sender.to_dict()

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

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

        dry_run = self.dry_run

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mode": mode,
                "letter": letter,
                "sender": sender,
                "rows": rows,
            }
        )
        if options is not UNSET:
            field_dict["options"] = options
        if send_at is not UNSET:
            field_dict["sendAt"] = send_at
        if channel is not UNSET:
            field_dict["channel"] = channel
        if electronic is not UNSET:
            field_dict["electronic"] = electronic
        if dry_run is not UNSET:
            field_dict["dryRun"] = dry_run

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalogue_letter_content import CatalogueLetterContent
        from ..models.electronic_request import ElectronicRequest
        from ..models.free_letter_content_input import FreeLetterContentInput
        from ..models.mailing_address import MailingAddress
        from ..models.mailing_batch_request_options import MailingBatchRequestOptions
        from ..models.mailing_batch_row import MailingBatchRow
        from ..models.pdf_letter_content import PdfLetterContent

        d = dict(src_dict)
        mode = MailingBatchRequestMode(d.pop("mode"))

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

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = MailingBatchRow.from_dict(rows_item_data)

            rows.append(rows_item)

        _options = d.pop("options", UNSET)
        options: MailingBatchRequestOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = MailingBatchRequestOptions.from_dict(_options)

        send_at = d.pop("sendAt", UNSET)

        _channel = d.pop("channel", UNSET)
        channel: MailingBatchRequestChannel | Unset
        if isinstance(_channel, Unset):
            channel = UNSET
        else:
            channel = MailingBatchRequestChannel(_channel)

        _electronic = d.pop("electronic", UNSET)
        electronic: ElectronicRequest | Unset
        if isinstance(_electronic, Unset):
            electronic = UNSET
        else:
            electronic = ElectronicRequest.from_dict(_electronic)

        dry_run = d.pop("dryRun", UNSET)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "mode": "mode",
                "letter": "letter",
                "sender": "sender",
                "rows": "rows",
                "options": "options",
                "send_at": "sendAt",
                "channel": "channel",
                "electronic": "electronic",
                "dry_run": "dryRun",
            },
        )
        mailing_batch_request = cls(
            mode=mode,
            letter=letter,
            sender=sender,
            rows=rows,
            options=options,
            send_at=send_at,
            channel=channel,
            electronic=electronic,
            dry_run=dry_run,
        )

        return mailing_batch_request
