"""Bot decisions away from the event loop: in worker processes, or inline in tests.

A decision is a pure function of (bot name, seed, the seat's view, the offered actions), all
plain JSON, so any worker can make it and the same inputs give the same answer.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T")
REQUESTS_PER_WORKER = 2  # requests in the workers' queue at once, a worker (bots aside)

log = logging.getLogger(__name__)


def decide(name: str, seed: int, view: dict[str, Any], legal: list[dict[str, Any]]) -> int:
    """The index in ``legal`` of the bot's choice."""
    from ...bots.policy import make_bot

    bot = make_bot(name, seed=seed)
    choice = bot.choose(view, legal)
    for i, action in enumerate(legal):
        if action is choice:
            return i
    return legal.index(choice)  # an equal object; ValueError if none


def warm_up() -> None:
    """Fill the evaluator and scorer tables (a worker's first decisions are then fast)."""
    from ...warmup import warm_tables

    warm_tables()


def worker_start(hall: int, warm: bool) -> None:
    """A worker's first act: end with the hall (``hall``: its pid), then warm up."""
    from ..ops.orphans import die_with_parent

    die_with_parent(hall)
    if warm:
        warm_up()


def ready(hold: float = 0.0) -> int:
    """A worker's pid, once its initializer (the warm-up) has run; ``hold`` keeps it busy a
    moment so that the next job goes to another worker."""
    if hold:
        time.sleep(hold)
    return os.getpid()


class BotPool:
    """Runs ``decide`` in ``workers`` processes (``workers=0``: inline, on the loop).

    The processes would otherwise start at the first job, and warm their tables then, so the
    first bot move of a fresh hall would wait seconds: ``start`` starts every one of them and
    returns once each has warmed (``warm``, ``warm_seconds``)."""

    def __init__(self, workers: int = 1, timeout: float = 5.0, warm: bool = True) -> None:
        self.workers = workers
        self.timeout = timeout
        self.warm = workers == 0  # inline: nothing to start
        self.warm_seconds: float | None = 0.0 if workers == 0 else None
        self.pids: set[int] = set()
        # requests (a hint, a record's check, a review) hold at most this many places in the
        # workers' queue at once: a flood of them never stands between the tables' bots and
        # the workers (they queued without bound, and every bot waited behind them)
        self._requests = asyncio.Semaphore(REQUESTS_PER_WORKER * max(1, workers))
        self._executor: Executor | None = None
        if workers > 0:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                max_workers=workers, mp_context=context, initializer=worker_start,
                initargs=(os.getpid(), warm))

    async def start(self, deadline: float = 180.0) -> float:
        """Start every worker and wait until each has run its warm-up; the seconds it took."""
        if self._executor is None:
            return 0.0
        loop = asyncio.get_running_loop()
        began = time.perf_counter()
        while len(self.pids) < self.workers:
            left = deadline - (time.perf_counter() - began)
            if left <= 0:
                raise TimeoutError(f"{self.workers - len(self.pids)} bot workers did not start")
            jobs = [loop.run_in_executor(self._executor, partial(ready, 0.05))
                    for _ in range(self.workers - len(self.pids))]
            self.pids.update(await asyncio.wait_for(asyncio.gather(*jobs), left))
        self.warm = True
        self.warm_seconds = time.perf_counter() - began
        return self.warm_seconds

    async def decide(
        self, name: str, seed: int, view: dict[str, Any], legal: list[dict[str, Any]]
    ) -> int:
        """The chosen index; raises on a bot failure or after ``timeout`` seconds."""
        if self._executor is None:
            return decide(name, seed, view, legal)
        loop = asyncio.get_running_loop()
        job = loop.run_in_executor(self._executor, partial(decide, name, seed, view, legal))
        return await asyncio.wait_for(job, self.timeout)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Any pure function of plain data for a request, in a worker (inline when
        ``workers=0``), at most ``REQUESTS_PER_WORKER`` a worker at once; ``TimeoutError``
        when it cannot start and end within ``timeout`` seconds. A job that has begun keeps
        its place until it ends."""
        if self._executor is None:
            return fn(*args)
        began = time.monotonic()
        await asyncio.wait_for(self._requests.acquire(), self.timeout)
        loop = asyncio.get_running_loop()
        try:
            work = self._executor.submit(fn, *args)
        except BaseException:
            self._requests.release()
            raise
        # the place is the worker's until the work ends, not until the answer is given up on
        # (a job that has begun runs on in its worker after the timeout)
        work.add_done_callback(lambda _: _call_soon(loop, self._requests.release))
        left = max(0.0, self.timeout - (time.monotonic() - began))
        return await asyncio.wait_for(asyncio.wrap_future(work), left)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], Any]) -> None:
    """``callback`` on ``loop`` from any thread; nothing if the loop has closed."""
    try:
        loop.call_soon_threadsafe(callback)
    except RuntimeError:
        pass
