"""The hall's table writes in a process of their own: every table's actions, group-committed,
and each hand's deal and end.

These are the hall's frequent writes: one commit per turn of the event loop that produced
actions (hundreds a second in a busy hall), and a deal and an end per hand (tens a second,
several milliseconds of ORM work each). Done in a thread of the hall's process they fight
the event loop for the interpreter lock: each time the writer thread wants the lock back
(around every SQLite call) it may wait a whole switch interval, so under load a commit takes
tens of milliseconds and every table waits for it. Here they run in a child process
(``baida.server.store.db_process_worker``) over the same database: the event loop only packs a
request and writes it to a socket, and the answer comes back when it is durable.

All the tables that appended actions during one turn of the loop share one batch and wait on
one future. The worker commits every batch already waiting before it runs the next call, so
a burst of hand ends delays the next actions by one call, not by all. If the worker dies,
every waiting table gets the error, and the next request starts a new worker.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import socket
import struct
import subprocess
import sys
from typing import Any

log = logging.getLogger(__name__)

HEADER = struct.Struct("!I")  # every frame: its length, then a pickle
STOP = b""  # an empty frame: finish what came before, then exit
CALLS = frozenset({"hands.start", "hands.finish"})  # store methods the worker may run


class DatabaseProcessError(RuntimeError):
    """The worker could not do a request (the message says why)."""


def resolve(store: Any, op: str) -> Any:
    """The store method named by ``op`` (one of ``CALLS``)."""
    if op not in CALLS:
        raise ValueError(f"not a call the database process runs: {op!r}")
    part, name = op.split(".")
    return getattr(getattr(store, part), name)


def frame(payload: Any) -> bytes:
    data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


class _Batch:
    __slots__ = ("rows", "fences", "future")

    def __init__(self, future: asyncio.Future[Any]) -> None:
        self.rows: list[tuple[int, int, str]] = []
        self.fences: dict[int, Any] = {}  # hand id -> its table's lease (``leases.Fence``)
        self.future = future


class _Answers(asyncio.Protocol):
    """The parent's end of the socket: the worker's answers come back here."""

    def __init__(self, owner: DatabaseProcess) -> None:
        self._owner = owner
        self._buffer = bytearray()

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        start = 0
        while len(buffer) - start >= HEADER.size:
            (size,) = HEADER.unpack_from(buffer, start)
            end = start + HEADER.size + size
            if len(buffer) < end:
                break
            self._owner._answered(pickle.loads(buffer[start + HEADER.size : end]))
            start = end
        del buffer[:start]

    def connection_lost(self, exc: Exception | None) -> None:
        self._owner._lost()


class DatabaseProcess:
    """Appends (hand id, action index, action JSON text) rows and runs ``CALLS`` through a
    worker process over the hall's database."""

    def __init__(self, database: str, *, sqlite_synchronous: str = "FULL") -> None:
        self.database = database
        self.sqlite_synchronous = sqlite_synchronous
        self.batches = 0  # sent
        self.rows = 0
        self.calls = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._transport: asyncio.Transport | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._starting: asyncio.Future[None] | None = None
        self._batch: _Batch | None = None
        self._next_id = 0
        self._waiting: dict[int, asyncio.Future[Any]] = {}

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    async def start(self) -> None:
        """Start the worker (the database must exist and be migrated)."""
        loop = self._loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair()
        try:
            cmd = [sys.executable, "-m", "baida.server.store.db_process_worker",
                   "--fd", str(theirs.fileno()), "--database", self.database,
                   "--sqlite-synchronous", self.sqlite_synchronous]
            self._process = subprocess.Popen(cmd, pass_fds=[theirs.fileno()],
                                             env=dict(os.environ))
        finally:
            theirs.close()
        transport, _ = await loop.connect_accepted_socket(lambda: _Answers(self), ours)
        self._transport = transport  # type: ignore[assignment]

    async def append(self, hand_id: int, rows: list[tuple[int, str]],
                     fence: Any = None) -> None:
        """Store ``rows`` ((index, action JSON) of one hand); returns once they are durable.
        With a ``fence`` (``leases.Fence``): ``LeaseLost`` if its lease is stale (nothing of
        this hand was written)."""
        if self._transport is None:
            await self._restart()
        batch = self._batch
        if batch is None:
            loop = self._loop
            assert loop is not None
            batch = self._batch = _Batch(loop.create_future())
            loop.call_soon(self._flush)
        batch.rows.extend((hand_id, index, action) for index, action in rows)
        if fence is not None:
            batch.fences[hand_id] = fence
        stale = await batch.future
        if fence is not None and stale and fence.table_id in stale:
            from .errors import LeaseLost

            raise LeaseLost(f"table {fence.table_id} is no longer {fence.node}'s")

    async def call(self, op: str, *args: Any, **kwargs: Any) -> Any:
        """``store.<op>(*args, **kwargs)`` in the worker; its result, or its exception."""
        if op not in CALLS:
            raise ValueError(f"not a call the database process runs: {op!r}")
        if self._transport is None:
            await self._restart()
        self._flush()  # actions appended before this call are committed before it
        transport = self._transport
        assert transport is not None and self._loop is not None
        future = self._loop.create_future()
        ident = self._ident(future)
        transport.write(frame(("call", ident, op, args, kwargs)))
        self.calls += 1
        return await future

    def _ident(self, future: asyncio.Future[Any]) -> int:
        self._next_id += 1
        self._waiting[self._next_id] = future
        return self._next_id

    def _flush(self) -> None:
        batch, self._batch = self._batch, None
        if batch is None:
            return
        transport = self._transport
        if transport is None or transport.is_closing():
            batch.future.set_exception(DatabaseProcessError("the database process is not "
                                                            "running"))
            return
        ident = self._ident(batch.future)
        transport.write(frame(("append", ident, batch.rows, batch.fences)))
        self.batches += 1
        self.rows += len(batch.rows)

    def _answered(self, answer: tuple[Any, ...]) -> None:
        kind = answer[0]
        if kind == "acks":  # ("acks", ids, error, the stale tables' ids)
            _, ids, error, stale = answer
            for ident in ids:
                self._settle(ident, stale, None if error is None else
                             DatabaseProcessError(error))
        else:  # ("result", ident, ok, value)
            _, ident, ok, value = answer
            if ok:
                self._settle(ident, value, None)
            else:
                self._settle(ident, None, value if isinstance(value, BaseException) else
                             DatabaseProcessError(str(value)))

    def _settle(self, ident: int, value: Any, error: BaseException | None) -> None:
        future = self._waiting.pop(ident, None)
        if future is None or future.done():
            return
        if error is None:
            future.set_result(value)
        else:
            future.set_exception(error)

    def _lost(self) -> None:
        self._transport = None
        waiting, self._waiting = self._waiting, {}
        if waiting:
            log.error("the database process went away with %d requests unanswered",
                      len(waiting))
        for future in waiting.values():
            if not future.done():
                future.set_exception(DatabaseProcessError("the database process went away"))

    async def _restart(self) -> None:
        if self._starting is not None:
            await asyncio.shield(self._starting)
            return
        self._starting = asyncio.get_running_loop().create_future()
        try:
            self._reap()
            log.warning("starting the database process again")
            await self.start()
        finally:
            self._starting.set_result(None)
            self._starting = None

    def _reap(self) -> None:
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()
        if process is not None:
            process.wait(timeout=10)
        self._process = None

    async def close(self, timeout: float = 10.0) -> None:
        """Finish what was sent, then stop the worker."""
        self._flush()
        transport = self._transport
        if transport is not None and not transport.is_closing():
            transport.write(HEADER.pack(len(STOP)) + STOP)
        process = self._process
        if process is not None:
            try:
                await asyncio.get_running_loop().run_in_executor(None, process.wait, timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        if transport is not None:
            transport.close()
        self._process = None
