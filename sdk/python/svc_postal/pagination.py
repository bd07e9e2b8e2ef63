"""Iterators over the cursor lists (``GET /v1/mailings``, ``GET /v1/mailing-batches``, ``GET /v1/requests``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def paginate(list_page: Callable[..., Any], **arguments: Any) -> Iterator[Any]:
    """Every item of a cursor list, page after page, most recent first.

    ``list_page`` is a generated ``sync`` function, e.g. ``list_mailings.sync``; ``arguments`` are
    its own (``client=``, ``limit=``, ``status=``…). Each ``next_cursor`` is passed on as ``cursor``
    while ``has_more`` is true. Stop early with ``break``.
    """
    cursor = arguments.pop("cursor", None)
    while True:
        page = list_page(**arguments, **({"cursor": cursor} if cursor else {}))
        yield from page.data
        if not page.has_more or not isinstance(page.next_cursor, str):
            return
        cursor = page.next_cursor
