from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.partner_breaker import PartnerBreaker


T = TypeVar("T", bound="HealthPartners")


@_attrs_define
class HealthPartners:
    """This process's circuit breaker of each partner called on the request path: open while the partner keeps failing (its
    calls are answered at once, as when it fails: a mailing goes on with address_check_unavailable, a lookup answers
    502), half_open while one call probes it. Partners are not our components: an open breaker leaves status ok.

        Attributes:
            geocoder (PartnerBreaker):
            company_directory (PartnerBreaker):
            routing (PartnerBreaker):
            fuel (PartnerBreaker):
    """

    geocoder: PartnerBreaker
    company_directory: PartnerBreaker
    routing: PartnerBreaker
    fuel: PartnerBreaker

    def to_dict(self) -> dict[str, Any]:
        geocoder = self.geocoder.to_dict()

        company_directory = self.company_directory.to_dict()

        routing = self.routing.to_dict()

        fuel = self.fuel.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "geocoder": geocoder,
                "companyDirectory": company_directory,
                "routing": routing,
                "fuel": fuel,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.partner_breaker import PartnerBreaker

        d = dict(src_dict)
        geocoder = PartnerBreaker.from_dict(d.pop("geocoder"))

        company_directory = PartnerBreaker.from_dict(d.pop("companyDirectory"))

        routing = PartnerBreaker.from_dict(d.pop("routing"))

        fuel = PartnerBreaker.from_dict(d.pop("fuel"))

        health_partners = cls(
            geocoder=geocoder,
            company_directory=company_directory,
            routing=routing,
            fuel=fuel,
        )

        return health_partners
