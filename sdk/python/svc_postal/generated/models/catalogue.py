from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.catalogue_letter import CatalogueLetter
    from ..models.catalogue_prices import CataloguePrices
    from ..models.catalogue_tool import CatalogueTool
    from ..models.category import Category


T = TypeVar("T", bound="Catalogue")


@_attrs_define
class Catalogue:
    """
    Attributes:
        version (str):
        categories (list[Category]):
        letters (list[CatalogueLetter]):
        calculators (list[CatalogueTool]):
        ai_tools (list[CatalogueTool]):
        quotes (list[CatalogueTool]):
        prices (CataloguePrices):
    """

    version: str
    categories: list[Category]
    letters: list[CatalogueLetter]
    calculators: list[CatalogueTool]
    ai_tools: list[CatalogueTool]
    quotes: list[CatalogueTool]
    prices: CataloguePrices

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        categories = []
        for categories_item_data in self.categories:
            categories_item = categories_item_data.to_dict()
            categories.append(categories_item)

        letters = []
        for letters_item_data in self.letters:
            letters_item = letters_item_data.to_dict()
            letters.append(letters_item)

        calculators = []
        for calculators_item_data in self.calculators:
            calculators_item = calculators_item_data.to_dict()
            calculators.append(calculators_item)

        ai_tools = []
        for ai_tools_item_data in self.ai_tools:
            ai_tools_item = ai_tools_item_data.to_dict()
            ai_tools.append(ai_tools_item)

        quotes = []
        for quotes_item_data in self.quotes:
            quotes_item = quotes_item_data.to_dict()
            quotes.append(quotes_item)

        prices = self.prices.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "version": version,
                "categories": categories,
                "letters": letters,
                "calculators": calculators,
                "aiTools": ai_tools,
                "quotes": quotes,
                "prices": prices,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalogue_letter import CatalogueLetter
        from ..models.catalogue_prices import CataloguePrices
        from ..models.catalogue_tool import CatalogueTool
        from ..models.category import Category

        d = dict(src_dict)
        version = d.pop("version")

        categories = []
        _categories = d.pop("categories")
        for categories_item_data in _categories:
            categories_item = Category.from_dict(categories_item_data)

            categories.append(categories_item)

        letters = []
        _letters = d.pop("letters")
        for letters_item_data in _letters:
            letters_item = CatalogueLetter.from_dict(letters_item_data)

            letters.append(letters_item)

        calculators = []
        _calculators = d.pop("calculators")
        for calculators_item_data in _calculators:
            calculators_item = CatalogueTool.from_dict(calculators_item_data)

            calculators.append(calculators_item)

        ai_tools = []
        _ai_tools = d.pop("aiTools")
        for ai_tools_item_data in _ai_tools:
            ai_tools_item = CatalogueTool.from_dict(ai_tools_item_data)

            ai_tools.append(ai_tools_item)

        quotes = []
        _quotes = d.pop("quotes")
        for quotes_item_data in _quotes:
            quotes_item = CatalogueTool.from_dict(quotes_item_data)

            quotes.append(quotes_item)

        prices = CataloguePrices.from_dict(d.pop("prices"))

        catalogue = cls(
            version=version,
            categories=categories,
            letters=letters,
            calculators=calculators,
            ai_tools=ai_tools,
            quotes=quotes,
            prices=prices,
        )

        return catalogue
