from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.mailing_electronic_fallback import MailingElectronicFallback
from ..models.mailing_electronic_recipient_kind import MailingElectronicRecipientKind

if TYPE_CHECKING:
    from ..models.electronic_consent import ElectronicConsent


T = TypeVar("T", bound="MailingElectronic")


@_attrs_define
class MailingElectronic:
    """
    Attributes:
        recipient_kind (MailingElectronicRecipientKind | str):
        consent (ElectronicConsent | None):
        fallback (MailingElectronicFallback | str):
        fallback_used (bool): true once the letter goes on by post after refused, unclaimed or bounced (its lastStep is
            then 7, or 8 in mode ar)
        provider_reference (None | str): The provider's number of the electronic letter, once it took it
    """

    recipient_kind: MailingElectronicRecipientKind | str
    consent: ElectronicConsent | None
    fallback: MailingElectronicFallback | str
    fallback_used: bool
    provider_reference: None | str

    def to_dict(self) -> dict[str, Any]:
        from ..models.electronic_consent import ElectronicConsent

        recipient_kind: str
        if isinstance(self.recipient_kind, MailingElectronicRecipientKind):
            recipient_kind = self.recipient_kind.value
        else:
            recipient_kind = self.recipient_kind

        consent: dict[str, Any] | None
        if isinstance(self.consent, ElectronicConsent):
            consent = self.consent.to_dict()
        else:
            consent = self.consent

        fallback: str
        if isinstance(self.fallback, MailingElectronicFallback):
            fallback = self.fallback.value
        else:
            fallback = self.fallback

        fallback_used = self.fallback_used

        provider_reference: None | str
        provider_reference = self.provider_reference

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "recipientKind": recipient_kind,
                "consent": consent,
                "fallback": fallback,
                "fallbackUsed": fallback_used,
                "providerReference": provider_reference,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.electronic_consent import ElectronicConsent

        d = dict(src_dict)

        def _parse_recipient_kind(data: object) -> MailingElectronicRecipientKind | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                recipient_kind_type_0 = MailingElectronicRecipientKind(data)

                return recipient_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MailingElectronicRecipientKind | str, data)

        recipient_kind = _parse_recipient_kind(d.pop("recipientKind"))

        def _parse_consent(data: object) -> ElectronicConsent | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                consent_type_0 = ElectronicConsent.from_dict(data)

                return consent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ElectronicConsent | None, data)

        consent = _parse_consent(d.pop("consent"))

        def _parse_fallback(data: object) -> MailingElectronicFallback | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                fallback_type_0 = MailingElectronicFallback(data)

                return fallback_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MailingElectronicFallback | str, data)

        fallback = _parse_fallback(d.pop("fallback"))

        fallback_used = d.pop("fallbackUsed")

        def _parse_provider_reference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider_reference = _parse_provider_reference(d.pop("providerReference"))

        mailing_electronic = cls(
            recipient_kind=recipient_kind,
            consent=consent,
            fallback=fallback,
            fallback_used=fallback_used,
            provider_reference=provider_reference,
        )

        return mailing_electronic
