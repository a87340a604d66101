"""The hall's shared directory: which node owns each table, the lobby's list of public tables,
private tables' room codes and who was admitted by them, who is online, table chat.

One small interface so that the hall can later run on several nodes (PostgreSQL for what must
last, Redis between the nodes) without a rewrite: ``InProcessDirectory`` is the default for
one process; a Redis implementation would keep the same methods. Nothing here must outlive the
process: room codes are also stored with their tables (the hall registers them again at
start), and an admission is only the right to open a private table's socket.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol


class DirectoryUnavailable(RuntimeError):
    """The shared directory (Redis) does not answer, and what was asked is not known here."""


class HallLock(Protocol):
    """A lock that every node of the hall sees (one name, one holder), held for at most the
    seconds it was made with: a holder that dies lets it go by itself."""

    def acquire(self) -> bool | None:
        """Take it if nobody holds it: True, False if held, None if the directory is out."""
        ...

    def release(self) -> None:
        """Let it go, once what was written while it was held is visible to every node."""
        ...

    def renew(self) -> None:
        """Hold it for its seconds again from now (a holder that is slow, not dead)."""
        ...


class Directory(Protocol):
    def claim_table(self, table_id: int, node: str) -> bool:
        """Become the owner of ``table_id``; False if another node owns it."""
        ...

    def release_table(self, table_id: int, node: str) -> None:
        """Give the table up: it leaves the lobby, its room code is free, admissions end."""
        ...

    def owner(self, table_id: int) -> str | None: ...

    # ---------------------------------------------------------------- the lobby

    def list_table(self, table_id: int, summary: dict[str, Any]) -> None:
        """Show a public table in the lobby as ``summary`` (replacing what was shown)."""
        ...

    def unlist_table(self, table_id: int) -> None: ...

    def lobby(self) -> list[dict[str, Any]]:
        """Every listed table's summary, by ruleset and number."""
        ...

    def describe_table(self, table_id: int, summary: dict[str, Any]) -> None:
        """Keep ``summary`` as what any node may tell of the table (private ones included:
        a room code's answer, the admin page); ``release_table`` forgets it."""
        ...

    def description(self, table_id: int) -> dict[str, Any] | None: ...

    def descriptions(self) -> list[dict[str, Any]]:
        """Every described table's summary, by id (the admin page)."""
        ...

    def next_number(self, ruleset: str, floor: int) -> int:
        """A number for a new table of ``ruleset`` above ``floor`` (the highest this node
        uses); a directory shared by nodes also keeps it above every number it gave out."""
        ...

    # ---------------------------------------------------------------- private tables

    def register_room(self, code: str, table_id: int) -> bool:
        """Give ``table_id`` the room code ``code``; False if the code is taken."""
        ...

    def room(self, code: str) -> int | None:
        """The table of a room code (codes are upper case), if any."""
        ...

    def admit(self, table_id: int, user_id: int) -> None:
        """``user_id`` gave the table's room code: they may open its socket."""
        ...

    def admitted(self, table_id: int, user_id: int) -> bool: ...

    # ---------------------------------------------------------------- presence and chat

    def online(self, user_id: int, delta: int) -> None:
        """A connection of ``user_id`` opened (+1) or closed (-1)."""
        ...

    def online_count(self) -> int: ...

    def publish(self, table_id: int, message: dict[str, Any]) -> None:
        """Deliver a table-wide message (chat) to the table's subscribers on every node."""
        ...

    def subscribe(self, table_id: int, deliver: Callable[[dict[str, Any]], None]) -> None: ...

    def unsubscribe(self, table_id: int) -> None: ...

    # ---------------------------------------------------------------- between nodes

    def on_message(self, node: str, handler: Callable[[dict[str, Any]], None]) -> None:
        """Call ``handler`` (on this node's event loop) with every message sent to ``node``
        (the operator's requests for the tables it owns)."""
        ...

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Deliver ``message`` to ``node``'s handler; nothing happens if it has none."""
        ...

    def hall_lock(self, name: str, seconds: float) -> HallLock | None:
        """A lock ``name`` shared by every node; None in a hall of one process, whose
        node's own locks are the hall's."""
        ...


class InProcessDirectory:
    """The directory of a hall that runs in one process."""

    def __init__(self) -> None:
        self._owners: dict[int, str] = {}
        self._listed: dict[int, dict[str, Any]] = {}
        self._rooms: dict[str, int] = {}
        self._codes: dict[int, str] = {}  # table -> its room code
        self._admitted: dict[int, set[int]] = {}
        self._online: Counter[int] = Counter()
        self._subscribers: dict[int, Callable[[dict[str, Any]], None]] = {}
        self._described: dict[int, dict[str, Any]] = {}
        self._handlers: dict[str, Callable[[dict[str, Any]], None]] = {}

    def claim_table(self, table_id: int, node: str) -> bool:
        owner = self._owners.setdefault(table_id, node)
        return owner == node

    def release_table(self, table_id: int, node: str) -> None:
        if self._owners.get(table_id) != node:
            return
        del self._owners[table_id]
        self._listed.pop(table_id, None)
        self._described.pop(table_id, None)
        self._admitted.pop(table_id, None)
        code = self._codes.pop(table_id, None)
        if code is not None:
            self._rooms.pop(code, None)

    def owner(self, table_id: int) -> str | None:
        return self._owners.get(table_id)

    def list_table(self, table_id: int, summary: dict[str, Any]) -> None:
        self._listed[table_id] = summary

    def unlist_table(self, table_id: int) -> None:
        self._listed.pop(table_id, None)

    def lobby(self) -> list[dict[str, Any]]:
        return sorted(self._listed.values(), key=lambda t: (t["ruleset"], t["number"], t["id"]))

    def describe_table(self, table_id: int, summary: dict[str, Any]) -> None:
        self._described[table_id] = summary

    def description(self, table_id: int) -> dict[str, Any] | None:
        return self._described.get(table_id)

    def descriptions(self) -> list[dict[str, Any]]:
        return [self._described[t] for t in sorted(self._described)]

    def next_number(self, ruleset: str, floor: int) -> int:
        return floor + 1  # one node: the hall's own tables are all there are

    def register_room(self, code: str, table_id: int) -> bool:
        code = code.upper()
        if self._rooms.get(code, table_id) != table_id:
            return False
        self._rooms[code] = table_id
        self._codes[table_id] = code
        return True

    def room(self, code: str) -> int | None:
        return self._rooms.get(code.strip().upper())

    def admit(self, table_id: int, user_id: int) -> None:
        self._admitted.setdefault(table_id, set()).add(user_id)

    def admitted(self, table_id: int, user_id: int) -> bool:
        return user_id in self._admitted.get(table_id, ())

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

    def on_message(self, node: str, handler: Callable[[dict[str, Any]], None]) -> None:
        self._handlers[node] = handler

    def send(self, node: str, message: dict[str, Any]) -> None:
        handler = self._handlers.get(node)
        if handler is not None:
            handler(message)

    def hall_lock(self, name: str, seconds: float) -> HallLock | None:
        return None
