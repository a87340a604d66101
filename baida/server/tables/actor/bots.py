"""Bots at a table: a bot's seat, and a person's on 托管, are decided in the bot workers
(``BotPool``) from a seed of the table, the hand and the prompt; the answer comes back
through the inbox and is taken only if the prompt is still open."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Any

from ....table import BotTurn, Refused, SeatMode
from .state import TableState

log = logging.getLogger(__name__)


class BotTurns(TableState):
    """Bots' and 托管's decisions."""

    def _start_bot(self, turn: BotTurn) -> None:
        name = self.config.bot if turn.mode == SeatMode.BOT else "tuoguan"
        hand_id = self.hand.id if self.hand is not None else 0
        # the seat too: every seat counts its own prompts, so numbers repeat across seats
        key = f"baida-bot:{self.id}:{hand_id}:{turn.seat}:{turn.seq}"
        digest = hashlib.sha256(key.encode()).digest()
        seed = int.from_bytes(digest[:8], "big")
        view = turn.view.to_json()
        legal = [a.to_json() for a in turn.legal]
        loop = self._loop or asyncio.get_running_loop()
        task = loop.create_task(self._bot_job(name, seed, view, legal, turn))
        self._bot_jobs.add(task)
        task.add_done_callback(self._bot_jobs.discard)

    async def _bot_job(
        self, name: str, seed: int, view: dict[str, Any], legal: list[dict[str, Any]],
        turn: BotTurn,
    ) -> None:
        try:
            index: int | None = await self.bots.decide(name, seed, view, legal)
        except Exception:
            log.exception("table %s: bot %s failed on seq %s", self.id, name, turn.seq)
            index = None
        self.post(self._bot_answer, turn, index)

    def _bot_answer(self, turn: BotTurn, index: int | None) -> None:
        driver = self.driver
        if driver is None:
            return
        if self._outage is not None:  # taken when the store is back
            self._outage.deferred.append((self._bot_answer, (turn, index)))
            return
        now = self.clock.now()
        prompt = driver.prompts.get(turn.seat)
        if prompt is None or prompt.seq != turn.seq or driver.modes[turn.seat] == SeatMode.PLAYER:
            return  # the person took the seat back and answered, or the hand moved on
        if index is None or not 0 <= index < len(turn.legal):
            driver.bot_failed(turn.seat, turn.seq, now)
            return
        try:
            driver.submit(turn.seat, turn.seq, turn.legal[index], now)
        except Refused:
            driver.bot_failed(turn.seat, turn.seq, now)
