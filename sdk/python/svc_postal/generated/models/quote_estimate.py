from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.quote_estimate_currency import QuoteEstimateCurrency

if TYPE_CHECKING:
    from ..models.quote_estimate_defaults_applied_item import (
        QuoteEstimateDefaultsAppliedItem,
    )
    from ..models.quote_estimate_inputs import QuoteEstimateInputs
    from ..models.quote_line_item import QuoteLineItem
    from ..models.quote_route import QuoteRoute


T = TypeVar("T", bound="QuoteEstimate")


@_attrs_define
class QuoteEstimate:
    """
    Attributes:
        slug (str):
        title (str):
        inputs (QuoteEstimateInputs): The inputs used, defaults included
        defaults_applied (list[QuoteEstimateDefaultsAppliedItem]):
        route (None | QuoteRoute): The road route, for quotes that need one (geocoded labels of from and to); null
            otherwise
        currency (QuoteEstimateCurrency):
        line_items (list[QuoteLineItem]):
        total_cents (int): Sum of the line items, excluding VAT
        vat_rate (float):
        vat_cents (int):
        total_incl_vat_cents (int):
        valid_until (str): Date (Europe/Paris) until which the estimate holds: 30 days
        notes (list[str]): What the estimate includes or not, and what binds
        source (list[str]):
    """

    slug: str
    title: str
    inputs: QuoteEstimateInputs
    defaults_applied: list[QuoteEstimateDefaultsAppliedItem]
    route: None | QuoteRoute
    currency: QuoteEstimateCurrency
    line_items: list[QuoteLineItem]
    total_cents: int
    vat_rate: float
    vat_cents: int
    total_incl_vat_cents: int
    valid_until: str
    notes: list[str]
    source: list[str]

    def to_dict(self) -> dict[str, Any]:
        from ..models.quote_route import QuoteRoute

        slug = self.slug

        title = self.title

        inputs = self.inputs.to_dict()

        defaults_applied = []
        for defaults_applied_item_data in self.defaults_applied:
            defaults_applied_item = defaults_applied_item_data.to_dict()
            defaults_applied.append(defaults_applied_item)

        route: dict[str, Any] | None
        if isinstance(self.route, QuoteRoute):
            route = self.route.to_dict()
        else:
            route = self.route

        currency = self.currency.value

        line_items = []
        for line_items_item_data in self.line_items:
            line_items_item = line_items_item_data.to_dict()
            line_items.append(line_items_item)

        total_cents = self.total_cents

        vat_rate = self.vat_rate

        vat_cents = self.vat_cents

        total_incl_vat_cents = self.total_incl_vat_cents

        valid_until = self.valid_until

        notes = self.notes

        source = self.source

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
                "title": title,
                "inputs": inputs,
                "defaultsApplied": defaults_applied,
                "route": route,
                "currency": currency,
                "lineItems": line_items,
                "totalCents": total_cents,
                "vatRate": vat_rate,
                "vatCents": vat_cents,
                "totalInclVatCents": total_incl_vat_cents,
                "validUntil": valid_until,
                "notes": notes,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.quote_estimate_defaults_applied_item import (
            QuoteEstimateDefaultsAppliedItem,
        )
        from ..models.quote_estimate_inputs import QuoteEstimateInputs
        from ..models.quote_line_item import QuoteLineItem
        from ..models.quote_route import QuoteRoute

        d = dict(src_dict)
        slug = d.pop("slug")

        title = d.pop("title")

        inputs = QuoteEstimateInputs.from_dict(d.pop("inputs"))

        defaults_applied = []
        _defaults_applied = d.pop("defaultsApplied")
        for defaults_applied_item_data in _defaults_applied:
            defaults_applied_item = QuoteEstimateDefaultsAppliedItem.from_dict(
                defaults_applied_item_data
            )

            defaults_applied.append(defaults_applied_item)

        def _parse_route(data: object) -> None | QuoteRoute:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                route_type_0 = QuoteRoute.from_dict(data)

                return route_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuoteRoute, data)

        route = _parse_route(d.pop("route"))

        currency = QuoteEstimateCurrency(d.pop("currency"))

        line_items = []
        _line_items = d.pop("lineItems")
        for line_items_item_data in _line_items:
            line_items_item = QuoteLineItem.from_dict(line_items_item_data)

            line_items.append(line_items_item)

        total_cents = d.pop("totalCents")

        vat_rate = d.pop("vatRate")

        vat_cents = d.pop("vatCents")

        total_incl_vat_cents = d.pop("totalInclVatCents")

        valid_until = d.pop("validUntil")

        notes = cast(list[str], d.pop("notes"))

        source = cast(list[str], d.pop("source"))

        quote_estimate = cls(
            slug=slug,
            title=title,
            inputs=inputs,
            defaults_applied=defaults_applied,
            route=route,
            currency=currency,
            line_items=line_items,
            total_cents=total_cents,
            vat_rate=vat_rate,
            vat_cents=vat_cents,
            total_incl_vat_cents=total_incl_vat_cents,
            valid_until=valid_until,
            notes=notes,
            source=source,
        )

        return quote_estimate
