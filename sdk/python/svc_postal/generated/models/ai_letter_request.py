from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..errors import refuse_unknown_keys
from ..models.ai_letter_request_tone import AiLetterRequestTone
from ..types import UNSET, Unset

T = TypeVar("T", bound="AiLetterRequest")


@_attrs_define
class AiLetterRequest:
    """
    Attributes:
        purpose (str): What the letter must obtain or say
        recipient (str | Unset): Who the letter is for, e.g. "le service client de Free"
        tone (AiLetterRequestTone | Unset):  Default: AiLetterRequestTone.FORMEL.
        facts (list[str] | Unset): Facts to state, in order
        sender_name (str | Unset):
    """

    purpose: str
    recipient: str | Unset = UNSET
    tone: AiLetterRequestTone | Unset = AiLetterRequestTone.FORMEL
    facts: list[str] | Unset = UNSET
    sender_name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        purpose = self.purpose

        recipient = self.recipient

        tone: str | Unset = UNSET
        if not isinstance(self.tone, Unset):
            tone = self.tone.value

        facts: list[str] | Unset = UNSET
        if not isinstance(self.facts, Unset):
            facts = self.facts

        sender_name = self.sender_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "purpose": purpose,
            }
        )
        if recipient is not UNSET:
            field_dict["recipient"] = recipient
        if tone is not UNSET:
            field_dict["tone"] = tone
        if facts is not UNSET:
            field_dict["facts"] = facts
        if sender_name is not UNSET:
            field_dict["senderName"] = sender_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        purpose = d.pop("purpose")

        recipient = d.pop("recipient", UNSET)

        _tone = d.pop("tone", UNSET)
        tone: AiLetterRequestTone | Unset
        if isinstance(_tone, Unset):
            tone = UNSET
        else:
            tone = AiLetterRequestTone(_tone)

        facts = cast(list[str], d.pop("facts", UNSET))

        sender_name = d.pop("senderName", UNSET)

        refuse_unknown_keys(
            cls.__name__,
            d,
            {
                "purpose": "purpose",
                "recipient": "recipient",
                "tone": "tone",
                "facts": "facts",
                "sender_name": "senderName",
            },
        )
        ai_letter_request = cls(
            purpose=purpose,
            recipient=recipient,
            tone=tone,
            facts=facts,
            sender_name=sender_name,
        )

        return ai_letter_request
