"""Tables players made close by themselves once nobody has sat at them for a while: a table
left behind would stay in the lobby for ever and count against its host's limit of tables.
The hall's own numbered tables stay."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .actor import WAITING, TableActor
from .clock import Clock, TimerHandle

log = logging.getLogger(__name__)

IDLE_SECONDS = 600.0  # a player's table with no person seated, between matches, this long


def unattended(actor: TableActor) -> bool:
    """A table a player made, waiting for a match, with no person in any seat (bots and
    watchers keep nothing open)."""
    return (actor.info.player_made and actor.status == WAITING
            and not any(s.kind == "person" for s in actor.seats))


def unattended_summary(summary: dict[str, Any]) -> bool:
    """``unattended`` as far as a table's summary (``table_json``, another node's) tells."""
    return (summary.get("status") == WAITING and summary.get("host") is not None
            and not any(s.get("kind") == "person" for s in summary.get("seats", ())))


class IdleTables:
    """A timer per unattended table; when it runs out, ``close(table_id)`` (which looks
    again, in the table's own task, and closes only a table still unattended)."""

    def __init__(self, clock: Clock, close: Callable[[int], Awaitable[bool]],
                 seconds: float = IDLE_SECONDS) -> None:
        self._clock = clock
        self._close = close
        self.seconds = seconds
        self._timers: dict[int, TimerHandle] = {}
        self._jobs: set[asyncio.Task[Any]] = set()

    def watch(self, actor: TableActor) -> None:
        """The table changed: start its timer when it became unattended, stop it when not."""
        if unattended(actor):
            if actor.id not in self._timers:
                self._timers[actor.id] = self._clock.call_at(
                    self._clock.now() + self.seconds, functools.partial(self._due, actor.id))
        else:
            timer = self._timers.pop(actor.id, None)
            if timer is not None:
                timer.cancel()

    def _due(self, table_id: int) -> None:
        self._timers.pop(table_id, None)
        task = asyncio.get_running_loop().create_task(self._closing(table_id))
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    async def _closing(self, table_id: int) -> None:
        try:
            await self._close(table_id)
        except Exception as exc:  # the store is out, say: the next change starts it again
            log.warning("table %s: closing it, unattended, failed: %s", table_id, exc)

    def stop(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
