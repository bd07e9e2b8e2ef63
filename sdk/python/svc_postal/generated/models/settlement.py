from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.settlement_currency import SettlementCurrency
from ..models.settlement_method import SettlementMethod

if TYPE_CHECKING:
    from ..models.settlement_balances_item import SettlementBalancesItem
    from ..models.settlement_transfers_item import SettlementTransfersItem


T = TypeVar("T", bound="Settlement")


@_attrs_define
class Settlement:
    """
    Attributes:
        currency (SettlementCurrency):
        total_cents (int):
        balances (list[SettlementBalancesItem]):
        transfers (list[SettlementTransfersItem]):
        transfer_count (int):
        method (SettlementMethod | str): exact: proven minimum number of transfers (up to 22 non-zero balances)
    """

    currency: SettlementCurrency
    total_cents: int
    balances: list[SettlementBalancesItem]
    transfers: list[SettlementTransfersItem]
    transfer_count: int
    method: SettlementMethod | str

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency.value

        total_cents = self.total_cents

        balances = []
        for balances_item_data in self.balances:
            balances_item = balances_item_data.to_dict()
            balances.append(balances_item)

        transfers = []
        for transfers_item_data in self.transfers:
            transfers_item = transfers_item_data.to_dict()
            transfers.append(transfers_item)

        transfer_count = self.transfer_count

        method: str
        if isinstance(self.method, SettlementMethod):
            method = self.method.value
        else:
            method = self.method

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "currency": currency,
                "totalCents": total_cents,
                "balances": balances,
                "transfers": transfers,
                "transferCount": transfer_count,
                "method": method,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.settlement_balances_item import SettlementBalancesItem
        from ..models.settlement_transfers_item import SettlementTransfersItem

        d = dict(src_dict)
        currency = SettlementCurrency(d.pop("currency"))

        total_cents = d.pop("totalCents")

        balances = []
        _balances = d.pop("balances")
        for balances_item_data in _balances:
            balances_item = SettlementBalancesItem.from_dict(balances_item_data)

            balances.append(balances_item)

        transfers = []
        _transfers = d.pop("transfers")
        for transfers_item_data in _transfers:
            transfers_item = SettlementTransfersItem.from_dict(transfers_item_data)

            transfers.append(transfers_item)

        transfer_count = d.pop("transferCount")

        def _parse_method(data: object) -> SettlementMethod | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                method_type_0 = SettlementMethod(data)

                return method_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(SettlementMethod | str, data)

        method = _parse_method(d.pop("method"))

        settlement = cls(
            currency=currency,
            total_cents=total_cents,
            balances=balances,
            transfers=transfers,
            transfer_count=transfer_count,
            method=method,
        )

        return settlement
