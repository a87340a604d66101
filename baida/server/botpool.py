"""Bot decisions away from the event loop: in worker processes, or inline in tests.

A decision is a pure function of (bot name, seed, the seat's view, the offered actions), all
plain JSON, so any worker can make it and the same inputs give the same answer.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)


def decide(name: str, seed: int, view: dict[str, Any], legal: list[dict[str, Any]]) -> int:
    """The index in ``legal`` of the bot's choice."""
    from ..bots.policy import make_bot

    bot = make_bot(name, seed=seed)
    choice = bot.choose(view, legal)
    for i, action in enumerate(legal):
        if action is choice:
            return i
    return legal.index(choice)  # an equal object; ValueError if none


def warm_up() -> None:
    """Fill the evaluator and scorer tables (a worker's first decisions are then fast)."""
    from ..warmup import warm_tables

    warm_tables()


class BotPool:
    """Runs ``decide`` in ``workers`` processes (``workers=0``: inline, on the loop)."""

    def __init__(self, workers: int = 1, timeout: float = 5.0) -> None:
        self.workers = workers
        self.timeout = timeout
        self._executor: Executor | None = None
        if workers > 0:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                max_workers=workers, mp_context=context, initializer=warm_up
            )

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
        """Any pure function of plain data, in a worker (inline when ``workers=0``)."""
        if self._executor is None:
            return fn(*args)
        loop = asyncio.get_running_loop()
        job = loop.run_in_executor(self._executor, partial(fn, *args))
        return await asyncio.wait_for(job, self.timeout)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
