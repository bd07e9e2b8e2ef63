from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.proof_link_kind import ProofLinkKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProofLink")


@_attrs_define
class ProofLink:
    """
    Attributes:
        kind (ProofLinkKind | str):
        url (str): Signed download link of the PDF proof
        expires_at (datetime.datetime):
        sha256 (str | Unset): SHA-256 of the proof's PDF, as the download serves it; it stays once the mailing's
            personal data is erased (404 proof_erased gives it then), to check a copy you kept
    """

    kind: ProofLinkKind | str
    url: str
    expires_at: datetime.datetime
    sha256: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str
        if isinstance(self.kind, ProofLinkKind):
            kind = self.kind.value
        else:
            kind = self.kind

        url = self.url

        expires_at = self.expires_at.isoformat()

        sha256 = self.sha256

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "url": url,
                "expiresAt": expires_at,
            }
        )
        if sha256 is not UNSET:
            field_dict["sha256"] = sha256

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_kind(data: object) -> ProofLinkKind | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                kind_type_0 = ProofLinkKind(data)

                return kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ProofLinkKind | str, data)

        kind = _parse_kind(d.pop("kind"))

        url = d.pop("url")

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        sha256 = d.pop("sha256", UNSET)

        proof_link = cls(
            kind=kind,
            url=url,
            expires_at=expires_at,
            sha256=sha256,
        )

        return proof_link
