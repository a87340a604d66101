"""Going on after a restart: a hand that was in play, rebuilt from its seed and its stored
actions, or a match that was between hands; the people are on 托管 until they come back."""

from __future__ import annotations

import secrets
from typing import Any

from ....engine import Match, Round
from ....table import SeatMode, TableDriver
from ..connection import User
from .match import MatchLife
from .state import BETWEEN, PLAYING, HandInPlay, SeatState

# after a restart between hands, how long the next deal waits for the people to come back
# when the table has no between-hands limit
RESTART_GRACE = 30.0


class Restart(MatchLife):
    """Resuming hands and matches."""

    def resume(self, hand: Any, users: list[User | None],
               escaped: list[bool] | None = None) -> None:
        """Go on with a hand that was in play when the server stopped (``hand``: the store's
        ``ResumableHand``): rebuilt from its seed and stored actions; the people are on 托管
        until they reconnect; ``escaped`` seats (their person left the match during this
        hand, which is still theirs to pay) are a bot's. Nothing changes if it fails."""
        gone = list(escaped or [False] * 4)
        match = Match.from_state(hand.match_state)
        setup = hand.setup
        rnd = Round.from_seed(
            match.ruleset, hand.seed, options=match.options, dealer=setup["dealer"],
            round_wind=setup["round_wind"], base=setup["base"],
            carry_pool=setup["carry_pool"], previous_wild=setup["previous_wild"],
        )
        for _, action in hand.actions:
            rnd.apply(action)
        driver = self._resumed_driver(match, users, gone)
        driver.resume_hand(rnd, self.clock.now())
        self.seats = [SeatState(user=u, bot=u is None, ready=True, escaped=g)
                      for u, g in zip(users, gone, strict=True)]
        self.driver = driver
        self.match_id = hand.match_id
        self.hand = HandInPlay(hand.hand_id, hand.number)
        self.status = PLAYING

    def resume_between(self, match_id: int, state: dict[str, Any],
                       users: list[User | None]) -> None:
        """Go on with a match that was between hands when the server stopped (``state``: as
        stored after its last hand, totals and all). The people are on 托管 until they
        reconnect; the next hand is dealt when every person is back and ready, or when the
        between-hands time (``RESTART_GRACE`` at a table without one) has passed."""
        match = Match.from_state(state)
        if match.over:
            raise ValueError(f"match {match_id} is over")
        driver = self._resumed_driver(match, users, [False] * 4)
        self.seats = [SeatState(user=u, bot=u is None, ready=u is None) for u in users]
        self.driver = driver
        self.match_id = match_id
        self.hand = None
        self.status = BETWEEN
        limit = self.config.timing.between_hands
        self._between_deadline = self.clock.now() + (RESTART_GRACE if limit is None else limit)
        self._restart_grace = self._between_deadline
        self._changed()

    def _resumed_driver(self, match: Match, users: list[User | None],
                        gone: list[bool]) -> TableDriver:
        modes = [SeatMode.BOT if user is None or g else SeatMode.AUTO
                 for user, g in zip(users, gone, strict=True)]
        driver = TableDriver(match, timing=self.config.timing, modes=modes,
                             first_seq=secrets.randbelow(1 << 30) + 1)
        for i, mode in enumerate(modes):
            if mode == SeatMode.AUTO:
                driver.auto_reason[i] = "offline"
        driver.on_applied = self._applied
        return driver
