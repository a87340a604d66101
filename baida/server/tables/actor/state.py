"""What one table holds: who sits where, the match and the hand in play, the inbox; and the
questions every part of the actor asks of its seats."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ....table import TableDriver
from ...directory.in_process import Directory
from ...ops.metrics import Metrics
from ...store.leases import Fence
from ..botpool import BotPool
from ..chat import ChatLimiter, ChatRecord, ReportQuota
from ..chat_filter import ChatWordList
from ..clock import Clock, TimerHandle
from ..config import TableConfig
from ..connection import Connection, User
from ..hall_store import HallStore
from ..pace import UNATTENDED_PACE

WAITING, PLAYING, BETWEEN, CLOSED = "waiting", "playing", "between", "closed"
# seconds a person whose connection closed between hands is still waited for before the
# next deal (a reload, a network change): their seat is not dealt to 托管 while they come back
RECONNECT_GRACE = 5.0
# seconds a match plays on with no person connected (every seat a bot, or 托管 for people
# gone; no watcher) before it ends, at the end of its hand in play, as abandoned
DESERTED_SECONDS = 600.0
MATCH_ABANDONED = {"type": "notice", "code": "match_abandoned",
                   "message": "your match here ended while nobody was at the table: every "
                              "hand played in it is settled"}


@dataclass(slots=True)
class SeatState:
    """Who sits in one seat."""

    user: User | None = None  # a person (None: empty or a bot)
    bot: bool = False
    ready: bool = False
    conn: Connection | None = None
    escaped: bool = False  # the person left mid-match; a bot plays on
    left_at: float | None = None  # when the person's connection closed (None: connected)

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
    lease: Fence | None = None  # a node of several: the table's lease, carried by its writes
    player_made: bool = False  # a player's table, not one of the hall's numbered ones


@dataclass(slots=True)
class Outage:
    """The store failed a write: the table stands still until a write succeeds."""

    since: float
    failures: int = 0
    retry_at: float = 0.0
    told: bool = False
    # answers that came meanwhile (a person's act, a bot's), handled when the store is back
    deferred: list[tuple[Callable[..., Any], tuple[Any, ...]]] = field(default_factory=list)


@dataclass(slots=True)
class HandInPlay:
    """The stored identity of the hand in play."""

    id: int
    number: int
    unsaved: list[tuple[int, str]] = field(default_factory=list)  # (index, action JSON text)
    # whether its end ends a deserted match: decided at the first try to store the end, kept
    # for the retries (a retry's answer may be of the first try, which the store kept)
    deserted: bool | None = None


class TableState:
    """The state of one table, read and changed by its own task only (see ``table``)."""

    def __init__(
        self,
        info: TableInfo,
        *,
        clock: Clock,
        db: HallStore,
        bots: BotPool,
        metrics: Metrics,
        directory: Directory,
        on_change: Callable[[TableState, dict[str, Any]], None] | None = None,
        chat_filter: ChatWordList | None = None,
    ) -> None:
        self.info = info
        self.chat_filter = chat_filter
        self.config = info.config
        self.clock = clock
        self.db = db
        self.bots = bots
        self.metrics = metrics
        self.directory = directory
        self.on_change = on_change
        # its node drains: no next hand here, the table moves between hands
        self.holding = False
        # the least seconds between two bot decisions while nobody is connected (the hall's)
        self.unattended_pace = UNATTENDED_PACE
        # the reports a person may file an hour at all the node's tables (the hall's)
        self.report_quota: ReportQuota | None = None
        # a write was refused because another node took the table over (the hall lets it go)
        self.on_lost: Callable[[int], None] | None = None
        # a write the store refused as invalid, which no retry can pass (the hall closes it)
        self.on_refused: Callable[[int, str], None] | None = None
        # a quick-play table (one person and three bots): "quick", or "practice" (the guide's)
        self.quick: str | None = None
        self.seats = [SeatState() for _ in range(4)]
        self.spectators: set[Connection] = set()
        self.status = WAITING
        self.driver: TableDriver | None = None
        self.match_id: int | None = None
        self.hand: HandInPlay | None = None
        self.chat = ChatLimiter(clock.now)
        self.chat_record = ChatRecord(clock.now)
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
        # acks wait, like everything else an action causes, until the action is durable
        self._acks: list[tuple[Connection, dict[str, Any], float]] = []
        self._outage: Outage | None = None  # the store is failing: nothing moves
        self._deal_seed: tuple[int, int, bytes] | None = None  # (match, hand, seed) to store
        # the last hand's result between hands (sent again to whoever reconnects then):
        # the message without ``silver``, and each seat's 银子 change
        self._last_result: tuple[dict[str, Any], list[dict[str, Any]] | None] | None = None
        # resumed between hands after a restart: until then the deal waits for the people
        self._restart_grace: float | None = None
        self._unattended_since: float | None = None  # no person connected since, in a hand
        self._abandoned: set[int] = set()  # the people of a match ended for want of them

    @property
    def id(self) -> int:
        return self.info.id

    def _fence(self) -> dict[str, Any]:
        """The ``fence`` keyword of the table's deal and hand end (none when alone)."""
        lease = self.info.lease
        return {} if lease is None else {"fence": lease}

    def post(self, handler: Callable[..., Awaitable[None] | None], *args: Any) -> None:
        """Queue ``handler(*args)`` to run in the table's task."""
        self._inbox.append((handler, args))
        wakeup = self._wakeup
        if wakeup is not None:
            self._wakeup = None
            if not wakeup.done():
                wakeup.set_result(None)

    def _seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user is not None and s.user.id == user_id and not s.escaped:
                return i
        return None

    def _seat_users(self) -> list[int | None]:
        return [None if s.user is None or s.escaped else s.user.id for s in self.seats]

    def _all_ready(self) -> bool:
        return all(s.bot or s.ready for s in self.seats)

    def _connections(self) -> list[Connection]:
        out = [s.conn for s in self.seats if s.conn is not None]
        out.extend(self.spectators)
        return out

    def _attended(self) -> bool:
        """Whether a person is connected to the table: in a seat, or watching."""
        return bool(self.spectators) or any(s.conn is not None for s in self.seats)

    def _deserted(self) -> bool:
        """Whether the hand in play has had no person connected for ``DESERTED_SECONDS``."""
        since = self._unattended_since
        return since is not None and self.clock.now() - since >= DESERTED_SECONDS

    def _update_listeners(self) -> None:
        if self.driver is None:
            return
        # a connection that joined mid-hand hears nothing of the game before its snapshot
        waiting = self._snapshots
        listeners: set[int | None] = {
            i for i, s in enumerate(self.seats)
            if s.conn is not None and not s.escaped and waiting.get(s.conn) is not True
        }
        if any(waiting.get(c) is not True for c in self.spectators):
            listeners.add(None)
        self.driver.listeners = listeners

    async def _received(self, conn: Connection, message: Any) -> None:
        """Handle one message of a client (the actor's dispatch: ``table.TableActor``; an act
        deferred through a storage outage comes back through it)."""
        raise NotImplementedError
