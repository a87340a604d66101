"""One table of the hall: the single owner of its match, an actor with an inbox.

Everything that touches a table arrives as a message in its inbox (a client's message, a
connection opening or closing, a timer firing, a bot's answer, an operator's command) and
is handled in order by the table's own task, so no timer races a move. The game itself is
``baida.table.TableDriver``'s; the actor adds people and connections, seats and readiness,
bots in worker processes, persistence (an action is durable before anyone sees what it
caused), the 银子 ledger at the end of each hand, chat and spectators.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ...engine import Match, Round
from ...table import BotTurn, Refused, SeatMode, TableDriver
from ...tiles import tile_str
from ..directory.in_process import Directory
from ..ops.metrics import Metrics
from ..store.hands import SettleRequest
from ..store.writer import HallStore
from . import protocol as P
from .botpool import BotPool
from .chat import ChatLimiter, chat_text
from .clock import Clock, TimerHandle
from .config import TableConfig
from .connection import Connection, User

log = logging.getLogger(__name__)

WAITING, PLAYING, BETWEEN, CLOSED = "waiting", "playing", "between", "closed"

# when a write fails: tried again after 0.05, 0.1, 0.2 ... seconds, at most RETRY_MAX apart;
# the table is told once the store has been failing for TELL_AFTER seconds
RETRY_FIRST, RETRY_MAX, TELL_AFTER = 0.05, 5.0, 1.0
STORAGE_DOWN = {"type": "notice", "code": "storage_down",
                "message": "the hall cannot save this table's moves just now: "
                           "the table waits, every clock stopped, until it can"}
STORAGE_BACK = {"type": "notice", "code": "storage_back", "message": "the table goes on"}
# after a restart between hands, how long the next deal waits for the people to come back
# when the table has no between-hands limit
RESTART_GRACE = 30.0
# refusals that count as a bad message (a client that keeps acting out of turn, on stale or
# unoffered prompts, is disconnected like one that sends malformed JSON); a refused seat or
# table request (not_allowed) is a person's click and only the rate limit applies
STRIKE_CODES = frozenset({"stale", "not_offered", "no_prompt", "protocol"})


@dataclass(slots=True)
class SeatState:
    """Who sits in one seat."""

    user: User | None = None  # a person (None: empty or a bot)
    bot: bool = False
    ready: bool = False
    conn: Connection | None = None
    escaped: bool = False  # the person left mid-match; a bot plays on

    @property
    def empty(self) -> bool:
        return self.user is None and not self.bot

    @property
    def kind(self) -> str:
        if self.user is not None and not self.escaped:
            return "person"
        return "bot" if self.bot or self.escaped else "empty"


@dataclass(slots=True)
class TableInfo:
    """What the table is in the hall: its id, its number, its owner and its settings."""

    id: int
    number: int
    name: str
    config: TableConfig
    host: int | None = None
    room_code: str | None = None


@dataclass(slots=True)
class _Outage:
    """The store failed a write: the table stands still until a write succeeds."""

    since: float
    failures: int = 0
    retry_at: float = 0.0
    told: bool = False
    # answers that came meanwhile (a person's act, a bot's), handled when the store is back
    deferred: list[tuple[Callable[..., Any], tuple[Any, ...]]] = field(default_factory=list)


@dataclass(slots=True)
class _Hand:
    """The stored identity of the hand in play."""

    id: int
    number: int
    unsaved: list[tuple[int, str]] = field(default_factory=list)  # (index, action JSON text)


class TableActor:
    """The owner of one table."""

    def __init__(
        self,
        info: TableInfo,
        *,
        clock: Clock,
        db: HallStore,
        bots: BotPool,
        metrics: Metrics,
        directory: Directory,
        on_change: Callable[[TableActor, dict[str, Any]], None] | None = None,
    ) -> None:
        self.info = info
        self.config = info.config
        self.clock = clock
        self.db = db
        self.bots = bots
        self.metrics = metrics
        self.directory = directory
        self.on_change = on_change
        self.quick = False  # a quick-play table (one person and three bots)
        self.seats = [SeatState() for _ in range(4)]
        self.spectators: set[Connection] = set()
        self.status = WAITING
        self.driver: TableDriver | None = None
        self.match_id: int | None = None
        self.hand: _Hand | None = None
        self.chat = ChatLimiter(clock.now)
        # the inbox: a deque and the one future the table's task waits on when it is empty
        # (cheaper than an asyncio.Queue on the hall's hottest path)
        self._inbox: deque[tuple[Callable[..., Awaitable[None] | None], tuple]] = deque()
        self._wakeup: asyncio.Future[None] | None = None
        self._busy = False  # a message is being handled (maybe waiting for the store)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: TimerHandle | None = None
        self._timer_at: float | None = None
        self._between_deadline: float | None = None
        self._snapshots: dict[Connection, bool] = {}  # waiting for a safe moment; resync?
        self._task: asyncio.Task[None] | None = None
        self._bot_jobs: set[asyncio.Task[None]] = set()
        self._last_seq = 0
        # acks wait, like everything else an action causes, until the action is durable
        self._acks: list[tuple[Connection, dict[str, Any], float]] = []
        self._outage: _Outage | None = None  # the store is failing: nothing moves
        self._deal_seed: tuple[int, int, bytes] | None = None  # (match, hand, seed) to store
        # the last hand's result between hands (sent again to whoever reconnects then):
        # the message without ``silver``, and each seat's 银子 change
        self._last_result: tuple[dict[str, Any], list[dict[str, Any]] | None] | None = None
        # resumed between hands after a restart: until then the deal waits for the people
        self._restart_grace: float | None = None

    # ================================================================ the actor

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = self._loop.create_task(self._run(), name=f"table-{self.id}")
        self.directory.subscribe(self.id, lambda message: self.post(self._deliver, message))

    @property
    def id(self) -> int:
        return self.info.id

    def post(self, handler: Callable[..., Awaitable[None] | None], *args: Any) -> None:
        """Queue ``handler(*args)`` to run in the table's task."""
        self._inbox.append((handler, args))
        wakeup = self._wakeup
        if wakeup is not None:
            self._wakeup = None
            if not wakeup.done():
                wakeup.set_result(None)

    async def call(self, handler: Callable[..., Awaitable[Any] | Any], *args: Any) -> Any:
        """Run ``handler(*args)`` in the table's task and return its result."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        async def job() -> None:
            try:
                result = handler(*args)
                if asyncio.iscoroutine(result):
                    result = await result
                future.set_result(result)
            except Exception as exc:
                future.set_exception(exc)

        self.post(job)
        return await future

    async def _run(self) -> None:
        inbox = self._inbox
        loop = self._loop
        assert loop is not None
        while True:
            if not inbox:
                self._wakeup = loop.create_future()
                await self._wakeup
                continue
            handler, args = inbox.popleft()
            self._busy = True
            try:
                result = handler(*args)
                if result is not None:  # a coroutine (handlers are plain or async)
                    await result
                await self._pump()
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug in one message must not take the table down
                log.exception("table %s: handler %s failed", self.id, handler)
            finally:
                self._busy = False
            if self.status == CLOSED and not inbox:
                return

    async def stopped(self) -> None:
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def idle(self) -> bool:
        """Nothing queued for the table, nothing being handled (a write it waits for
        included) and no bot thinking (tests wait for this)."""
        return not self._inbox and not self._busy and not self._bot_jobs

    # ================================================================ connections

    def connect(self, conn: Connection) -> None:
        self.post(self._connected, conn)

    def disconnect(self, conn: Connection) -> None:
        self.post(self._disconnected, conn)

    def receive(self, conn: Connection, message: Any) -> None:
        self.post(self._received, conn, message)

    def _connected(self, conn: Connection) -> None:
        seat = self._seat_of(conn.user.id)
        if seat is not None:
            old = self.seats[seat].conn
            if old is not None and old is not conn:
                old.send({"type": "error", "code": "replaced",
                          "message": "this seat was opened in another window"})
                old.close(4000, "replaced")
            self.seats[seat].conn = conn
            conn.seat = seat
        else:
            self.spectators.add(conn)
        conn.send(self._welcome(conn))
        if self.driver is not None:
            self._update_listeners()
            if seat is not None and self.driver.auto_reason[seat] == "offline":
                self.driver.take_back(seat, self.clock.now())
            self._snapshots[conn] = True  # joining mid-hand: a resync
            if self.status == BETWEEN and self.driver.round is None:
                self._send_last_result(conn)  # no hand to show (resumed between hands)
        if self._outage is not None and self._outage.told:
            conn.send(STORAGE_DOWN)  # what everyone here was told
        self._changed()

    def _disconnected(self, conn: Connection) -> None:
        conn.closed = True
        self._snapshots.pop(conn, None)
        self.spectators.discard(conn)
        seat = conn.seat
        if seat is None or self.seats[seat].conn is not conn:
            return
        state = self.seats[seat]
        state.conn = None
        if self.status == WAITING:
            self.seats[seat] = SeatState()  # a seat is kept only during a match
        elif self.driver is not None:
            self._update_listeners()
            if self.driver.modes[seat] == SeatMode.PLAYER:
                self.driver.set_mode(seat, SeatMode.AUTO, self.clock.now(), reason="offline")
        self._changed()

    def _seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user is not None and s.user.id == user_id and not s.escaped:
                return i
        return None

    def _update_listeners(self) -> None:
        if self.driver is None:
            return
        listeners: set[int | None] = {
            i for i, s in enumerate(self.seats) if s.conn is not None and not s.escaped
        }
        if self.spectators:
            listeners.add(None)
        self.driver.listeners = listeners

    # ================================================================ messages

    async def _received(self, conn: Connection, message: Any) -> None:
        handler = _HANDLERS.get(message.type)
        if handler is None:
            return
        try:
            result = handler(self, conn, message)
            if asyncio.iscoroutine(result):
                await result
        except Refused as exc:
            self.metrics.refused(exc.code)
            conn.refuse(exc.code, exc.message, self.id, getattr(message, "id", None),
                        strike=exc.code in STRIKE_CODES)

    def _on_sit(self, conn: Connection, msg: P.Sit) -> None:
        if self.status != WAITING:
            raise Refused("not_allowed", "seats are taken while the table is playing")
        if self._seat_of(conn.user.id) is not None:
            raise Refused("not_allowed", "you already have a seat here")
        free = [i for i, s in enumerate(self.seats) if s.empty]
        seat = msg.seat if msg.seat is not None else (free[0] if free else None)
        if seat is None or seat not in free:
            raise Refused("not_allowed", "that seat is taken")
        self.post(self._sit_checked, conn, seat)

    async def _sit_checked(self, conn: Connection, seat: int) -> None:
        """Sitting at a 银子 table needs the table's minimum balance (a database read)."""
        if self.config.stakes == "silver":
            balance = await self.db.read(lambda s: s.ledger.balance(conn.user.id))
            if balance < self.config.min_balance:
                conn.send({"type": "refused", "code": "not_allowed", "id": None,
                           "message": f"this table needs {self.config.min_balance} 银子"})
                return
        if self.status != WAITING or not self.seats[seat].empty or conn.closed:
            conn.send({"type": "refused", "code": "not_allowed", "id": None,
                       "message": "that seat is taken"})
            return
        if self._seat_of(conn.user.id) is not None:
            return
        self.spectators.discard(conn)
        self.seats[seat] = SeatState(user=conn.user, conn=conn)
        conn.seat = seat
        self._changed()

    async def _on_stand(self, conn: Connection, msg: P.Stand) -> None:
        seat = conn.seat
        if seat is None:
            raise Refused("not_allowed", "you have no seat here")
        if self.status == WAITING:
            self.seats[seat] = SeatState()
            conn.seat = None
            self.spectators.add(conn)
            self._changed()
            return
        if not msg.escape:
            raise Refused("not_allowed", "leaving during a match is an escape: send escape")
        try:
            await self._escape(seat, conn)
        except Exception as exc:  # the store failed: the seat stays; a retry pays once
            log.warning("table %s: an escape from seat %s could not be stored: %s", self.id,
                        seat, exc, exc_info=exc)
            raise Refused("not_allowed", "your leaving could not be recorded just now; you "
                          "still have your seat; try again") from None

    def _on_ready(self, conn: Connection, msg: P.Ready) -> None:
        seat = conn.seat
        if seat is None or self.status == PLAYING:
            raise Refused("not_allowed", "nothing to be ready for")
        self.seats[seat].ready = msg.ready
        self._changed()
        self._maybe_start()

    def _on_start(self, conn: Connection, msg: P.Start) -> None:
        if conn.user.id != self.info.host or self.status != WAITING:
            raise Refused("not_allowed", "only the host starts, before the match")
        if msg.bots:
            self._fill_bots()
        if any(s.empty for s in self.seats):
            raise Refused("not_allowed", "four seats must be taken")
        if conn.seat is not None:
            self.seats[conn.seat].ready = True
        if not self._all_ready():
            raise Refused("not_allowed", "every player must be ready")
        self._changed()
        self._maybe_start()

    def _on_add_bots(self, conn: Connection, msg: P.AddBots) -> None:
        if self.status != WAITING or conn.seat is None:
            raise Refused("not_allowed", "bots are added by a seated player before the match")
        self._fill_bots()
        self._changed()
        self._maybe_start()

    def _fill_bots(self) -> None:
        for i, s in enumerate(self.seats):
            if s.empty:
                self.seats[i] = SeatState(bot=True, ready=True)

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
            raise Refused("not_allowed", "you have no seat in play here")
        if self.seats[conn.seat].escaped:
            raise Refused("not_allowed", "you left this match")
        self.driver.take_back(conn.seat, self.clock.now())

    def _on_chat(self, conn: Connection, msg: P.Chat) -> None:
        if conn.seat is None:
            raise Refused("not_allowed", "spectators read the chat")
        text, phrase = chat_text(msg.text, msg.phrase)
        if not self.chat.allow(conn.user.id):
            raise Refused("rate_limited", "too many chat messages; wait a moment")
        out = {"type": "chat", "seat": conn.seat, "name": conn.user.name, "text": text,
               "phrase": phrase}
        self.directory.publish(self.id, out)

    def _deliver(self, message: dict[str, Any]) -> None:
        """A table-wide message from the directory (chat) to everyone here."""
        for conn in self._connections():
            conn.send(message)

    def _on_ping(self, conn: Connection, msg: P.Ping) -> None:
        conn.send({"type": "pong", "id": msg.id})

    def _on_hello(self, conn: Connection, msg: P.Hello) -> None:
        raise Refused("protocol", "hello is the first message only")

    # ================================================================ the match

    def _all_ready(self) -> bool:
        return all(s.bot or s.ready for s in self.seats)

    def _maybe_start(self) -> None:
        if self.status == WAITING and not any(s.empty for s in self.seats) and self._all_ready():
            self.post(self._start_match)
        elif self.status == BETWEEN and self._between_ready():
            self.post(self._next_hand)

    def _between_ready(self) -> bool:
        assert self.driver is not None
        # after a restart the people are offline through no doing of theirs: wait for them
        wait_offline = self._restart_grace is not None and self.clock.now() < self._restart_grace
        for i, s in enumerate(self.seats):
            if s.kind != "person":
                continue
            if self.driver.modes[i] == SeatMode.PLAYER and not s.ready:
                return False
            if wait_offline and self.driver.auto_reason[i] == "offline":
                return False
        return True

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
            info = await self.db.write(lambda s: s.tables.start_match(self.id, seats, state))
        except Exception as exc:
            self._store_failed(exc, f"the start of a match at table {self.id}")
            return
        self._store_ok()
        modes = [SeatMode.BOT if s.bot else SeatMode.PLAYER for s in self.seats]
        self.driver = TableDriver(match, timing=cfg.timing, modes=modes,
                                  first_seq=self._last_seq + 1)
        self.driver.on_applied = self._applied
        self.match_id = info.id
        self.status = BETWEEN
        await self._next_hand()

    def _seat_users(self) -> list[int | None]:
        return [None if s.user is None or s.escaped else s.user.id for s in self.seats]

    async def _next_hand(self) -> None:
        if self.driver is None or self.status not in (BETWEEN,):
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
                                      seed=seed, setup=setup, seats=seats)
        except Exception as exc:
            self._store_failed(exc, f"the deal of hand {number} of match {match_id}")
            return
        self._deal_seed = None
        self._store_ok()
        self._last_result = None
        self._restart_grace = None
        self.hand = _Hand(info.id, number)
        for s in self.seats:
            s.ready = s.bot
        self._between_deadline = None
        self.status = PLAYING
        self._update_listeners()
        self.driver.start_hand(seed, self.clock.now())
        for conn in self._connections():
            self._snapshots[conn] = False
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
        state = driver.match.state()
        status = "ended" if match_over else None
        try:  # once only, however often it is tried (the ledger's key is the hand's)
            finished = await self.db.call("hands.finish", hand_id, record, result,
                                          settle=settle, match_state=state,
                                          match_status=status)
        except Exception as exc:
            self._store_failed(exc, f"the end of hand {hand_id}")
            return
        self._store_ok()
        outcome = finished.settlement
        self.hand = None
        self._last_seq = driver.next_seq
        for i, s in enumerate(self.seats):
            if s.escaped:  # the escaper paid this hand; from now on the house's bot plays
                self.seats[i] = SeatState(bot=True, ready=True)
        self._send_hand_result(hand_id, hand.number, outcome, match_over)
        self.metrics.hand_finished()
        if match_over:
            await self._end_match()
        else:
            self.status = BETWEEN
            limit = self.config.timing.between_hands
            self._between_deadline = None if limit is None else self.clock.now() + limit
            self._maybe_start()
        self._changed()

    def _send_hand_result(
        self, hand_id: int, number: int, outcome: Any, match_over: bool
    ) -> None:
        assert self.driver is not None
        base = {
            "type": "hand_result",
            "hand_id": hand_id,
            "number": number,
            "totals": list(self.driver.match.totals),
            "silver": None,
            "match_over": match_over,
        }
        self._last_result = (base, _silver_changes(outcome))
        for conn in self._connections():
            self._send_last_result(conn)

    def _send_last_result(self, conn: Connection) -> None:
        """The last hand's ``hand_result`` as ``conn`` may see it (its own balance only)."""
        if self._last_result is None:
            return
        base, changes = self._last_result
        message = dict(base)
        if changes is not None:
            message["silver"] = [
                {**c, "balance": c["balance"] if conn.seat == c["seat"] else None}
                for c in changes
            ]
        conn.send(message)

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

    async def _escape(self, seat: int, conn: Connection) -> None:
        """A person leaves mid-match: a bot plays the seat; at a 银子 table they pay the
        hand as it ends and the escape penalty now, which goes to the others."""
        assert self.driver is not None
        state = self.seats[seat]
        user = state.user
        assert user is not None
        if self.config.stakes == "silver" and self.config.escape_penalty:
            others = [None if s.user is None or s.escaped else s.user.id
                      for i, s in enumerate(self.seats) if i != seat]
            key = f"escape:{self.match_id}:{self.driver.match.hand_number + 1}:{seat}"
            penalty = self.config.escape_penalty
            await self.db.write(lambda s: s.ledger.escape(key, user.id, penalty, others))
        if self.match_id is not None:  # a restart must not seat them again
            match_id = self.match_id
            seats = [None if i == seat else u for i, u in enumerate(self._seat_users())]
            await self.db.write(lambda s: s.tables.save_match(match_id, seats=seats))
        state.escaped = True
        state.conn = None
        conn.seat = None
        self.spectators.add(conn)
        if self.status == BETWEEN:
            self.seats[seat] = SeatState(bot=True, ready=True)
        self.driver.set_mode(seat, SeatMode.BOT, self.clock.now(), reason="escaped")
        self._update_listeners()
        self._changed()
        self._maybe_start()

    # ================================================================ after every message

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
        if driver is not None and self.status == PLAYING:
            driver.advance(now)
            for turn in driver.bot_turns(now):
                self._start_bot(turn)
            if not await self._save_actions():
                self._schedule()  # what they caused is held until they are stored
                return
            self._send_outbox()
            self._send_snapshots()
            if driver.hand_over and driver.idle and self.hand is not None:
                await self._finish_hand()
        elif driver is not None:
            self._send_outbox()
            self._send_snapshots()
            if (
                self.status == BETWEEN
                and self._between_deadline is not None
                and now >= self._between_deadline
            ):
                for s in self.seats:
                    s.ready = True
                self._maybe_start()
        self._schedule()

    async def _save_actions(self) -> bool:
        """Store the actions not yet stored; False if the store failed (they are kept, to
        be tried again, and nothing they caused may be sent)."""
        hand = self.hand
        if hand is None or not hand.unsaved:
            return True
        rows = list(hand.unsaved)
        try:
            await self.db.append_actions(hand.id, rows)
        except Exception as exc:
            self._store_failed(exc, f"{len(rows)} actions of hand {hand.id}")
            return False
        del hand.unsaved[: len(rows)]
        if self._outage is not None:
            self._store_ok()
        return True

    def _store_failed(self, exc: Exception, what: str) -> None:
        """A write failed: the table stands still and tries again with backoff; once it has
        failed for ``TELL_AFTER`` seconds everyone here is told (a notice that says only
        that) and the log says so."""
        now = self.clock.now()
        outage = self._outage
        if outage is None:
            outage = self._outage = _Outage(now)
            log.warning("table %s: storing %s failed: %s; trying again", self.id, what, exc,
                        exc_info=exc)
        outage.failures += 1
        outage.retry_at = now + min(RETRY_MAX, RETRY_FIRST * 2 ** (outage.failures - 1))
        if not outage.told and now - outage.since >= TELL_AFTER:
            outage.told = True
            log.error("table %s: the store has failed for %.1f s (%d attempts, %s: %s); the "
                      "table waits", self.id, now - outage.since, outage.failures, what, exc)
            for conn in self._connections():
                conn.send(STORAGE_DOWN)

    def _store_ok(self) -> None:
        """A write succeeded after an outage: the table goes on where it stood (its times
        move by the outage, so nobody lost time), with the answers that came meanwhile."""
        outage = self._outage
        if outage is None:
            return
        self._outage = None
        waited = self.clock.now() - outage.since
        if self.driver is not None:
            self.driver.delay(waited)
        log.warning("table %s: the store is back after %.1f s (%d failed attempts)", self.id,
                    waited, outage.failures)
        if outage.told:
            for conn in self._connections():
                conn.send(STORAGE_BACK)
        for handler, args in outage.deferred:
            self.post(handler, *args)

    def _send_outbox(self) -> None:
        assert self.driver is not None
        now = self.clock.now()
        for conn, ack, started in self._acks:
            conn.send(ack)
            self.metrics.latency.observe(now - started)
        self._acks.clear()
        encoded: dict[int, str] = {}  # a message shared by several seats is encoded once
        for recipient, message in self.driver.drain():
            text = encoded.get(id(message))
            if text is None:
                text = encoded[id(message)] = P.encode(message)
            if recipient is None:
                for conn in self.spectators:
                    conn.send_text(text)
            else:
                conn = self.seats[recipient].conn
                if conn is not None:
                    conn.send_text(text)

    def _send_snapshots(self) -> None:
        driver = self.driver
        if driver is None or not self._snapshots:
            return
        for conn in list(self._snapshots):
            if conn.closed:
                del self._snapshots[conn]
                continue
            recipient = conn.seat
            if driver.round is None or not driver.snapshot_ready(recipient):
                continue
            resync = self._snapshots.pop(conn)
            snap = driver.snapshot(recipient, self.clock.now())
            snap["hand_id"] = self.hand.id if self.hand is not None else None
            snap["resync"] = resync
            conn.send(snap)
            if resync and self.status == BETWEEN:
                self._send_last_result(conn)  # a reload during the settlement sees it again

    def _schedule(self) -> None:
        """Set the table's one timer to the next moment it has something to do."""
        wake: float | None = None
        if self._outage is not None:
            wake = self._outage.retry_at  # nothing else moves before the store is back
        elif self.driver is not None and self.status == PLAYING:
            wake = self.driver.next_wakeup()
        elif self.status == BETWEEN and self._between_deadline is not None:
            wake = self._between_deadline
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

    # ================================================================ bots

    def _start_bot(self, turn: BotTurn) -> None:
        name = self.config.bot if turn.mode == SeatMode.BOT else "tuoguan"
        hand_id = self.hand.id if self.hand is not None else 0
        digest = hashlib.sha256(f"baida-bot:{self.id}:{hand_id}:{turn.seq}".encode()).digest()
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

    # ================================================================ operator

    async def close(self, reason: str = "closed by the operator") -> None:
        """Stop the table: a hand in play is voided (balances untouched)."""
        if self.hand is not None:
            hand_id = self.hand.id
            await self.db.write(lambda s: s.hands.void(hand_id, "table closed"))
            self.hand = None
        if self.match_id is not None and self.driver is not None:
            state = self.driver.match.state()
            match_id = self.match_id
            await self.db.write(
                lambda s: s.tables.save_match(match_id, state=state, status="ended")
            )
        self.status = CLOSED
        self.driver = None
        for conn in self._connections():
            conn.send({"type": "error", "code": "closed", "message": reason})
            conn.close(1000, "closed")
        for task in list(self._bot_jobs):
            task.cancel()
        if self._timer is not None:
            self._timer.cancel()
        self._changed()

    # ================================================================ restart

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
        self.hand = _Hand(hand.hand_id, hand.number)
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

    # ================================================================ messages out

    def _connections(self) -> list[Connection]:
        out = [s.conn for s in self.seats if s.conn is not None]
        out.extend(self.spectators)
        return out

    def _changed(self) -> None:
        """Tell everyone at the table (and the lobby) what the table looks like now."""
        summary = self.table_json()
        text = P.encode({"type": "table", "table": summary})  # the same for every seat
        for conn in self._connections():
            conn.send_text(text)
        if self.on_change is not None:
            self.on_change(self, summary)

    def _welcome(self, conn: Connection) -> dict[str, Any]:
        return {
            "type": "welcome",
            "protocol": P.PROTOCOL,
            "user": {"id": conn.user.id, "name": conn.user.name},
            "seat": conn.seat,
            "table": self.table_json(),
        }

    def table_json(self) -> dict[str, Any]:
        cfg = self.config
        driver = self.driver
        seats = []
        for i, s in enumerate(self.seats):
            mode = "bot" if s.kind == "bot" else "player"
            reason = None
            if driver is not None:
                mode = driver.modes[i].value
                reason = driver.auto_reason[i]
            seats.append({
                "seat": i,
                "user": None if s.user is None or s.escaped else s.user.id,
                "name": _seat_name(s),
                "kind": s.kind,
                "ready": s.ready or s.bot,
                "mode": mode,
                "connected": s.conn is not None,
                "auto_reason": reason,
            })
        return {
            "id": self.id,
            "number": self.info.number,
            "name": self.info.name,
            "ruleset": cfg.ruleset,
            "options": cfg.options,
            "base": cfg.base,
            "fee": cfg.fee,
            "stakes": cfg.stakes,
            "length": cfg.length_json(),
            "private": cfg.private,
            "room_code": self.info.room_code,
            "host": self.info.host,
            "status": self.status,
            "timing": cfg.timing.to_json(),
            "seats": seats,
            "spectators": len(self.spectators),
            "match": driver.match.to_json() if driver is not None else None,
            "badges": cfg.badges(),
        }

    async def expel(self, user_id: int, code: str, message: str) -> None:
        """Close every connection of ``user_id`` here (an ``error`` ``code`` first, e.g. a
        suspension). A seat they hold goes as an escape does during a match (a bot plays on;
        at a 银子 table the hand and the escape penalty are theirs to pay) and is freed
        before one."""
        conns = [c for c in self._connections() if c.user.id == user_id]
        seat = self._seat_of(user_id)
        if seat is not None and self.status == WAITING:
            self.seats[seat] = SeatState()
        elif seat is not None and self.driver is not None:
            held = self.seats[seat].conn
            if held is None:  # offline (on 托管): _escape wants a connection to move
                held = Connection(self.seats[seat].user, _GONE, self.clock.now)
                held.closed = True
            await self._escape(seat, held)
            self.spectators.discard(held)
        for conn in conns:
            self.spectators.discard(conn)
            self._snapshots.pop(conn, None)
            conn.seat = None
            conn.send({"type": "error", "code": code, "message": message})
            conn.close(4403, code)
        self._update_listeners()
        self._changed()


class _GoneWriter:
    """The socket of a connection that is already gone: writes nothing."""

    def write_text(self, text: str) -> None:
        pass

    def write_texts(self, texts: list[str]) -> None:
        pass

    def close(self, code: int, reason: str) -> None:
        pass

    def unread(self) -> int:
        return 0


_GONE = _GoneWriter()


def _seat_name(s: SeatState) -> str | None:
    if s.user is not None and not s.escaped:
        return s.user.name
    return "bot" if s.kind == "bot" else None


def _silver_changes(settlement: Any) -> list[dict[str, Any]] | None:
    """The ledger's per-seat outcome as the protocol's ``silver`` list."""
    if settlement is None:
        return None
    return [
        {"seat": seat, "owed": row.owed, "paid": row.amount, "fee": row.fee,
         "balance": row.balance_after}
        for seat, row in enumerate(settlement.seats)
    ]


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


_HANDLERS: dict[str, Callable[[TableActor, Connection, Any], Any]] = {
    "hello": TableActor._on_hello,
    "sit": TableActor._on_sit,
    "stand": TableActor._on_stand,
    "ready": TableActor._on_ready,
    "start": TableActor._on_start,
    "add_bots": TableActor._on_add_bots,
    "act": TableActor._on_act,
    "resume": TableActor._on_resume,
    "chat": TableActor._on_chat,
    "ping": TableActor._on_ping,
}
