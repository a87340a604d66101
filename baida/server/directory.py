"""The hall's shared directory: which node owns each table, who is online, table chat.

One small interface so that the hall can later run on several nodes (PostgreSQL for what must
last, Redis between the nodes) without a rewrite: ``InProcessDirectory`` is the default for
one process; a Redis implementation would keep the same methods.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol


class Directory(Protocol):
    def claim_table(self, table_id: int, node: str) -> bool:
        """Become the owner of ``table_id``; False if another node owns it."""
        ...

    def release_table(self, table_id: int, node: str) -> None: ...

    def owner(self, table_id: int) -> str | None: ...

    def online(self, user_id: int, delta: int) -> None:
        """A connection of ``user_id`` opened (+1) or closed (-1)."""
        ...

    def online_count(self) -> int: ...

    def publish(self, table_id: int, message: dict[str, Any]) -> None:
        """Deliver a table-wide message (chat) to the table's subscribers on every node."""
        ...

    def subscribe(self, table_id: int, deliver: Callable[[dict[str, Any]], None]) -> None: ...

    def unsubscribe(self, table_id: int) -> None: ...


class InProcessDirectory:
    """The directory of a hall that runs in one process."""

    def __init__(self) -> None:
        self._owners: dict[int, str] = {}
        self._online: Counter[int] = Counter()
        self._subscribers: dict[int, Callable[[dict[str, Any]], None]] = {}

    def claim_table(self, table_id: int, node: str) -> bool:
        owner = self._owners.setdefault(table_id, node)
        return owner == node

    def release_table(self, table_id: int, node: str) -> None:
        if self._owners.get(table_id) == node:
            del self._owners[table_id]

    def owner(self, table_id: int) -> str | None:
        return self._owners.get(table_id)

    def online(self, user_id: int, delta: int) -> None:
        self._online[user_id] += delta
        if self._online[user_id] <= 0:
            del self._online[user_id]

    def online_count(self) -> int:
        return len(self._online)

    def publish(self, table_id: int, message: dict[str, Any]) -> None:
        deliver = self._subscribers.get(table_id)
        if deliver is not None:
            deliver(message)

    def subscribe(self, table_id: int, deliver: Callable[[dict[str, Any]], None]) -> None:
        self._subscribers[table_id] = deliver

    def unsubscribe(self, table_id: int) -> None:
        self._subscribers.pop(table_id, None)
