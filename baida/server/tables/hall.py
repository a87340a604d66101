"""The hall: every table of this node, the standing tables, private rooms, quick play, and
bringing back the hands that were in play when the server stopped."""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Callable
from typing import Any

from baida import rulesets

from ..directory.in_process import Directory, DirectoryUnavailable, InProcessDirectory
from ..nodes.role import NodeRole
from ..ops.logs import fields
from ..ops.metrics import Metrics
from ..store.leases import Fence
from ..store.writer import StoreWriter
from .actor import BETWEEN, CLOSED, PLAYING, WAITING, TableActor, TableInfo
from .botpool import BotPool
from .chat import ReportQuota
from .chat_filter import ChatWordList
from .clock import Clock
from .config import ConfigError, TableConfig, new_table_refusal
from .connection import User
from .idle import IDLE_SECONDS, IdleTables, unattended, unattended_summary
from .keyed_lock import HallLocks
from .pace import MIN_BOT_TIME, UNATTENDED_PACE, bot_time_refusal
from .standing import DEFAULT_STANDING, StandingTables, standing_configs

log = logging.getLogger(__name__)

ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
ROOM_CODE_LENGTH = 6
MAX_TABLES_PER_HOST = 3
# the first-hand guide's table: a newcomer reads each step while the hand goes on, so their
# own clocks are long (a turn's 12 s ran out under the first steps and 托管 took the seat)
PRACTICE_TIMING = {"turn": 120.0, "bank": 120.0, "claim": 30.0, "santan": 60.0,
                   "between_hands": 60.0}
DESCRIPTIONS_TTL = 1.0  # seconds a node reuses the shared directory's table summaries
MADE_ROOM = "its host opened another table"
ELSEWHERE_SECONDS = 2.0  # how long a host's request waits for another node to close a table
CLOSE_AGAIN = 5.0  # seconds before a table the store refused is closed again, if that failed


class HallError(ValueError):
    """A lobby request the hall refuses; the message is for the player, ``code`` for a page
    that says it in its own words."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


class Hall:
    """Every table this node owns."""

    def __init__(
        self,
        *,
        store: Any,
        db: StoreWriter,
        clock: Clock,
        bots: BotPool,
        metrics: Metrics,
        directory: Directory | None = None,
        role: NodeRole | None = None,
        standing: tuple[StandingTables, ...] = DEFAULT_STANDING,
        chat_filter: ChatWordList | None = None,
        unattended_pace: float = UNATTENDED_PACE,
        min_bot_time: float = MIN_BOT_TIME,
    ) -> None:
        self.store = store
        self.chat_filter = chat_filter
        self.unattended_pace = unattended_pace  # bots' floor at a table nobody is at
        self.min_bot_time = min_bot_time  # the least bot_turn of a table a player makes
        self.db = db
        self.clock = clock
        self.bots = bots
        self.metrics = metrics
        self.directory = directory or InProcessDirectory()
        self.role = role  # one node of several; None: the hall is this process
        self.node = role.name if role is not None else "node-1"
        self.standing = standing
        self.tables: dict[int, TableActor] = {}
        self.ownership: Any = None  # a node of several: its tables by lease (``Ownership``)
        self._jobs: set[Any] = set()  # other nodes' requests, closings, in progress
        # one table request of a host at a time, at every node
        self._hosting = HallLocks("host", self.directory.hall_lock)
        self.report_quota = ReportQuota(clock.now)  # reports an account may file an hour
        self._numbered: dict[str, int] = {}  # the highest number of an open table at start
        # table -> the hand in play, its round and its people by seat (for the logs)
        self._hands: dict[int, tuple[int, Any, list[int | None]]] = {}
        self._described: tuple[float, list[dict[str, Any]]] | None = None  # (read at, list)
        self.idle = IdleTables(clock, functools.partial(
            self._close_if_unattended, reason=f"nobody sat at it for {IDLE_SECONDS / 60:g} "
                                              "minutes"))
        metrics.on_scrape(self._count)  # counted when scraped, not at every change

    # ---------------------------------------------------------------- life

    async def open(self) -> None:
        """Load the open tables (creating the standing ones the first time) and resume the
        hands that were in play. A node of several takes its share of the tables by lease
        (``ownership``) and keeps taking over those of nodes that stop."""
        if self.role is not None:
            from .ownership import Ownership

            self.ownership = Ownership(self, self.role)
            await self.ownership.open()
            return
        await self.make_standing()
        open_ids: set[int] = set()
        for row in await self.db.read(lambda s: s.tables.list(status="open")):
            open_ids.add(row.id)
            if row.id not in self.tables:
                self._spawn(row)
        hands = await self.db.read(lambda s: s.hands.in_progress())
        await self.resume_hands([h for h in hands if h.table_id in self.tables
                                 or h.table_id not in open_ids])  # a closed table's: voided
        await self._resume_matches(list(self.tables.values()))

    async def make_standing(self) -> None:
        """The standing tables, the first time the hall runs on its database."""
        stored = await self.db.read(lambda s: s.tables.list(status="open"))
        for row in stored:
            self._numbered[row.ruleset] = max(self._numbered.get(row.ruleset, 0), row.number)
        if any(not t.config.get("player_made") for t in stored):
            return
        for number, cfg in sorted(standing_configs(self.standing),
                                  key=lambda nc: (nc[1].ruleset, nc[0])):
            await self._insert(cfg, host=None, player_made=False, number=number)

    async def close(self) -> None:
        self.idle.stop()
        for actor in list(self.tables.values()):
            actor.post(_stop_timers, actor)
            if self.role is not None:  # the next start's nodes claim them afresh
                self.directory.release_table(actor.id, self.node)
        self.tables.clear()
        if self.ownership is not None:
            await self.ownership.close()

    def let_go(self, table_id: int, reason: str) -> None:
        """Another node owns the table now: stop it here at once, writing nothing."""
        actor = self.tables.get(table_id)
        if actor is None:
            return
        actor.post(actor.let_go, reason)
        self.forget(table_id)

    def forget(self, table_id: int) -> None:
        """The table is no longer this node's (it was let go)."""
        self.tables.pop(table_id, None)
        self.directory.unsubscribe(table_id)
        self._hands.pop(table_id, None)
        if self.ownership is not None:
            self.ownership.keeper.epochs.pop(table_id, None)

    def peers(self) -> list[str]:
        """The other nodes of the hall."""
        if self.ownership is not None:
            return sorted(self.ownership.keeper.alive - {self.node})
        return []

    # ---------------------------------------------------------------- tables

    def _spawn(self, row: Any, lease: Fence | None = None, take: bool = False) -> TableActor:
        """Run a stored table here (``lease``: this node's, for its writes; ``take``: taken
        over from another node, whose entry in the directory goes)."""
        cfg = TableConfig.from_json(row.config["table"])
        info = TableInfo(row.id, row.number, row.config.get("name") or f"{row.number}",
                         cfg, host=row.config.get("host"), room_code=row.room_code,
                         lease=lease, player_made=bool(row.config.get("player_made")))
        actor = TableActor(info, clock=self.clock, db=self.db, bots=self.bots,
                           metrics=self.metrics, directory=self.directory,
                           on_change=self._table_changed, chat_filter=self.chat_filter)
        actor.on_lost = self._lost
        actor.on_refused = self._refused
        actor.unattended_pace = self.unattended_pace
        actor.report_quota = self.report_quota
        if take:
            before = self.directory.owner(row.id)
            if before is not None and before != self.node:
                self.directory.release_table(row.id, before)
        if not self.directory.claim_table(row.id, self.node):
            raise HallError(f"table {row.id} is owned by another node")
        if row.room_code and not self.directory.register_room(row.room_code, row.id):
            self.directory.release_table(row.id, self.node)
            raise HallError(f"table {row.id}: its room code is another table's")
        self.tables[row.id] = actor
        actor.start()
        self._table_changed(actor)
        log.info("table %s opened", row.id, extra=fields(
            "table_opened", table=row.id, ruleset=cfg.ruleset, number=row.number,
            private=cfg.private, host=info.host))
        return actor

    async def _create(self, cfg: TableConfig, host: User | None, player_made: bool,
                      number: int | None = None) -> TableActor:
        row = await self._insert(cfg, host, player_made, number)
        if self.ownership is None:
            return self._spawn(row)
        keeper = self.ownership.keeper
        epoch = await keeper.acquire(row.id)
        if epoch is None:
            raise HallError("the new table went to another node: open it from the lobby",
                            "table_elsewhere")
        return self._spawn(row, Fence(row.id, keeper.name, epoch))

    def _lost(self, table_id: int) -> None:
        """A write of the table was refused: another node took it over."""
        self.let_go(table_id, "table moved")

    def _refused(self, table_id: int, reason: str) -> None:
        """The store refused a write of the table as invalid: no retry can pass, so the
        table closes (``broken``), its hand voided: nobody pays it."""
        actor = self.tables.get(table_id)
        if actor is None or actor.status == CLOSED:
            return

        async def close() -> None:
            try:
                await actor.call(actor.close, reason, "broken")
            except Exception as exc:  # the store failed the closing's own writes: again later
                log.warning("table %s: closing it failed (%s); trying again in %.0f s",
                            table_id, exc, CLOSE_AGAIN)
                self.clock.call_at(self.clock.now() + CLOSE_AGAIN,
                                   lambda: self._refused(table_id, reason))
                return
            await self._closed(table_id, reason)

        self._run(close())

    async def _insert(self, cfg: TableConfig, host: User | None, player_made: bool,
                      number: int | None = None) -> Any:
        """Store a new table (its row); ``_spawn`` runs it."""
        if number is None:
            same = [a.info.number for a in self.tables.values()
                    if a.config.ruleset == cfg.ruleset]
            if self.role is not None:  # other nodes' tables count too
                same.append(self._numbered.get(cfg.ruleset, 0))
            floor = max(same, default=0)
            number = self.directory.next_number(cfg.ruleset, floor)
        code = _room_code(lambda c: self.directory.room(c) is not None) if cfg.private else None
        meta: dict[str, Any] = {"table": cfg.to_json(), "player_made": player_made,
                                "host": host.id if host else None, "name": None}
        if self.role is not None and player_made:
            meta["node"] = self.role.index  # it stays on this node across restarts
        return await self.db.write(
            lambda s: s.tables.create(
                cfg.ruleset, number, options=cfg.options, config=meta, room_code=code
            )
        )

    async def create_table(self, request: Any, host: User) -> TableActor:
        """A table a player asked for (validated ``TableConfig`` JSON). One host's requests
        are taken one at a time: counted together, requests sent at once each saw the tables
        of the host before any of them was made, and all were granted."""
        async with self._hosting.hold(host.id):
            return await self._host_table(request, host)

    async def _host_table(self, request: Any, host: User) -> TableActor:
        cfg = TableConfig.from_json(request)
        refusal = new_table_refusal(cfg) or bot_time_refusal(cfg.timing, self.min_bot_time)
        if refusal is not None:
            raise ConfigError(refusal)
        if self.ownership is not None and self.ownership.keeper.is_draining:
            raise HallError("this server is being stopped: try again in a moment", "stopping")
        mine = {a.id for a in self.tables.values() if a.info.host == host.id and a.status != CLOSED}
        elsewhere: dict[int, dict[str, Any]] = {}
        if self.role is not None:  # and at the other nodes (as far as the directory knows)
            elsewhere = {t["id"]: t for t in self.directory.descriptions()
                         if t.get("host") == host.id and t.get("status") != CLOSED
                         and t["id"] not in self.tables}
            mine |= set(elsewhere)
        for table_id in sorted(mine):  # those left with nobody at them go first, the oldest
            if len(mine) < MAX_TABLES_PER_HOST:  # first, as few as need be
                break
            actor = self.tables.get(table_id)
            if actor is not None:
                if unattended(actor) and await self._close_if_unattended(table_id, MADE_ROOM):
                    mine.discard(table_id)
            elif unattended_summary(elsewhere[table_id]):
                if not await self._closed_elsewhere(table_id):
                    break  # its node is slow or gone: asking it to close more would (later)
                mine.discard(table_id)  # close them all, and the request still be refused
        if len(mine) >= MAX_TABLES_PER_HOST:
            raise HallError(f"you may host at most {MAX_TABLES_PER_HOST} tables at once",
                            "host_limit")
        return await self._create(cfg, host, player_made=True)

    async def _closed_elsewhere(self, table_id: int) -> bool:
        """Ask the node of ``table_id`` to close it if nobody sits there; whether it did
        (its description gone from the directory) within ``ELSEWHERE_SECONDS``."""
        try:
            owner = self.directory.owner(table_id)
            if owner is None or owner == self.node:
                return False
            self.directory.send(owner, {"op": "close_unattended", "table": table_id,
                                        "reason": MADE_ROOM})
            for _ in range(round(ELSEWHERE_SECONDS / 0.05)):
                await asyncio.sleep(0.05)
                if self.directory.description(table_id) is None:
                    return True
        except DirectoryUnavailable:
            pass
        return False

    async def quick_play(self, user: User, ruleset: str, practice: bool = False) -> TableActor:
        """A private 积分 table with three bots, for one person to sit at at once (the one
        they already have, if open). ``practice``: the first-hand guide's table, where the
        person reads while they play, with ``PRACTICE_TIMING``; a table of its own."""
        if ruleset not in rulesets.names():
            raise ConfigError(f"ruleset: {rulesets.expected_names()}")
        kind = "practice" if practice else "quick"
        async with self._hosting.hold(user.id):
            for actor in self.tables.values():
                if actor.info.host == user.id and actor.config.private and actor.status != CLOSED:
                    if actor.config.ruleset == ruleset and actor.quick == kind:
                        return actor
            config: dict[str, Any] = {"ruleset": ruleset, "private": True, "stakes": "points",
                                      "hands": 4}
            if practice:
                config["timing"] = PRACTICE_TIMING
            actor = await self._host_table(config, user)
            actor.quick = kind
            return actor

    def get(self, table_id: int) -> TableActor | None:
        actor = self.tables.get(table_id)
        return None if actor is None or actor.status == CLOSED else actor

    def admit(self, table_id: int, user: User) -> None:
        """``user`` gave the private table's room code: they may open its socket."""
        self.directory.admit(table_id, user.id)

    def describe(self, table_id: int) -> dict[str, Any] | None:
        """A table as the lobby's API shows it, whichever node owns it."""
        actor = self.get(table_id)
        if actor is not None:
            return actor.table_json()
        if self.role is None:
            return None
        return self.directory.description(table_id)

    def describe_room(self, code: str) -> dict[str, Any] | None:
        """The table of a room code, whichever node owns it."""
        table_id = self.directory.room(code)
        return None if table_id is None else self.describe(table_id)

    def may_open(self, actor: TableActor, user: User) -> bool:
        """Whether ``user`` may open the table's socket: anyone at a public table; at a
        private one its host, the people admitted by its room code and those seated there."""
        if not actor.config.private:
            return True
        if user.id == actor.info.host or self.directory.admitted(actor.id, user.id):
            return True
        return any(s.user is not None and s.user.id == user.id for s in actor.seats)

    def seated_tables(self, user_id: int) -> list[dict[str, Any]]:
        """The tables, of any node, where ``user_id`` holds a seat in a match in progress
        (away or not: 托管 plays it until they come back), as the lobby's "return to your
        table" lists them."""
        out = []
        for table in self._descriptions():
            if table.get("status") not in (PLAYING, BETWEEN):
                continue
            for seat in table.get("seats", ()):
                if seat.get("user") == user_id and seat.get("kind") == "person":
                    out.append({"id": table["id"], "number": table["number"],
                                "ruleset": table["ruleset"], "stakes": table["stakes"],
                                "private": table["private"], "status": table["status"],
                                "seat": seat["seat"], "mode": seat.get("mode")})
                    break
        return sorted(out, key=lambda t: t["id"])

    def _descriptions(self) -> list[dict[str, Any]]:
        """Every table's summary. Of several nodes (a shared directory: one read of every
        summary), the list is read at most once a second and shared by the lobby's polls."""
        if self.role is None:
            return self.directory.descriptions()
        now = self.clock.now()
        if self._described is None or now - self._described[0] >= DESCRIPTIONS_TTL:
            self._described = (now, self.directory.descriptions())
        return self._described[1]

    def lobby(self) -> list[dict[str, Any]]:
        """The public tables as the lobby lists them (private ones are reached by code)."""
        return self.directory.lobby()

    def _table_changed(self, actor: TableActor, summary: dict[str, Any] | None = None) -> None:
        """A table changed (``summary``: its ``table_json``, when the table has made it): its
        lobby entry and description follow, and the start and end of its hands are logged."""
        self._publish(actor, summary)
        self._log_hands(actor)
        self.idle.watch(actor)
        driver = actor.driver
        if driver is not None and driver.on_mode is None:
            driver.on_mode = functools.partial(self._seat_mode, actor)

    def _publish(self, actor: TableActor, summary: dict[str, Any] | None = None) -> None:
        """The table's lobby entry (public tables only) and its description follow it."""
        if summary is None:
            summary = actor.table_json()
        if actor.config.private or actor.status == CLOSED:
            self.directory.unlist_table(actor.id)
        else:
            self.directory.list_table(actor.id, summary)
        if actor.status != CLOSED:
            self.directory.describe_table(actor.id, summary)

    def _log_hands(self, actor: TableActor) -> None:
        hand = actor.hand.id if actor.hand is not None else None
        last = self._hands.get(actor.id)
        if hand == (last[0] if last is not None else None):
            return
        if last is not None:
            ended, rnd, users = last
            result = rnd.result if rnd is not None and rnd.ended else None
            log.info("table %s: hand %s ended", actor.id, ended, extra=fields(
                "hand_end", table=actor.id, hand=ended, users=users,
                outcome=None if result is None else result.outcome,
                winner=None if result is None else result.winner,
                payments=None if result is None else list(result.payments),
                voided=result is None))
        if hand is None:
            self._hands.pop(actor.id, None)
            return
        assert actor.hand is not None
        users = [None if s.user is None or s.escaped else s.user.id for s in actor.seats]
        rnd = actor.driver.round if actor.driver is not None else None
        self._hands[actor.id] = (hand, rnd, users)
        log.info("table %s: hand %s started", actor.id, hand, extra=fields(
            "hand_start", table=actor.id, hand=hand, number=actor.hand.number, users=users,
            match=actor.match_id))

    def _seat_mode(self, actor: TableActor, seat: int, mode: Any, reason: str | None) -> None:
        """A seat changed hands (the driver's hook): 托管 and bots taking seats are logged."""
        if actor.status != CLOSED:  # the lobby shows modes too
            self._publish(actor)
        value = getattr(mode, "value", mode)
        if value == "player":
            return
        user = actor.seats[seat].user
        log.info("table %s: seat %s to %s (%s)", actor.id, seat,
                 "托管" if value == "auto" else "a bot", reason, extra=fields(
                     "seat_auto" if value == "auto" else "seat_bot", table=actor.id,
                     hand=actor.hand.id if actor.hand is not None else None, seat=seat,
                     user=user.id if user is not None else None, reason=reason))

    async def suspend(self, user_id: int, message: str = "this account is suspended") -> int:
        """Close a suspended account's sockets at every table (``error`` ``suspended``); a
        seat it holds goes as an escape does (the bot plays on; at a 银子 table the hand in
        play and the escape penalty are its to pay). Returns how many tables it was at."""
        for node in self.peers():  # and at the other nodes' tables
            try:
                self.directory.send(node, {"op": "suspend", "user": user_id, "message": message})
            except DirectoryUnavailable:  # its session version voids it anyway
                log.warning("could not tell %s of a suspension: the directory is out", node)
        touched = 0
        for actor in list(self.tables.values()):
            if actor.status == CLOSED:
                continue
            here = any(s.user is not None and s.user.id == user_id for s in actor.seats) or any(
                c.user.id == user_id for c in actor.spectators)
            if here:
                touched += 1
                await actor.call(actor.expel, user_id, "suspended", message)
        return touched

    async def close_table(self, table_id: int, reason: str) -> bool:
        actor = self.tables.get(table_id)
        if actor is None and self.role is not None:  # another node's: ask it
            # (DirectoryUnavailable while Redis is out: the routes answer 503, try again)
            owner = self.directory.owner(table_id)
            if owner is None:
                return False
            self.directory.send(owner, {"op": "close_table", "table": table_id,
                                        "reason": reason})
            return True
        if actor is None or actor.status == CLOSED:
            return False
        await actor.call(actor.close, reason)
        await self._closed(table_id, reason)
        return True

    async def _close_if_unattended(self, table_id: int, reason: str) -> bool:
        """Close this node's table ``table_id`` if, looked at in its own task, nobody sits
        there between matches (``idle.unattended``)."""
        actor = self.tables.get(table_id)
        if actor is None or actor.status == CLOSED:
            return False

        async def close() -> bool:
            if not unattended(actor):
                return False
            await actor.close(reason, code="unattended")
            return True

        if not await actor.call(close):
            return False
        await self._closed(table_id, reason)
        return True

    async def _closed(self, table_id: int, reason: str) -> None:
        """What follows a table's own closing: its row, its lease, its directory entries."""
        await self.db.write(lambda s: s.tables.close(table_id))
        if self.ownership is not None:
            await self.ownership.keeper.release(table_id)
        self.directory.release_table(table_id, self.node)
        self.directory.unsubscribe(table_id)
        self._hands.pop(table_id, None)
        log.info("table %s closed: %s", table_id, reason, extra=fields(
            "table_closed", table=table_id, reason=reason))

    def on_message(self, message: dict[str, Any]) -> None:
        """Another node asks for one of this node's tables (the operator's requests)."""
        op = message.get("op")
        if op == "close_table" and isinstance(message.get("table"), int):
            job: Any = self.close_table(message["table"], str(message.get("reason") or ""))
        elif op == "close_unattended" and isinstance(message.get("table"), int):
            job = self._close_if_unattended(message["table"], str(message.get("reason") or ""))
        elif op == "suspend" and isinstance(message.get("user"), int):
            job = self.suspend(message["user"], str(message.get("message") or "suspended"))
        else:
            log.warning("a message from another node not understood: %r", message)
            return
        self._run(job)

    @property
    def jobs_running(self) -> bool:
        """Whether a job of ``_run`` (a closing, another node's request) is still running."""
        return bool(self._jobs)

    def _run(self, job: Any) -> None:
        """Run ``job`` in its own task, kept until it is done; an error is logged."""
        def done(task: Any) -> None:
            self._jobs.discard(task)
            if not task.cancelled() and task.exception() is not None:
                log.error("a hall job failed: %s", task.exception(), exc_info=task.exception())

        task = asyncio.get_running_loop().create_task(job)
        self._jobs.add(task)
        task.add_done_callback(done)

    # ---------------------------------------------------------------- restart

    async def resume_hands(self, hands: list[Any]) -> None:
        """Resume the unfinished hands of tables (the store's ``ResumableHand``s): one per
        table, its newest; an older one (a stray, say of an owner that was fenced out) is
        closed as abandoned (voided: no 银子 moves) and logged."""
        newest, strays = split_strays(hands)
        for hand in strays:
            keep = newest[hand.table_id]
            log.warning("table %s: hand %s (match %s, number %s) is older than hand %s, "
                        "also unfinished: abandoned", hand.table_id, hand.hand_id,
                        hand.match_id, hand.number, keep.hand_id, extra=fields(
                            "hand_abandoned", table=hand.table_id, hand=hand.hand_id,
                            match=hand.match_id, newest=keep.hand_id))
            await self.db.write(lambda s, h=hand.hand_id: s.hands.void(
                h, "abandoned: a newer hand of its table is in play"))
            if hand.match_id != keep.match_id:
                await self.db.write(lambda s, m=hand.match_id: s.tables.save_match(
                    m, status="abandoned"))
        for hand in newest.values():
            await self._resume(hand)

    async def _resume(self, hand: Any) -> None:
        actor = self.tables.get(hand.table_id)
        if actor is None:
            log.warning("hand %s of a closed table %s: voided", hand.hand_id, hand.table_id)
            await self.db.write(lambda s: s.hands.void(hand.hand_id, "table closed"))
            await self.db.write(
                lambda s: s.tables.save_match(hand.match_id, status="abandoned"))
            return
        try:
            users = await self._users(hand.seats)
            # a person who left the match during this hand is in the hand's seats, no longer
            # in the match's: the hand is still theirs to pay, a bot plays it
            escaped = [uid is not None and hand.match_seats[i] is None
                       for i, uid in enumerate(hand.seats)]
            await actor.call(actor.resume, hand, users, escaped)
            log.info("table %s: hand %s resumed after %d actions", actor.id, hand.hand_id,
                     len(hand.actions))
        except Exception:  # the hand is voided (no 银子 moved) and its match ends with it
            log.exception("hand %s could not be resumed: voided, match %s abandoned",
                          hand.hand_id, hand.match_id)
            await self.db.write(lambda s: s.hands.void(hand.hand_id, "could not be resumed"))
            await self.db.write(
                lambda s: s.tables.save_match(hand.match_id, status="abandoned"))

    async def _resume_matches(self, actors: list[TableActor]) -> None:
        """Matches that were between hands when the server stopped (their last hand ended,
        or was voided, and the next was not dealt) go on with their stored totals: the next
        hand is dealt when the people are back and ready, or after the between-hands time.
        One that cannot go on is ended (status ``abandoned``), never left open."""
        idle = [a for a in actors if a.status == WAITING]
        ids = [a.id for a in idle]
        matches = await self.db.read(lambda s: [s.tables.current_match(t) for t in ids])
        for actor, match in zip(idle, matches, strict=True):
            if match is None:
                continue
            try:
                users = await self._users(match.seats)
                await actor.call(actor.resume_between, match.id, match.state, users)
                log.info("table %s: match %s resumed between hands (%s played)", actor.id,
                         match.id, match.state.get("hand_number"))
            except Exception:
                log.exception("match %s could not be resumed: abandoned", match.id)
                await self.db.write(
                    lambda s, m=match.id: s.tables.save_match(m, status="abandoned"))

    async def _users(self, ids: list[int | None]) -> list[User | None]:
        """The accounts seated (None: a bot)."""
        users: list[User | None] = []
        for uid in ids:
            if uid is None:
                users.append(None)
                continue
            account = await self.db.read(lambda s, uid=uid: s.accounts.get(uid))
            users.append(User(account.id, account.name, account.role, account.is_guest))
        return users

    # ---------------------------------------------------------------- metrics

    def _count(self) -> None:
        counts: dict[str, int] = {"waiting": 0, "playing": 0, "between": 0, "closed": 0}
        seated = 0
        for actor in self.tables.values():
            counts[actor.status] = counts.get(actor.status, 0) + 1
            seated += sum(1 for s in actor.seats if s.kind == "person")
        for status, n in counts.items():
            self.metrics.tables.labels(status=status).set(n)
        self.metrics.players.set(seated)


def split_strays(hands: list[Any]) -> tuple[dict[int, Any], list[Any]]:
    """Unfinished hands (``ResumableHand``s) by table: each table's newest (by match, then
    hand number, then id), and the older ones beside it."""
    newest: dict[int, Any] = {}
    for hand in hands:
        best = newest.get(hand.table_id)
        if best is None or _age(hand) > _age(best):
            newest[hand.table_id] = hand
    strays = [h for h in hands if h is not newest[h.table_id]]
    return newest, strays


def _age(hand: Any) -> tuple[int, int, int]:
    return (hand.match_id, hand.number, hand.hand_id)


def _room_code(taken: Callable[[str], bool]) -> str:
    while True:
        code = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_CODE_LENGTH))
        if not taken(code):
            return code


def _stop_timers(actor: TableActor) -> None:
    if actor._timer is not None:
        actor._timer.cancel()
