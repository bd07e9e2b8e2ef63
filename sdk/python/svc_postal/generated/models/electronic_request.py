from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..models.electronic_request_fallback import ElectronicRequestFallback
from ..models.electronic_request_recipient_kind import ElectronicRequestRecipientKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.electronic_consent_input import ElectronicConsentInput


T = TypeVar("T", bound="ElectronicRequest")


@_attrs_define
class ElectronicRequest:
    """
    Attributes:
        recipient_kind (ElectronicRequestRecipientKind): Whether the recipient is a professional; a consumer must have
            agreed beforehand (consent, 422 consent_required without it)
        consent (ElectronicConsentInput | Unset):
        fallback (ElectronicRequestFallback | Unset): paper: if the recipient refuses, does not claim within 15 days, or
            the email bounces, the same letter is posted in the mode asked (its paper price is held at creation, refunded
            when not used); none (the default): the mailing ends there Default: ElectronicRequestFallback.NONE.
    """

    recipient_kind: ElectronicRequestRecipientKind
    consent: ElectronicConsentInput | Unset = UNSET
    fallback: ElectronicRequestFallback | Unset = ElectronicRequestFallback.NONE

    def to_dict(self) -> dict[str, Any]:
        recipient_kind = self.recipient_kind.value

        consent: dict[str, Any] | Unset = UNSET
        if not isinstance(self.consent, Unset):
            consent = self.consent.to_dict()

        fallback: str | Unset = UNSET
        if not isinstance(self.fallback, Unset):
            fallback = self.fallback.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "recipientKind": recipient_kind,
            }
        )
        if consent is not UNSET:
            field_dict["consent"] = consent
        if fallback is not UNSET:
            field_dict["fallback"] = fallback

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.electronic_consent_input import ElectronicConsentInput

        d = dict(src_dict)
        recipient_kind = ElectronicRequestRecipientKind(d.pop("recipientKind"))

        _consent = d.pop("consent", UNSET)
        consent: ElectronicConsentInput | Unset
        if isinstance(_consent, Unset):
            consent = UNSET
        else:
            consent = ElectronicConsentInput.from_dict(_consent)

        _fallback = d.pop("fallback", UNSET)
        fallback: ElectronicRequestFallback | Unset
        if isinstance(_fallback, Unset):
            fallback = UNSET
        else:
            fallback = ElectronicRequestFallback(_fallback)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "recipient_kind": "recipientKind",
                "consent": "consent",
                "fallback": "fallback",
            },
        )
        electronic_request = cls(
            recipient_kind=recipient_kind,
            consent=consent,
            fallback=fallback,
        )

        return electronic_request
