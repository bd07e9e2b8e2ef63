from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.mailing_postage_speed import MailingPostageSpeed

T = TypeVar("T", bound="MailingPostage")


@_attrs_define
class MailingPostage:
    """
    Attributes:
        speed (MailingPostageSpeed | str): options.postage as asked (fast when absent)
        product (str): La Poste's product for that speed
        delivery_days (int): The delivery time La Poste announces, in working days after posting (indicative)
    """

    speed: MailingPostageSpeed | str
    product: str
    delivery_days: int

    def to_dict(self) -> dict[str, Any]:
        speed: str
        if isinstance(self.speed, MailingPostageSpeed):
            speed = self.speed.value
        else:
            speed = self.speed

        product = self.product

        delivery_days = self.delivery_days

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "speed": speed,
                "product": product,
                "deliveryDays": delivery_days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_speed(data: object) -> MailingPostageSpeed | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                speed_type_0 = MailingPostageSpeed(data)

                return speed_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MailingPostageSpeed | str, data)

        speed = _parse_speed(d.pop("speed"))

        product = d.pop("product")

        delivery_days = d.pop("deliveryDays")

        mailing_postage = cls(
            speed=speed,
            product=product,
            delivery_days=delivery_days,
        )

        return mailing_postage
