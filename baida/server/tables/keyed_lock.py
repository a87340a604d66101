"""One at a time per key (an account, say): in one event loop (``KeyedLocks``), and across
the nodes of a hall (``HallLocks``: the node's own lock, then one in the shared directory).
A key's local lock lives only while someone holds it or waits for it."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable

from ..directory.in_process import DirectoryUnavailable, HallLock

# a hall-wide lock's life (renewed while held): one whose holder dies blocks its key no longer
HOLD_SECONDS = 15.0
POLL_SECONDS = 0.02  # how often a lock held at another node is tried again
MAX_NAME = 200  # characters of a key kept as they are in the lock's name (longer: a digest)


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


class HallLocks:
    """``async with locks.hold(key):`` runs one holder of each key in the whole hall: first
    in this node, then through ``shared(name, seconds)`` (a lock every node sees, tried
    every ``POLL_SECONDS``; None: a hall of one process). While the shared directory is
    out, the node's own lock is all there is. A holder renews it every third of its seconds
    while it holds it; one that dies lets it expire. Waiting longer than a lock's seconds is
    ``DirectoryUnavailable`` (the routes answer 503: try again)."""

    def __init__(self, kind: str,
                 shared: Callable[[str, float], HallLock | None] | None = None, *,
                 seconds: float = HOLD_SECONDS, poll: float = POLL_SECONDS,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.kind = kind
        self.shared = shared
        self.seconds = seconds
        self.poll = poll
        self.sleep = sleep
        self.now = now
        self.local = KeyedLocks()
        self._let_go: dict[str, float] = {}  # name -> when this node last let it go

    @contextlib.asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        async with self.local.hold(key):
            name = self._name(key)
            lock = None if self.shared is None else self.shared(name, self.seconds)
            taken = await self._take(name, lock) if lock is not None else None
            renewing = None
            if taken and lock is not None:  # a slow holder (the store stalled) keeps it
                renewing = asyncio.ensure_future(self._renew(lock))
            try:
                yield
            finally:
                if renewing is not None and lock is not None:
                    renewing.cancel()
                    await self._release(lock)
                    if len(self._let_go) > 10_000:
                        self._let_go.clear()
                    self._let_go[name] = self.now()

    async def _renew(self, lock: HallLock) -> None:
        while True:
            await asyncio.sleep(self.seconds / 3)
            lock.renew()

    @staticmethod
    async def _release(lock: HallLock) -> None:
        """``lock.release()`` (it waits for this node's queued writes) off the event loop; at
        once, on the loop, if the holder is cancelled while it waits for a thread."""
        try:
            await asyncio.to_thread(lock.release)
        except asyncio.CancelledError:
            lock.release()
            raise

    async def _take(self, name: str, lock: HallLock) -> bool | None:
        """True once taken; None if the directory is out. A node that has just let the
        lock go waits one poll first, so that a node polling for it gets its turn."""
        since = self.now() - self._let_go.pop(name, float("-inf"))
        if since < self.poll:
            await self.sleep(self.poll - since)
        deadline = self.now() + self.seconds + 1.0
        while True:
            taken = lock.acquire()  # one command, at once (or None: the directory is out)
            if taken is None or taken:
                return taken
            if self.now() >= deadline:
                raise DirectoryUnavailable("another node held this request's lock too long: "
                                           "try again")
            await self.sleep(self.poll)

    def _name(self, key: Hashable) -> str:
        parts = key if isinstance(key, tuple) else (key,)
        name = ":".join(str(p) for p in parts)
        if len(name) > MAX_NAME:  # a name sent as 60,000 characters is not kept as one
            name = "#" + hashlib.sha256(name.encode()).hexdigest()
        return f"{self.kind}:{name}"

    def __len__(self) -> int:
        """How many keys are held or waited for at this node."""
        return len(self.local)
