"""One table's game loop, shared by the hall, the terminal game and the arena.

``TableDriver`` owns a ``Match`` and stands between it and the seats:

* it turns what the engine awaits into **prompts**: a sequence number, the legal actions and
  a deadline, released to the seat only when the events leading to it have been; each seat
  counts its own prompts (``next_seq[seat]``), so a seat's numbers say nothing of the
  decisions other seats were asked for (a claim window another seat let pass);
* it accepts an answer only from the seat a prompt was released to (the caller passes the
  seat of the authenticated connection, never one read from a message), only with that
  prompt's sequence number and only if it is one of the offered actions; anything else is
  refused with a message that is the same whatever the hidden state;
* it releases the engine's events on a **timeline**: after every discard and every 补杠 the
  table pauses ``timing.pause`` for everyone, whether or not a claim window opened (with
  ``timing.uniform_window``, the whole claim window: answers are taken at once, their
  effects released at the window's end);
* it fires **deadlines**: a claim window passes, a turn or a 三摊 question goes to 托管;
* it says which seats a **bot** must answer for (bot seats, and seats on 托管) and when,
  at most one every ``bot_floor`` seconds when the caller sets one (the hall does at a table
  nobody is connected to).

It does no I/O and reads no clock: every call takes ``now`` (seconds on the caller's clock).
Messages for each seat (and for spectators, ``None``) collect in ``outbox``; the caller
sends them. See ``docs/table.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..engine import Action, EngineError, Match, Round
from ..engine.errors import MalformedAction
from ..engine.events import PRIVATE_EVENTS
from ..engine.phases import CLAIM, ROB, SANTAN, TURN
from ..engine.views import View
from .timing import TableTiming

SEATS = (0, 1, 2, 3)
PAUSE_AFTER = frozenset({"discard", "bukong"})
Recipient = int | None  # a seat, or None for the spectators


class SeatMode(StrEnum):
    PLAYER = "player"  # a person decides
    BOT = "bot"  # a bot sits here
    AUTO = "auto"  # 托管: a bot decides for a person who is away or timed out


class Refused(Exception):
    """An answer the table does not take; ``code`` is stable, ``message`` is for a person,
    ``reason`` (where a code covers several cases) names the case, for a page to translate."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


NO_PROMPT = "no_prompt"
STALE = "stale"
NOT_OFFERED = "not_offered"
MALFORMED = "malformed"


@dataclass(slots=True)
class Prompt:
    """A decision one seat owes the table."""

    seat: int
    seq: int
    kind: str  # turn / claim / rob / santan
    legal: list[Action]
    released: float  # when the seat learns of it
    deadline: float | None = None  # when the table stops waiting
    free_until: float | None = None  # the end of the free time (a turn's bank comes after)
    bot_due: float | None = None  # when a bot answers it (bot and 托管 seats)
    bot_asked: bool = False  # handed out to a bot; the answer may still come
    delivered: bool = False

    def spent(self, now: float) -> bool:
        """Its time has run out (a prompt with no limit never runs out)."""
        return self.deadline is not None and self.deadline <= now

    def to_json(self, now: float) -> dict[str, Any]:
        """The prompt as the seat receives it: times are milliseconds from now."""
        out: dict[str, Any] = {
            "type": "prompt",
            "seq": self.seq,
            "kind": self.kind,
            "actions": [_offered(a) for a in self.legal],
            "time_ms": None,
            "bank_ms": None,
        }
        if self.deadline is not None:
            free_end = self.free_until if self.free_until is not None else self.deadline
            out["time_ms"] = max(0, round((free_end - now) * 1000))
            out["bank_ms"] = max(0, round((self.deadline - max(now, free_end)) * 1000))
        return out


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A decision a bot must make for ``seat`` (answer with ``submit(seat, seq, action)``)."""

    seat: int
    seq: int
    kind: str
    legal: list[Action]
    view: View
    mode: SeatMode


@dataclass(slots=True)
class _Pending:
    """Events not yet released, each with its release time."""

    times: list[float] = field(default_factory=list)


_OFFERED: dict[tuple[str, int | None, tuple[int, ...] | None], dict[str, Any]] = {}


def _offered(action: Action) -> dict[str, Any]:
    """An action as a prompt offers it (without the seat). The same few hundred actions are
    offered again and again, so each JSON object is made once and shared: treat it as
    read-only."""
    key = (action.type, action.tile, action.tiles)
    out = _OFFERED.get(key)
    if out is None:
        out = action.to_json()
        del out["seat"]
        _OFFERED[key] = out
    return out


class TableDriver:
    """The game loop of one table: prompts, answers, timeline, deadlines, bots."""

    def __init__(
        self,
        match: Match,
        *,
        timing: TableTiming | None = None,
        modes: list[SeatMode] | None = None,
        first_seq: int = 1,
    ) -> None:
        self.match = match
        self.timing = timing or TableTiming()
        self.modes: list[SeatMode] = list(modes or [SeatMode.PLAYER] * 4)
        if len(self.modes) != 4:
            raise ValueError("a table has four seats")
        self.auto_reason: list[str | None] = [None] * 4
        self.outbox: list[tuple[Recipient, dict[str, Any]]] = []
        self.listeners: set[Recipient] = set()
        self.prompts: dict[int, Prompt] = {}
        self.bank = [self.timing.bank] * 4
        # each seat's next prompt number: a seat's own count, never the table's
        self.next_seq: list[int] = [first_seq] * 4
        self.on_applied: Callable[[Action, list[Any]], None] | None = None
        # told (seat, mode, reason) whenever a seat changes hands (the hall logs 托管)
        self.on_mode: Callable[[int, SeatMode, str | None], None] | None = None
        self._released = 0  # events of the current hand released so far
        self._times: list[float] = []  # release times of rnd.events[_released:]
        self._barrier = 0.0
        self._snapshots: set[Recipient] = set()  # recipients waiting for a safe snapshot
        # seats taken back while 托管 answers a decision whose time had run out: theirs again
        # once that answer is in (``take_back``)
        self._returning: set[int] = set()
        # the least time between two bot decisions handed out (0: none; the hall sets it
        # while nobody is connected to the table), and when the last was handed out
        self.bot_floor = 0.0
        self._bot_last = float("-inf")

    # ---------------------------------------------------------------- state

    @property
    def round(self) -> Round | None:
        return self.match.current

    @property
    def hand_over(self) -> bool:
        """No hand is in play (none started yet, or the current one has ended)."""
        rnd = self.match.current
        return rnd is None or rnd.ended

    @property
    def idle(self) -> bool:
        """Every event released: what the engine shows is what the seats have seen."""
        return not self._times

    # ---------------------------------------------------------------- hands

    def start_hand(self, seed: bytes, now: float) -> Round:
        """Deal the next hand of the match from ``seed``."""
        rnd = self.match.start_hand(seed)
        return self._began(rnd, now)

    def start_hand_from_wall(self, wall: list[Any], dice: tuple[int, int], now: float) -> Round:
        rnd = self.match.start_hand_from_wall(wall, dice)
        return self._began(rnd, now)

    def resume_hand(self, rnd: Round, now: float) -> Round:
        """Go on with a hand rebuilt from its seed and stored actions (after a restart):
        what happened before is history, released at once; prompts start afresh."""
        self.match.resume_hand(rnd)
        return self._began(rnd, now, history=True)

    def _began(self, rnd: Round, now: float, history: bool = False) -> Round:
        self._released = 0
        self._times = []
        self.prompts = {}
        for seat in sorted(self._returning):  # a new hand: every decision is new
            self._returning.discard(seat)
            if self.modes[seat] == SeatMode.AUTO:
                self.set_mode(seat, SeatMode.PLAYER, now)
        self._barrier = now
        self.bank = [self.timing.bank] * 4
        self._schedule(len(rnd.events), now, pause=not history)
        self._refresh_prompts(now)
        self.advance(now)
        return rnd

    # ---------------------------------------------------------------- seats

    def set_mode(self, seat: int, mode: SeatMode, now: float, reason: str | None = None) -> None:
        """Change who decides for ``seat``; everyone is told (the 托管 marker is public)."""
        self._returning.discard(seat)  # whoever decides from now on is said here
        if self.modes[seat] == mode and self.auto_reason[seat] == reason:
            return
        changed_hands = self.modes[seat] != mode
        self.modes[seat] = mode
        self.auto_reason[seat] = reason if mode == SeatMode.AUTO else None
        notice = {"type": "seat_mode", "seat": seat, "mode": mode.value, "reason": reason}
        self._broadcast(notice)
        if self.on_mode is not None:
            self.on_mode(seat, mode, reason)
        prompt = self.prompts.get(seat)
        if prompt is None or not changed_hands:
            return
        # the seat changed hands: a bot's answer still on its way is dropped by the caller
        # (it checks the mode), so whoever decides now is asked afresh
        prompt.bot_asked = False
        if mode == SeatMode.PLAYER:
            prompt.bot_due = None
            if prompt.delivered:
                self._send(seat, prompt.to_json(now))
        else:
            prompt.bot_due = now + (self.timing.bot_turn if mode == SeatMode.AUTO else 0.0)

    def take_back(self, seat: int, now: float) -> None:
        """The player takes the seat back from 托管. A decision whose own time has run out
        stays 托管's (asked again, it would time out at once and hand the seat back to 托管:
        taking a seat back must not buy time); the seat is the player's once it is answered."""
        if self.modes[seat] != SeatMode.AUTO:
            return
        prompt = self.prompts.get(seat)
        if prompt is not None and prompt.delivered and prompt.spent(now):
            self._returning.add(seat)
            return
        self.set_mode(seat, SeatMode.PLAYER, now)

    def returning(self, seat: int) -> bool:
        """Whether ``seat`` was taken back and is the player's once 托管 has answered."""
        return seat in self._returning

    def _returned(self, now: float) -> None:
        """Seats taken back while 托管 finished a decision: theirs now that it is answered
        (or the hand moved on without it)."""
        for seat in sorted(self._returning):
            prompt = self.prompts.get(seat)
            if prompt is None or not prompt.spent(now):
                self._returning.discard(seat)
                if self.modes[seat] == SeatMode.AUTO:
                    self.set_mode(seat, SeatMode.PLAYER, now)

    # ---------------------------------------------------------------- answers

    def submit(self, seat: int, seq: Any, action: Any, now: float) -> Action:
        """Apply ``seat``'s answer to prompt ``seq``; raises ``Refused`` and changes nothing.

        ``action`` is an ``Action`` or the JSON of one as offered (without a seat: the seat
        is ``seat``, the caller's authenticated one).
        """
        prompt = self.prompts.get(seat)
        if prompt is None or prompt.released > now:
            raise Refused(NO_PROMPT, "no decision is pending for you")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq != prompt.seq:
            raise Refused(STALE, "that prompt is no longer current")
        chosen = self._match_offered(prompt, action)
        self._apply(prompt, chosen, now)
        return chosen

    def _match_offered(self, prompt: Prompt, action: Any) -> Action:
        if isinstance(action, Action):
            candidate = action
        elif isinstance(action, dict):
            if "seat" in action and action["seat"] != prompt.seat:
                raise Refused(MALFORMED, "an answer names no seat: yours is your connection's")
            if "seat" not in action:  # an action exactly as offered: no parsing needed
                for legal in prompt.legal:
                    if _offered(legal) == action:
                        return legal
            try:
                candidate = Action.from_json({**action, "seat": prompt.seat})
            except MalformedAction as exc:
                raise Refused(MALFORMED, str(exc)) from None
        else:
            raise Refused(MALFORMED, "an action is a JSON object")
        for legal in prompt.legal:
            if legal is candidate or legal == candidate:
                return legal
        raise Refused(NOT_OFFERED, "that is not one of the actions offered to you")

    def _apply(self, prompt: Prompt, action: Action, now: float) -> None:
        seat = prompt.seat
        rnd = self.match.current
        assert rnd is not None
        before = len(rnd.events)
        try:
            self.match.apply(action)
        except EngineError as exc:  # cannot happen for an offered action; never corrupt
            raise Refused(NOT_OFFERED, str(exc)) from None
        if prompt.kind == TURN and prompt.free_until is not None:
            self.bank[seat] = max(0.0, self.bank[seat] - max(0.0, now - prompt.free_until))
        del self.prompts[seat]
        if self.on_applied is not None:
            self.on_applied(action, rnd.events[before:])
        self._schedule(len(rnd.events) - before, now)
        self._refresh_prompts(now)
        if self._returning:
            self._returned(now)

    # ---------------------------------------------------------------- time

    def advance(self, now: float) -> None:
        """Release what is due, fire deadlines; messages go to ``outbox``."""
        for _ in range(10_000):
            self._release(now)
            if not self._fire_deadline(now):
                break
        self._release(now)

    def next_wakeup(self) -> float | None:
        """The earliest time ``advance`` (or ``bot_turns``) has something to do (None: nothing
        is scheduled). Only what someone acts on counts: a deadline is a person's (a bot's
        prompt waits for the bot), a bot's due time counts until the bot has been asked."""
        times: list[float] = []
        floor = self._bot_last + self.bot_floor if self.bot_floor > 0 else 0.0
        if self._times:
            times.append(self._times[0])
        modes = self.modes
        for p in self.prompts.values():
            if not p.delivered:
                times.append(p.released)
            elif p.deadline is not None and modes[p.seat] == SeatMode.PLAYER:
                times.append(p.deadline)
            if p.bot_due is not None and not p.bot_asked and modes[p.seat] != SeatMode.PLAYER:
                times.append(max(p.bot_due, p.released, floor))
        return min(times) if times else None

    def delay(self, seconds: float) -> None:
        """The table stood still for ``seconds`` (the hall's store was down): everything still
        to come (events, prompts and their deadlines, bots' due times) moves that much later,
        so nobody loses time to the wait and the timeline keeps its shape."""
        if seconds <= 0:
            return
        self._times = [t + seconds for t in self._times]
        self._barrier += seconds
        self._bot_last += seconds
        for p in self.prompts.values():
            if not p.delivered:
                p.released += seconds
            if p.deadline is not None:
                p.deadline += seconds
            if p.free_until is not None:
                p.free_until += seconds
            if p.bot_due is not None:
                p.bot_due += seconds

    def bot_turns(self, now: float) -> list[BotTurn]:
        """Decisions due now from bots (bot seats and 托管); each is handed out once, and
        with a ``bot_floor`` at most one per ``bot_floor`` seconds."""
        rnd = self.match.current
        out: list[BotTurn] = []
        if rnd is None:
            return out
        for seat in sorted(self.prompts):
            p = self.prompts[seat]
            if p.bot_asked or p.bot_due is None or p.bot_due > now or p.released > now:
                continue
            if self.bot_floor > 0:
                if now < self._bot_last + self.bot_floor:
                    break
                self._bot_last = now
            p.bot_asked = True
            view = rnd.view(seat)
            out.append(BotTurn(seat, p.seq, p.kind, list(p.legal), view, self.modes[seat]))
        return out

    def bot_failed(self, seat: int, seq: int, now: float) -> Action | None:
        """A bot could not answer prompt ``seq``: play the safe fallback; returns it."""
        prompt = self.prompts.get(seat)
        if prompt is None or prompt.seq != seq:
            return None
        action = safe_action(prompt.legal, self._drawn(seat))
        self._apply(prompt, action, now)
        return action

    # ---------------------------------------------------------------- snapshots

    def snapshot_ready(self, recipient: Recipient) -> bool:
        """Whether a view now shows nothing the recipient's messages have not: no event is
        waiting for release, and no window is open that the recipient is not asked in."""
        rnd = self.match.current
        if rnd is None or self._times:
            return rnd is None
        if rnd.phase in (CLAIM, ROB):
            return recipient is not None and recipient in self.prompts
        return True

    def snapshot(self, recipient: Recipient, now: float) -> dict[str, Any]:
        """The recipient's view of the hand and its open prompt (call when ready)."""
        rnd = self.match.current
        out: dict[str, Any] = {
            "type": "snapshot",
            "match": self.match.to_json(),
            "modes": [m.value for m in self.modes],
            "view": rnd.view(recipient).to_json() if rnd is not None else None,
            "event_index": self._released,
            "prompt": None,
        }
        if recipient is not None:
            prompt = self.prompts.get(recipient)
            if (
                prompt is not None
                and prompt.delivered
                and self.modes[recipient] == SeatMode.PLAYER
            ):
                out["prompt"] = prompt.to_json(now)
        return out

    # ---------------------------------------------------------------- internals

    def _schedule(self, count: int, now: float, pause: bool = True) -> None:
        """Give the last ``count`` events of the hand their release times (``pause``: with
        the uniform pause, or window, after each discard and 补杠; history is released at
        once)."""
        rnd = self.match.current
        assert rnd is not None
        events = rnd.events
        gap = self.timing.after_discard if pause else 0.0
        start = len(events) - count
        for i in range(start, len(events)):
            at = max(now, self._barrier)
            self._times.append(at)
            if gap and events[i].type in PAUSE_AFTER:
                self._barrier = at + gap

    def _release_time(self) -> float:
        """When a prompt made now reaches its seat: with the last event it follows."""
        return self._times[-1] if self._times else -1.0

    def _refresh_prompts(self, now: float) -> None:
        rnd = self.match.current
        if rnd is None or rnd.ended:
            self.prompts = {}
            return
        waiting = rnd.to_act
        for seat in list(self.prompts):
            if seat not in waiting:
                del self.prompts[seat]
        released = max(now, self._release_time())
        for seat in waiting:
            if seat in self.prompts:
                continue
            kind = _KIND[rnd.phase]
            prompt = Prompt(seat, self.next_seq[seat], kind, rnd.legal_actions(seat), released)
            self.next_seq[seat] += 1
            limit = self.timing.limit(kind)
            if limit is not None:
                prompt.free_until = released + limit
                bank = self.bank[seat] if kind == TURN else 0.0
                prompt.deadline = prompt.free_until + bank
            mode = self.modes[seat]
            if mode != SeatMode.PLAYER:
                delay = self.timing.bot_delay(kind)
                prompt.bot_due = released + delay
            self.prompts[seat] = prompt

    def _release(self, now: float) -> None:
        rnd = self.match.current
        if rnd is None:
            return
        times = self._times
        n = 0
        while n < len(times) and times[n] <= now:
            n += 1
        if n and self.listeners:
            batch = rnd.events[self._released : self._released + n]
            index = self._released
            if not any(e.type in PRIVATE_EVENTS for e in batch):
                # the same for everyone: one message object (its JSON is made once)
                shared = {"type": "events", "index": index,
                          "events": [e.to_json() for e in batch]}
                for recipient in self.listeners:
                    self._send(recipient, shared)
            else:
                for recipient in self.listeners:
                    self._send(
                        recipient,
                        {
                            "type": "events",
                            "index": index,
                            "events": [e.for_seat(recipient) for e in batch],
                        },
                    )
        if n:
            self._released += n
            del times[:n]
        for seat, prompt in self.prompts.items():
            if not prompt.delivered and prompt.released <= now:
                prompt.delivered = True
                if self.modes[seat] == SeatMode.PLAYER:
                    self._send(seat, prompt.to_json(now))

    def _fire_deadline(self, now: float) -> bool:
        """Act on one expired prompt; True if something changed."""
        for seat, prompt in list(self.prompts.items()):
            if not prompt.spent(now) or not prompt.delivered:
                continue
            if self.modes[seat] != SeatMode.PLAYER:
                continue  # a bot is on it
            if prompt.kind in (CLAIM, ROB):
                passing = next((a for a in prompt.legal if a.type == "pass"), None)
                if passing is not None:
                    self._send(seat, {"type": "prompt_closed", "seq": prompt.seq,
                                      "reason": "timeout"})
                    self._apply(prompt, passing, now)
                    return True
            self._send(seat, {"type": "prompt_closed", "seq": prompt.seq, "reason": "timeout"})
            self.set_mode(seat, SeatMode.AUTO, now, reason="timeout")
            prompt.bot_due = now
            return True
        return False

    def _drawn(self, seat: int) -> int | None:
        rnd = self.match.current
        return None if rnd is None else rnd.drawn[seat]

    def _send(self, recipient: Recipient, message: dict[str, Any]) -> None:
        if recipient in self.listeners:
            self.outbox.append((recipient, message))

    def _broadcast(self, message: dict[str, Any]) -> None:
        for recipient in self.listeners:
            self.outbox.append((recipient, message))

    def drain(self) -> list[tuple[Recipient, dict[str, Any]]]:
        out, self.outbox = self.outbox, []
        return out


_KIND = {TURN: "turn", CLAIM: "claim", ROB: "rob", SANTAN: "santan"}


def safe_action(legal: list[Action], drawn: int | None = None) -> Action:
    """A legal answer chosen by fixed rules: a 腊子 (500, at least any win), else win, else
    pass / 坚持, else discard the tile just drawn, else the last discard offered, else the
    first action."""
    by_type: dict[str, Action] = {}
    for a in legal:
        by_type.setdefault(a.type, a)
    for kind in ("lazi", "win", "pass", "continue"):
        if kind in by_type:
            return by_type[kind]
    discards = [a for a in legal if a.type == "discard"]
    for a in discards:
        if a.tile == drawn:
            return a
    return discards[-1] if discards else legal[0]
