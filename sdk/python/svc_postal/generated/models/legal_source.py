from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.legal_source_status import LegalSourceStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="LegalSource")


@_attrs_define
class LegalSource:
    """
    Attributes:
        text (str): The text: a code, a law, a regulation, a judgment
        article (str): The article(s) relied on, or "—" for a text as a whole
        url (str): Légifrance, service-public.fr, or EUR-Lex for EU texts
        status (LegalSourceStatus | Unset): "unverified": the text has not been read on the official site (then no
            checkedOn)
        checked_on (str | Unset): Day (YYYY-MM-DD) the text was last read on the official site; absent when status is
            "unverified"
        note (str | Unset): What remains to check, or why the source is only partly verified
    """

    text: str
    article: str
    url: str
    status: LegalSourceStatus | Unset = UNSET
    checked_on: str | Unset = UNSET
    note: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        article = self.article

        url = self.url

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        checked_on = self.checked_on

        note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "text": text,
                "article": article,
                "url": url,
            }
        )
        if status is not UNSET:
            field_dict["status"] = status
        if checked_on is not UNSET:
            field_dict["checkedOn"] = checked_on
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        text = d.pop("text")

        article = d.pop("article")

        url = d.pop("url")

        _status = d.pop("status", UNSET)
        status: LegalSourceStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = LegalSourceStatus(_status)

        checked_on = d.pop("checkedOn", UNSET)

        note = d.pop("note", UNSET)

        legal_source = cls(
            text=text,
            article=article,
            url=url,
            status=status,
            checked_on=checked_on,
            note=note,
        )

        return legal_source
