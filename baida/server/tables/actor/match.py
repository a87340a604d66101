"""The match's life at a table: starting it when every seat is ready, dealing each hand
(its seed stored first), driving the hand after every message (the driver advanced to now,
bots started, actions stored, then sent), finishing each hand (its record and the ledger in
one write) and the match; the table's one timer."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from ....engine import Match
from ....table import Refused, SeatMode, TableDriver
from ....tiles import tile_str
from ...store.hands import SettleRequest
from .. import protocol as P
from ..connection import Connection
from ..pace import bot_floor
from .bots import BotTurns
from .outbox import Outbox
from .state import (
    BETWEEN,
    DESERTED_SECONDS,
    PLAYING,
    RECONNECT_GRACE,
    WAITING,
    HandInPlay,
    SeatState,
)
from .storage import Storage

log = logging.getLogger(__name__)


class MatchLife(Outbox, Storage, BotTurns):
    """Deals, hands and the driver."""

    def _maybe_start(self) -> None:
        # a holding table (its node drains) starts nothing: and since every pump between
        # hands comes here, posting a deal that ``_next_hand`` refuses would loop forever
        if self.holding:
            return
        if self.status == WAITING and not any(s.empty for s in self.seats) and self._all_ready():
            self.post(self._start_match)
        elif self.status == BETWEEN and self._between_ready():
            self.post(self._next_hand)

    def _between_ready(self) -> bool:
        assert self.driver is not None
        # after a restart the people are offline through no doing of theirs: wait for them
        now = self.clock.now()
        wait_offline = self._restart_grace is not None and now < self._restart_grace
        for i, s in enumerate(self.seats):
            if s.kind != "person":
                continue
            if self.driver.modes[i] == SeatMode.PLAYER and not s.ready:
                return False
            if wait_offline and self.driver.auto_reason[i] == "offline":
                return False
            if s.conn is None and s.left_at is not None and now < s.left_at + RECONNECT_GRACE:
                return False  # just gone (a reload?): waited for a moment
        return True

    def _reconnect_wake(self) -> float | None:
        """The end of the earliest reconnection grace still running between hands."""
        ends = [s.left_at + RECONNECT_GRACE for s in self.seats
                if s.kind == "person" and s.conn is None and s.left_at is not None
                and s.left_at + RECONNECT_GRACE > self.clock.now()]
        return min(ends, default=None)

    async def _start_match(self) -> None:
        if self.status != WAITING or any(s.empty for s in self.seats) or not self._all_ready():
            return
        if self._outage is not None and self.clock.now() < self._outage.retry_at:
            return  # the store is failing: the start is tried again at the retry
        cfg = self.config
        match = Match(cfg.ruleset, cfg.options, base=cfg.base, hands=cfg.hands,
                      rounds=cfg.rounds)
        seats = self._seat_users()
        state = match.state()
        try:
            fence = self.info.lease
            info = await self.db.write(
                lambda s: s.tables.start_match(self.id, seats, state, fence=fence))
        except Exception as exc:
            self._store_failed(exc, f"the start of a match at table {self.id}")
            return
        self._store_ok()
        self._abandoned.clear()  # a new match: the old one's news is stale
        modes = [SeatMode.BOT if s.bot else SeatMode.PLAYER for s in self.seats]
        # every seat numbers its own prompts from 1: what a seat's numbers say is what it
        # was asked itself (a seat new at the table learns nothing of the last match either)
        self.driver = TableDriver(match, timing=cfg.timing, modes=modes)
        self.driver.on_applied = self._applied
        self.match_id = info.id
        self.status = BETWEEN
        await self._next_hand()

    async def _next_hand(self) -> None:
        if self.driver is None or self.status not in (BETWEEN,) or self.holding:
            return
        match = self.driver.match
        if match.over:
            return
        if self._outage is not None and self.clock.now() < self._outage.retry_at:
            return  # the store is failing: the deal is tried again at the retry
        setup = _setup_json(match)
        number = match.hand_number + 1
        seats = self._seat_users()
        assert self.match_id is not None
        match_id = self.match_id
        if self._deal_seed is None or self._deal_seed[:2] != (match_id, number):
            # kept until stored: a deal retried after a failed write has the same seed
            self._deal_seed = (match_id, number, secrets.token_bytes(32))
        seed = self._deal_seed[2]
        ruleset = self.config.ruleset
        try:
            info = await self.db.call("hands.start", match_id, number, ruleset=ruleset,
                                      seed=seed, setup=setup, seats=seats, **self._fence())
        except Exception as exc:
            self._store_failed(exc, f"the deal of hand {number} of match {match_id}")
            return
        self._deal_seed = None
        self._store_ok()
        self._last_result = None
        self._restart_grace = None
        self.hand = HandInPlay(info.id, number)
        for s in self.seats:
            s.ready = s.bot
        self._between_deadline = None
        self.status = PLAYING
        for conn in self._connections():  # everyone hears the deal, then gets a snapshot
            self._snapshots[conn] = False
        self._update_listeners()
        self.driver.start_hand(seed, self.clock.now())
        self._changed()

    def _applied(self, action: Any, events: list[Any]) -> None:
        rnd = self.driver.round if self.driver else None
        if self.hand is not None and rnd is not None:
            self.hand.unsaved.append((len(rnd.actions) - 1, P.encode(action.to_json())))

    async def _finish_hand(self) -> None:
        driver = self.driver
        hand = self.hand
        assert driver is not None and hand is not None
        rnd = driver.round
        assert rnd is not None and rnd.result is not None
        record = rnd.record()
        result = rnd.result.to_json()
        settle = None
        hand_id = hand.id
        if self.config.stakes == "silver":
            settle = SettleRequest(
                txn_key=f"hand:{hand_id}",
                seats=[None if s.user is None else s.user.id for s in self.seats],
                owed=list(rnd.result.payments),
                fee=self.config.fee,
            )
        match_over = driver.match.over
        # a match nobody has been at for a while ends here (its seats then free, and a
        # player's table closes as any unattended one): bots played on for hours
        if hand.deserted is None:
            hand.deserted = not match_over and self._deserted()
        deserted = hand.deserted
        state = driver.match.state()
        status = "ended" if match_over else "abandoned" if deserted else None
        try:  # once only, however often it is tried (the ledger's key is the hand's)
            finished = await self.db.call("hands.finish", hand_id, record, result,
                                          settle=settle, match_state=state,
                                          match_status=status, **self._fence())
        except Exception as exc:
            self._store_failed(exc, f"the end of hand {hand_id}")
            return
        self._store_ok()
        outcome = finished.settlement
        self.hand = None
        for i, s in enumerate(self.seats):
            if s.escaped:  # the escaper paid this hand; from now on the house's bot plays
                self.seats[i] = SeatState(bot=True, ready=True)
        if not match_over:  # the deadline first: the result says how long is left
            limit = self.config.timing.between_hands
            self._between_deadline = None if limit is None else self.clock.now() + limit
        self._send_hand_result(hand_id, hand.number, outcome, match_over)
        self.metrics.hand_finished()
        if deserted:
            log.info("table %s: match %s abandoned after hand %s: nobody at the table for "
                     "%.0f s", self.id, self.match_id, hand.number, DESERTED_SECONDS)
            # each is told so when they come back (their seats are free by then)
            self._abandoned = {s.user.id for s in self.seats
                               if s.kind == "person" and s.user is not None and not s.escaped}
        if match_over or deserted:
            await self._end_match()
        else:
            self.status = BETWEEN
            self._maybe_start()
        self._changed()

    async def _end_match(self) -> None:
        assert self.driver is not None
        self._last_result = None
        self.driver = None
        self.match_id = None
        self.status = WAITING
        for i, s in enumerate(self.seats):
            if s.kind == "person" and s.conn is None:
                self.seats[i] = SeatState()  # gone: the seat is free for the next match
            else:
                s.ready = s.bot
        self._snapshots.clear()

    def _on_act(self, conn: Connection, msg: P.Act) -> None:
        seat = conn.seat
        if seat is None or self.driver is None:
            raise Refused("no_prompt", "no decision is pending for you")
        if self.driver.modes[seat] != SeatMode.PLAYER:
            raise Refused("no_prompt", "no decision is pending for you")
        if self._outage is not None:  # taken when the store is back
            self._outage.deferred.append((self._received, (conn, msg)))
            return
        started = self.clock.now()
        self.driver.submit(seat, msg.seq, msg.action.model_dump(exclude_none=True), started)
        self.metrics.action()
        self._acks.append((conn, {"type": "ack", "seq": msg.seq, "id": msg.id}, started))

    def _on_resume(self, conn: Connection, msg: P.Resume) -> None:
        if conn.seat is None or self.driver is None:
            raise Refused("not_allowed", "you have no seat in play here", "no_seat")
        if self.seats[conn.seat].escaped:
            raise Refused("not_allowed", "you left this match", "left_match")
        seat = conn.seat
        if self.driver.modes[seat] == SeatMode.AUTO:
            self.driver.take_back(seat, self.clock.now())  # everyone is told (seat_mode)
        else:  # nothing to take back: the seat's mode, to the sender alone
            conn.send({"type": "seat_mode", "seat": seat, "mode": self.driver.modes[seat].value,
                       "reason": self.driver.auto_reason[seat]})

    async def _pump(self) -> None:
        """Advance the game to now; start bots; make actions durable; then send. While the
        store fails, nothing moves: the unsaved actions are tried again with backoff."""
        outage = self._outage
        if outage is not None:
            if self.clock.now() < outage.retry_at or not await self._save_actions():
                self._schedule()
                return
            if self._outage is not None and self.status in (WAITING, BETWEEN):
                self._maybe_start()  # the start or the deal that failed is tried again
        driver = self.driver
        now = self.clock.now()
        attended = self._attended()
        if attended or driver is None:  # (a match's time alone counts, from its first pump)
            self._unattended_since = None
        elif self._unattended_since is None:
            self._unattended_since = now
        if driver is not None and self.status == PLAYING:
            # nobody here: bots and 托管 at the hall's floor; anyone back lifts it at once
            driver.bot_floor = bot_floor(attended, self.unattended_pace)
            driver.advance(now)
            for turn in driver.bot_turns(now):
                self._start_bot(turn)
            held = any(message["type"] == "events" for _, message in driver.outbox)
            if not await self._save_actions():
                self._schedule()  # what they caused is held until they are stored
                return
            waited = self.clock.now() - now
            if held and waited > 0:
                # the events go out only now: the pause after a discard (and every time
                # still to come) counts from here, so the time a write took never shows
                # in the pace, whether or not a window was open
                driver.delay(waited)
            self._send_outbox()
            self._send_snapshots()
            if driver.hand_over and driver.idle and self.hand is not None:
                await self._finish_hand()
        elif driver is not None:
            self._send_outbox()
            self._send_snapshots()
            if self.status == BETWEEN:
                if self._between_deadline is not None and now >= self._between_deadline:
                    for s in self.seats:
                        s.ready = True
                self._maybe_start()  # the deadline, or a reconnection grace, ran out
        self._schedule()

    def _schedule(self) -> None:
        """Set the table's one timer to the next moment it has something to do."""
        wake: float | None = None
        if self._outage is not None:
            wake = self._outage.retry_at  # nothing else moves before the store is back
        elif self.driver is not None and self.status == PLAYING:
            wake = self.driver.next_wakeup()
        elif self.status == BETWEEN and not self.holding:  # holding: nothing to wake for
            wake = self._between_deadline
            grace = self._reconnect_wake()
            if grace is not None and (wake is None or grace < wake):
                wake = grace
        if wake == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = wake
        if wake is not None:
            self._timer = self.clock.call_at(wake, self._tick)

    def _tick(self) -> None:
        self._timer = None
        self._timer_at = None
        self.post(_nothing)


def _setup_json(match: Match) -> dict[str, Any]:
    """The ``Round.from_seed`` keywords of the match's next hand, as JSON."""
    return {
        "dealer": match.dealer,
        "round_wind": match.round_wind,
        "base": match.base,
        "carry_pool": match.carry_pool,
        "previous_wild": None if match.previous_wild is None else tile_str(match.previous_wild),
    }


def _nothing() -> None:
    """A timer fired: the pump after it does the work."""
