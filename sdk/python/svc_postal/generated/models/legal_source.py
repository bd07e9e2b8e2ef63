from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.legal_source_status import LegalSourceStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="LegalSource")


@_attrs_define
class LegalSource:
    """
    Attributes:
        text (str): The text: a code, a law, a regulation, a judgment
        article (str): The article(s) relied on, numbered as Légifrance numbers them (e.g. "R*311-12"), or "—" for a
            text as a whole
        url (str): Légifrance, service-public.fr, or EUR-Lex for EU texts
        status (LegalSourceStatus | str | Unset): "unverified": the text has not been read on the official site (then no
            checkedOn); "read_on_copy": it was read only on an unofficial copy, on the day checkedOn (not verified); absent:
            read on the official site or in its official data
        checked_on (str | Unset): Day (YYYY-MM-DD) the text was last read: on the official site or in its official data,
            or on a copy when status is "read_on_copy"; absent when status is "unverified"
        legiarti (str | Unset): Légifrance's id of the version of the article relied on (LEGIARTI and 12 digits), as in
            the article's address on Légifrance (…/article_lc/LEGIARTI…)
        quote (str | Unset): The phrase of that article the letter or tool relies on, verbatim (short; spacing aside)
        note (str | Unset): What remains to check, or why the source is only partly verified
    """

    text: str
    article: str
    url: str
    status: LegalSourceStatus | str | Unset = UNSET
    checked_on: str | Unset = UNSET
    legiarti: str | Unset = UNSET
    quote: str | Unset = UNSET
    note: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        article = self.article

        url = self.url

        status: str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, LegalSourceStatus):
            status = self.status.value
        else:
            status = self.status

        checked_on = self.checked_on

        legiarti = self.legiarti

        quote = self.quote

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
        if legiarti is not UNSET:
            field_dict["legiarti"] = legiarti
        if quote is not UNSET:
            field_dict["quote"] = quote
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        text = d.pop("text")

        article = d.pop("article")

        url = d.pop("url")

        def _parse_status(data: object) -> LegalSourceStatus | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = LegalSourceStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LegalSourceStatus | str | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        checked_on = d.pop("checkedOn", UNSET)

        legiarti = d.pop("legiarti", UNSET)

        quote = d.pop("quote", UNSET)

        note = d.pop("note", UNSET)

        legal_source = cls(
            text=text,
            article=article,
            url=url,
            status=status,
            checked_on=checked_on,
            legiarti=legiarti,
            quote=quote,
            note=note,
        )

        return legal_source
