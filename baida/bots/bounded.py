"""A bounded cache for the bots' long-lived tables."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedTable(Generic[K, V]):
    """A plain dict, emptied when full. Keyed and filled with bytes and numbers only, its
    entries drop out of the garbage collector's sight; an ``lru_cache``'s linked nodes stay
    tracked, and every full collection in the middle of a decision walks them all."""

    __slots__ = ("limit", "table")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.table: dict[K, V] = {}

    def put(self, key: K, value: V) -> V:
        """Store and return ``value`` (emptying the table first when it is full)."""
        if len(self.table) >= self.limit:
            self.table.clear()
        self.table[key] = value
        return value
