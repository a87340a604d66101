"""What a table needs from storage, as awaitables: ``HallStore``. The hall's
``store.writer.StoreWriter`` is one; a test may give a table another (one that fails, say)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class HallStore(Protocol):
    async def append_actions(self, hand_id: int, rows: list[tuple[int, dict[str, Any]]],
                             fence: Any = None) -> None:
        """Store actions (index in the hand, action JSON); durable when this returns. With a
        ``fence`` (the table's lease): ``LeaseLost`` if another node owns the table now."""
        ...

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(store, *args)`` in the writer thread, after every earlier write of this
        kind (actions waiting to be stored may go first: they never depend on it)."""
        ...

    async def call(self, op: str, *args: Any, **kwargs: Any) -> Any:
        """``store.<op>(*args, **kwargs)``, one of the table writes that may run in the
        database process (``db_process.CALLS``: a hand's deal and end)."""
        ...

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(store, *args)`` in a reader thread."""
        ...
