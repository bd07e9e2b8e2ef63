from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_event_data_proof_kind_type_0 import WebhookEventDataProofKindType0

T = TypeVar("T", bound="WebhookEventDataProof")


@_attrs_define
class WebhookEventDataProof:
    """Only for mailing.proof_available

    Attributes:
        kind (str | WebhookEventDataProofKindType0):
    """

    kind: str | WebhookEventDataProofKindType0

    def to_dict(self) -> dict[str, Any]:
        kind: str
        if isinstance(self.kind, WebhookEventDataProofKindType0):
            kind = self.kind.value
        else:
            kind = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_kind(data: object) -> str | WebhookEventDataProofKindType0:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                kind_type_0 = WebhookEventDataProofKindType0(data)

                return kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | WebhookEventDataProofKindType0, data)

        kind = _parse_kind(d.pop("kind"))

        webhook_event_data_proof = cls(
            kind=kind,
        )

        return webhook_event_data_proof
