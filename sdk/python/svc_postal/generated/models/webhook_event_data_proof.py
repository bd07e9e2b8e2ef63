from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_event_data_proof_kind import WebhookEventDataProofKind

T = TypeVar("T", bound="WebhookEventDataProof")


@_attrs_define
class WebhookEventDataProof:
    """Only for mailing.proof_available

    Attributes:
        kind (str | WebhookEventDataProofKind):
    """

    kind: str | WebhookEventDataProofKind

    def to_dict(self) -> dict[str, Any]:
        kind: str
        if isinstance(self.kind, WebhookEventDataProofKind):
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

        def _parse_kind(data: object) -> str | WebhookEventDataProofKind:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                kind_type_0 = WebhookEventDataProofKind(data)

                return kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | WebhookEventDataProofKind, data)

        kind = _parse_kind(d.pop("kind"))

        webhook_event_data_proof = cls(
            kind=kind,
        )

        return webhook_event_data_proof
