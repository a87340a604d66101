"""The hall's storage as awaitables: ``StoreWriter``, the ``HallStore`` of the tables
(``tables.hall_store``), over ``baida.server.store.Store`` (synchronous SQLAlchemy): one
writer thread applies the hall's writes in order, and commits the actions of many tables
together (group commit), so a table waits about one commit for an action to be durable and
the database sees few transactions. Reads for the lobby go through ``read`` (a thread pool).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from .db_process import resolve
from .errors import LeaseLost
from .leases import Fence

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_BATCH = 500  # actions in one group commit


def _settle(futures: list[tuple[asyncio.Future[None], Exception | None]]) -> None:
    for future, error in futures:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


class StoreWriter:
    """The hall's one writer thread over a synchronous store, with group commit."""

    def __init__(self, store: Any, readers: int = 4, process: Any = None) -> None:
        self.store = store
        self.process = process  # a ``DatabaseProcess``: actions and CALLS go to it instead
        self._jobs: queue.Queue[Any] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="baida-db-writer", daemon=True)
        self._readers = ThreadPoolExecutor(max_workers=readers, thread_name_prefix="baida-db-r")
        self.commits = 0
        self.rows = 0
        self._thread.start()

    # -------------------------------------------------------------- the table's side

    async def append_actions(self, hand_id: int, rows: list[tuple[int, Any]],
                             fence: Fence | None = None) -> None:
        """Store a hand's new actions ((index, action JSON text or dict) rows); returns when
        they are durable. With a ``fence`` (its table's lease), ``LeaseLost`` if the lease
        is no longer the fence's: nothing was written."""
        if self.process is not None:
            await self.process.append(hand_id, rows, fence)
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._jobs.put(("append", (hand_id, rows, fence), (loop, future)))
        await future

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        future: Future[Any] = Future()
        self._jobs.put(("call", (fn, args), future))
        return await asyncio.wrap_future(future)

    async def call(self, op: str, *args: Any, **kwargs: Any) -> Any:
        """``store.<op>(*args, **kwargs)`` for one of ``db_process.CALLS`` (a hand's deal and
        end): in the database process when there is one, else in the writer thread."""
        if self.process is not None:
            return await self.process.call(op, *args, **kwargs)
        return await self.write(lambda store: resolve(store, op)(*args, **kwargs))

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._readers, lambda: fn(self.store, *args))

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join(timeout=10)
        self._readers.shutdown(wait=True)

    # -------------------------------------------------------------- the writer thread

    def _run(self) -> None:
        """Actions first: everything waiting is taken off the queue, the actions of every table
        are committed together, then one other write runs, and so on. A table awaits each of
        its writes, so no table's own writes are reordered; a burst of hand ends (a few ms
        each) delays every table's next action by one of them, not by all of them."""
        appends: list[tuple[Any, Any]] = []
        calls: deque[Any] = deque()
        stopping = False
        while True:
            if not appends and not calls:
                if stopping:
                    return
                stopping |= self._take(self._jobs.get(), appends, calls)
            while True:  # everything else already waiting
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                stopping |= self._take(job, appends, calls)
            if appends:
                batch, appends = appends[:MAX_BATCH], appends[MAX_BATCH:]
                self._commit(batch)
            elif calls:
                fn, args, future = calls.popleft()
                self._finish(future, lambda fn=fn, args=args: fn(self.store, *args))

    @staticmethod
    def _take(job: Any, appends: list[tuple[Any, Any]], calls: deque[Any]) -> bool:
        """File one job; True for the stop signal."""
        if job is None:
            return True
        kind, payload, future = job
        if kind == "append":
            appends.append((payload, future))
        else:
            calls.append((*payload, future))
        return False

    def _commit(self, batch: list[tuple[Any, Any]]) -> None:
        rows = [(hand_id, index, action)
                for (hand_id, items, _), _ in batch for index, action in items]
        fences = {hand_id: fence for (hand_id, _, fence), _ in batch if fence is not None}
        error: Exception | None = None
        stale: set[int] = set()
        try:
            stale = self.store.hands.append_rows(rows, fences)
            self.commits += 1
            self.rows += len(rows)
        except Exception as exc:  # every waiting table learns of it
            log.exception("group commit of %d actions failed", len(rows))
            error = exc
        # one wake-up of the event loop for the whole batch
        by_loop: dict[Any, list[tuple[asyncio.Future[None], Exception | None]]] = {}
        for (_, _, fence), (loop, future) in batch:
            mine = error
            if mine is None and fence is not None and fence.table_id in stale:
                mine = LeaseLost(f"table {fence.table_id} is no longer {fence.node}'s")
            by_loop.setdefault(loop, []).append((future, mine))
        for loop, futures in by_loop.items():
            loop.call_soon_threadsafe(_settle, futures)

    @staticmethod
    def _finish(future: Future[Any], call: Callable[[], Any]) -> None:
        try:
            future.set_result(call())
        except Exception as exc:
            future.set_exception(exc)
