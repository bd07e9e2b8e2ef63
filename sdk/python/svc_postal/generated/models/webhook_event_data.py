from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.mailing_batch import MailingBatch
    from ..models.shipment import Shipment
    from ..models.webhook_event_data_details import WebhookEventDataDetails
    from ..models.webhook_event_data_endpoint import WebhookEventDataEndpoint
    from ..models.webhook_event_data_proof import WebhookEventDataProof


T = TypeVar("T", bound="WebhookEventData")


@_attrs_define
class WebhookEventData:
    """
    Attributes:
        mailing (Shipment | Unset):
        proof (WebhookEventDataProof | Unset): Only for mailing.proof_available
        batch (MailingBatch | Unset):
        details (WebhookEventDataDetails | Unset): Only for mailing.error, when the reason is known (the mailing is then
            refunded), and for mailing.returned of a simple letter with options.returnedMail digital
        endpoint (WebhookEventDataEndpoint | Unset): Only for ping: the endpoint tried, as declared
    """

    mailing: Shipment | Unset = UNSET
    proof: WebhookEventDataProof | Unset = UNSET
    batch: MailingBatch | Unset = UNSET
    details: WebhookEventDataDetails | Unset = UNSET
    endpoint: WebhookEventDataEndpoint | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        mailing: dict[str, Any] | Unset = UNSET
        if not isinstance(self.mailing, Unset):
            mailing = self.mailing.to_dict()

        proof: dict[str, Any] | Unset = UNSET
        if not isinstance(self.proof, Unset):
            proof = self.proof.to_dict()

        batch: dict[str, Any] | Unset = UNSET
        if not isinstance(self.batch, Unset):
            batch = self.batch.to_dict()

        details: dict[str, Any] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = self.details.to_dict()

        endpoint: dict[str, Any] | Unset = UNSET
        if not isinstance(self.endpoint, Unset):
            endpoint = self.endpoint.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if mailing is not UNSET:
            field_dict["mailing"] = mailing
        if proof is not UNSET:
            field_dict["proof"] = proof
        if batch is not UNSET:
            field_dict["batch"] = batch
        if details is not UNSET:
            field_dict["details"] = details
        if endpoint is not UNSET:
            field_dict["endpoint"] = endpoint

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mailing_batch import MailingBatch
        from ..models.shipment import Shipment
        from ..models.webhook_event_data_details import WebhookEventDataDetails
        from ..models.webhook_event_data_endpoint import WebhookEventDataEndpoint
        from ..models.webhook_event_data_proof import WebhookEventDataProof

        d = dict(src_dict)
        _mailing = d.pop("mailing", UNSET)
        mailing: Shipment | Unset
        if isinstance(_mailing, Unset):
            mailing = UNSET
        else:
            mailing = Shipment.from_dict(_mailing)

        _proof = d.pop("proof", UNSET)
        proof: WebhookEventDataProof | Unset
        if isinstance(_proof, Unset):
            proof = UNSET
        else:
            proof = WebhookEventDataProof.from_dict(_proof)

        _batch = d.pop("batch", UNSET)
        batch: MailingBatch | Unset
        if isinstance(_batch, Unset):
            batch = UNSET
        else:
            batch = MailingBatch.from_dict(_batch)

        _details = d.pop("details", UNSET)
        details: WebhookEventDataDetails | Unset
        if isinstance(_details, Unset):
            details = UNSET
        else:
            details = WebhookEventDataDetails.from_dict(_details)

        _endpoint = d.pop("endpoint", UNSET)
        endpoint: WebhookEventDataEndpoint | Unset
        if isinstance(_endpoint, Unset):
            endpoint = UNSET
        else:
            endpoint = WebhookEventDataEndpoint.from_dict(_endpoint)

        webhook_event_data = cls(
            mailing=mailing,
            proof=proof,
            batch=batch,
            details=details,
            endpoint=endpoint,
        )

        return webhook_event_data
