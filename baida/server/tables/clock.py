"""The hall's time: the running event loop's monotonic clock, or a manual one for tests.

Every timer in the hall (claim windows, turn timers, bots' pace, the pause after a discard,
between-hands countdowns) is scheduled through a ``Clock``, so tests advance time by hand
and never sleep.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Protocol


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle: ...


# A timer further away than this is set in two steps: a first one this long before its
# time, which sets the real one. Linux lets a sleeping process's wait (epoll_wait) end up to
# 0.1% of its length late, so a loop that sleeps through a whole 2 s claim window would
# release what follows up to 2 ms later than one woken in between by someone's answer: the
# pace would tell whether a window was open. The last step is always this short, so the
# slack is the kernel's minimum (50 µs) whatever happened before.
LAST_STEP = 0.02


class LoopClock:
    """The running asyncio loop's clock (monotonic seconds). It keeps the loop it first ran
    in (a hall has one): looking the running loop up costs a system call in Python 3.11, and
    the hall asks for the time many times per action. A timer fires as precisely whether
    or not the loop woke before it (``LAST_STEP``)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None

    def _running(self) -> asyncio.AbstractEventLoop:
        loop = self._loop = asyncio.get_running_loop()
        return loop

    def now(self) -> float:
        return (self._loop or self._running()).time()

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        loop = self._loop or self._running()
        if when - loop.time() <= LAST_STEP:
            return loop.call_at(when, callback)
        return _TwoSteps(loop, when, callback)


class _TwoSteps:
    """A timer set in two steps (see ``LAST_STEP``); ``cancel`` stops whichever is pending."""

    __slots__ = ("_handle",)

    def __init__(self, loop: asyncio.AbstractEventLoop, when: float,
                 callback: Callable[[], None]) -> None:
        def last_step() -> None:
            self._handle = loop.call_at(when, callback)

        self._handle: asyncio.TimerHandle = loop.call_at(when - LAST_STEP, last_step)

    def cancel(self) -> None:
        self._handle.cancel()


class _ManualTimer:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when ``advance`` is called; due callbacks run in time order."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._heap: list[tuple[float, int, _ManualTimer, Callable[[], None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        handle = _ManualTimer()
        heapq.heappush(self._heap, (when, next(self._order), handle, callback))
        return handle

    def next_timer(self) -> float | None:
        """When the earliest live timer fires (None: no timer)."""
        while self._heap and self._heap[0][2].cancelled:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    def advance(self, seconds: float) -> None:
        """Move time forward, running every callback that falls due on the way."""
        target = self._now + seconds
        while True:
            when = self.next_timer()
            if when is None or when > target:
                break
            _, _, handle, callback = heapq.heappop(self._heap)
            self._now = max(self._now, when)
            if not handle.cancelled:
                callback()
        self._now = target
