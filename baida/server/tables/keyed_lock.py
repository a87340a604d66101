"""One at a time per key (an account, say), in one event loop; a key's lock lives only while
someone holds it or waits for it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable


class KeyedLocks:
    """``async with locks.hold(key):`` runs one holder of each key at a time."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, list[int]]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[key]

    def __len__(self) -> int:
        """How many keys are held or waited for."""
        return len(self._locks)
