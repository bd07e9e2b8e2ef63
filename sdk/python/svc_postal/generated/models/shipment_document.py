from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.shipment_document_address_placement import (
    ShipmentDocumentAddressPlacement,
)
from ..models.shipment_document_kind import ShipmentDocumentKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.shipment_document_letter import ShipmentDocumentLetter


T = TypeVar("T", bound="ShipmentDocument")


@_attrs_define
class ShipmentDocument:
    """The letter content; absent from webhook payloads

    Attributes:
        kind (ShipmentDocumentKind | str):
        title (str):
        text (str): The letter as text; empty for a PDF letter (its text is not extracted)
        letter (ShipmentDocumentLetter | Unset):
        sha256 (str | Unset): PDF letters: SHA-256 of the PDF as sent, which is what is printed (after the address
            sheet) and posted
        pages (int | Unset): PDF letters: pages of the PDF as sent
        sheets (int | Unset): PDF letters: sheets in the envelope (the address sheet included)
        address_placement (ShipmentDocumentAddressPlacement | str | Unset): PDF letters: where the address is printed
    """

    kind: ShipmentDocumentKind | str
    title: str
    text: str
    letter: ShipmentDocumentLetter | Unset = UNSET
    sha256: str | Unset = UNSET
    pages: int | Unset = UNSET
    sheets: int | Unset = UNSET
    address_placement: ShipmentDocumentAddressPlacement | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str
        if isinstance(self.kind, ShipmentDocumentKind):
            kind = self.kind.value
        else:
            kind = self.kind

        title = self.title

        text = self.text

        letter: dict[str, Any] | Unset = UNSET
        if not isinstance(self.letter, Unset):
            letter = self.letter.to_dict()

        sha256 = self.sha256

        pages = self.pages

        sheets = self.sheets

        address_placement: str | Unset
        if isinstance(self.address_placement, Unset):
            address_placement = UNSET
        elif isinstance(self.address_placement, ShipmentDocumentAddressPlacement):
            address_placement = self.address_placement.value
        else:
            address_placement = self.address_placement

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "title": title,
                "text": text,
            }
        )
        if letter is not UNSET:
            field_dict["letter"] = letter
        if sha256 is not UNSET:
            field_dict["sha256"] = sha256
        if pages is not UNSET:
            field_dict["pages"] = pages
        if sheets is not UNSET:
            field_dict["sheets"] = sheets
        if address_placement is not UNSET:
            field_dict["addressPlacement"] = address_placement

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.shipment_document_letter import ShipmentDocumentLetter

        d = dict(src_dict)

        def _parse_kind(data: object) -> ShipmentDocumentKind | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                kind_type_0 = ShipmentDocumentKind(data)

                return kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ShipmentDocumentKind | str, data)

        kind = _parse_kind(d.pop("kind"))

        title = d.pop("title")

        text = d.pop("text")

        _letter = d.pop("letter", UNSET)
        letter: ShipmentDocumentLetter | Unset
        if isinstance(_letter, Unset):
            letter = UNSET
        else:
            letter = ShipmentDocumentLetter.from_dict(_letter)

        sha256 = d.pop("sha256", UNSET)

        pages = d.pop("pages", UNSET)

        sheets = d.pop("sheets", UNSET)

        def _parse_address_placement(
            data: object,
        ) -> ShipmentDocumentAddressPlacement | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                address_placement_type_0 = ShipmentDocumentAddressPlacement(data)

                return address_placement_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ShipmentDocumentAddressPlacement | str | Unset, data)

        address_placement = _parse_address_placement(d.pop("addressPlacement", UNSET))

        shipment_document = cls(
            kind=kind,
            title=title,
            text=text,
            letter=letter,
            sha256=sha256,
            pages=pages,
            sheets=sheets,
            address_placement=address_placement,
        )

        return shipment_document
