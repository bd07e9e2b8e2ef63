from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.shipment_channel import ShipmentChannel
from ..models.shipment_mode import ShipmentMode
from ..models.shipment_returned_mail import ShipmentReturnedMail
from ..models.shipment_status import ShipmentStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.mailing_electronic import MailingElectronic
    from ..models.mailing_postage import MailingPostage
    from ..models.request_warning import RequestWarning
    from ..models.shipment_document import ShipmentDocument
    from ..models.shipment_events_item import ShipmentEventsItem
    from ..models.shipment_proofs_item import ShipmentProofsItem


T = TypeVar("T", bound="Shipment")


@_attrs_define
class Shipment:
    """
    Attributes:
        id (UUID): UUID
        title (str):
        mode (ShipmentMode | str):
        mode_label (str):
        status (ShipmentStatus | str):
        status_label (str):
        step (int):
        last_step (int):
        tracking_number (str):
        created_at (datetime.datetime):
        events (list[ShipmentEventsItem]):
        order_id (None):  Default: None.
        recipient (list[str]):
        amount_cents (int):
        reference (str):
        test (bool):
        proofs (list[ShipmentProofsItem]):
        warnings (list[RequestWarning]): What was done with the request instead of refusing it; empty when nothing
        send_at (None | str): The send date (YYYY-MM-DD, Europe/Paris) the mailing waits for while paid; null when filed
            at once
        batch (None | UUID): The batch it was sent in (POST /v1/mailing-batches); null for a mailing of its own
        erased_at (datetime.datetime | None): When its personal data was erased (POST /v1/mailings/{id}/erase, or the
            account's retention period after it became final); null: not erased. An erased mailing keeps its amount,
            history, tracking number and hashes; its recipient reads ["(effacé)"], its document has an empty text (and the
            title "(effacé)" unless a catalogue letter), its proofs are listed but no longer downloadable
        channel (ShipmentChannel | str): paper (every mailing created without a channel) or electronic
        electronic (MailingElectronic | None): The electronic channel; null for paper
        postage (MailingPostage | None): A simple letter's postage speed; null for registered and AR letters, which have
            one speed
        returned_mail (None | ShipmentReturnedMail | str): A simple letter that cannot be delivered: sender (every
            simple letter asked without options.returnedMail) or digital; null for registered and AR letters
        document (ShipmentDocument | Unset): The letter content; absent from webhook payloads
    """

    id: UUID
    title: str
    mode: ShipmentMode | str
    mode_label: str
    status: ShipmentStatus | str
    status_label: str
    step: int
    last_step: int
    tracking_number: str
    created_at: datetime.datetime
    events: list[ShipmentEventsItem]
    recipient: list[str]
    amount_cents: int
    reference: str
    test: bool
    proofs: list[ShipmentProofsItem]
    warnings: list[RequestWarning]
    send_at: None | str
    batch: None | UUID
    erased_at: datetime.datetime | None
    channel: ShipmentChannel | str
    electronic: MailingElectronic | None
    postage: MailingPostage | None
    returned_mail: None | ShipmentReturnedMail | str
    order_id: None = None
    document: ShipmentDocument | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.mailing_electronic import MailingElectronic
        from ..models.mailing_postage import MailingPostage

        id = str(self.id)

        title = self.title

        mode: str
        if isinstance(self.mode, ShipmentMode):
            mode = self.mode.value
        else:
            mode = self.mode

        mode_label = self.mode_label

        status: str
        if isinstance(self.status, ShipmentStatus):
            status = self.status.value
        else:
            status = self.status

        status_label = self.status_label

        step = self.step

        last_step = self.last_step

        tracking_number = self.tracking_number

        created_at = self.created_at.isoformat()

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        order_id = self.order_id

        recipient = self.recipient

        amount_cents = self.amount_cents

        reference = self.reference

        test = self.test

        proofs = []
        for proofs_item_data in self.proofs:
            proofs_item = proofs_item_data.to_dict()
            proofs.append(proofs_item)

        warnings = []
        for warnings_item_data in self.warnings:
            warnings_item = warnings_item_data.to_dict()
            warnings.append(warnings_item)

        send_at: None | str
        send_at = self.send_at

        batch: None | str
        if isinstance(self.batch, UUID):
            batch = str(self.batch)
        else:
            batch = self.batch

        erased_at: None | str
        if isinstance(self.erased_at, datetime.datetime):
            erased_at = self.erased_at.isoformat()
        else:
            erased_at = self.erased_at

        channel: str
        if isinstance(self.channel, ShipmentChannel):
            channel = self.channel.value
        else:
            channel = self.channel

        electronic: dict[str, Any] | None
        if isinstance(self.electronic, MailingElectronic):
            electronic = self.electronic.to_dict()
        else:
            electronic = self.electronic

        postage: dict[str, Any] | None
        if isinstance(self.postage, MailingPostage):
            postage = self.postage.to_dict()
        else:
            postage = self.postage

        returned_mail: None | str
        if isinstance(self.returned_mail, ShipmentReturnedMail):
            returned_mail = self.returned_mail.value
        else:
            returned_mail = self.returned_mail

        document: dict[str, Any] | Unset = UNSET
        if not isinstance(self.document, Unset):
            document = self.document.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "mode": mode,
                "modeLabel": mode_label,
                "status": status,
                "statusLabel": status_label,
                "step": step,
                "lastStep": last_step,
                "trackingNumber": tracking_number,
                "createdAt": created_at,
                "events": events,
                "orderId": order_id,
                "recipient": recipient,
                "amountCents": amount_cents,
                "reference": reference,
                "test": test,
                "proofs": proofs,
                "warnings": warnings,
                "sendAt": send_at,
                "batch": batch,
                "erasedAt": erased_at,
                "channel": channel,
                "electronic": electronic,
                "postage": postage,
                "returnedMail": returned_mail,
            }
        )
        if document is not UNSET:
            field_dict["document"] = document

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mailing_electronic import MailingElectronic
        from ..models.mailing_postage import MailingPostage
        from ..models.request_warning import RequestWarning
        from ..models.shipment_document import ShipmentDocument
        from ..models.shipment_events_item import ShipmentEventsItem
        from ..models.shipment_proofs_item import ShipmentProofsItem

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        title = d.pop("title")

        def _parse_mode(data: object) -> ShipmentMode | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                mode_type_0 = ShipmentMode(data)

                return mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ShipmentMode | str, data)

        mode = _parse_mode(d.pop("mode"))

        mode_label = d.pop("modeLabel")

        def _parse_status(data: object) -> ShipmentStatus | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = ShipmentStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ShipmentStatus | str, data)

        status = _parse_status(d.pop("status"))

        status_label = d.pop("statusLabel")

        step = d.pop("step")

        last_step = d.pop("lastStep")

        tracking_number = d.pop("trackingNumber")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = ShipmentEventsItem.from_dict(events_item_data)

            events.append(events_item)

        order_id = d.pop("orderId")

        recipient = cast(list[str], d.pop("recipient"))

        amount_cents = d.pop("amountCents")

        reference = d.pop("reference")

        test = d.pop("test")

        proofs = []
        _proofs = d.pop("proofs")
        for proofs_item_data in _proofs:
            proofs_item = ShipmentProofsItem.from_dict(proofs_item_data)

            proofs.append(proofs_item)

        warnings = []
        _warnings = d.pop("warnings")
        for warnings_item_data in _warnings:
            warnings_item = RequestWarning.from_dict(warnings_item_data)

            warnings.append(warnings_item)

        def _parse_send_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        send_at = _parse_send_at(d.pop("sendAt"))

        def _parse_batch(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                batch_type_0 = UUID(data)

                return batch_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        batch = _parse_batch(d.pop("batch"))

        def _parse_erased_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                erased_at_type_0 = datetime.datetime.fromisoformat(data)

                return erased_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        erased_at = _parse_erased_at(d.pop("erasedAt"))

        def _parse_channel(data: object) -> ShipmentChannel | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                channel_type_0 = ShipmentChannel(data)

                return channel_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ShipmentChannel | str, data)

        channel = _parse_channel(d.pop("channel"))

        def _parse_electronic(data: object) -> MailingElectronic | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                electronic_type_0 = MailingElectronic.from_dict(data)

                return electronic_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MailingElectronic | None, data)

        electronic = _parse_electronic(d.pop("electronic"))

        def _parse_postage(data: object) -> MailingPostage | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                postage_type_0 = MailingPostage.from_dict(data)

                return postage_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MailingPostage | None, data)

        postage = _parse_postage(d.pop("postage"))

        def _parse_returned_mail(data: object) -> None | ShipmentReturnedMail | str:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                returned_mail_type_0_type_0 = ShipmentReturnedMail(data)

                return returned_mail_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ShipmentReturnedMail | str, data)

        returned_mail = _parse_returned_mail(d.pop("returnedMail"))

        _document = d.pop("document", UNSET)
        document: ShipmentDocument | Unset
        if isinstance(_document, Unset):
            document = UNSET
        else:
            document = ShipmentDocument.from_dict(_document)

        shipment = cls(
            id=id,
            title=title,
            mode=mode,
            mode_label=mode_label,
            status=status,
            status_label=status_label,
            step=step,
            last_step=last_step,
            tracking_number=tracking_number,
            created_at=created_at,
            events=events,
            order_id=order_id,
            recipient=recipient,
            amount_cents=amount_cents,
            reference=reference,
            test=test,
            proofs=proofs,
            warnings=warnings,
            send_at=send_at,
            batch=batch,
            erased_at=erased_at,
            channel=channel,
            electronic=electronic,
            postage=postage,
            returned_mail=returned_mail,
            document=document,
        )

        return shipment
