"""The hall: every table of this node, the standing tables, private rooms, quick play, and
bringing back the hands that were in play when the server stopped."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from .botpool import BotPool
from .clock import Clock
from .connection import User
from .directory import Directory, InProcessDirectory
from .metrics import Metrics
from .persistence import StoreWriter
from .table_actor import CLOSED, WAITING, TableActor, TableInfo
from .table_config import ConfigError, TableConfig

log = logging.getLogger(__name__)

ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
ROOM_CODE_LENGTH = 6
MAX_TABLES_PER_HOST = 3


@dataclass(frozen=True, slots=True)
class StandingTables:
    """A row of the hall's numbered tables of one ruleset. In Jiaxing the first half of the
    numbers allow 吃 and the second half forbid it, as the rule documents' hall does."""

    ruleset: str
    count: int
    stakes: str = "silver"
    base: int = 1
    fee: int = 1
    escape_penalty: int = 20
    rounds: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    def configs(self) -> list[TableConfig]:
        out = []
        for number in range(1, self.count + 1):
            options: dict[str, Any] = {}
            if self.ruleset == "jiaxing":
                options["allow_chi"] = number <= (self.count + 1) // 2
            obj: dict[str, Any] = {
                "ruleset": self.ruleset,
                "options": options,
                "stakes": self.stakes,
                "base": self.base,
                "rounds": self.rounds,
                **self.extra,
            }
            if self.stakes == "silver":
                obj["fee"] = self.fee
                obj["escape_penalty"] = self.escape_penalty
            out.append(TableConfig.from_json(obj))
        return out


DEFAULT_STANDING = (
    StandingTables("jiaxing", 12),
    StandingTables("wenling", 6),
    StandingTables("jiaxing", 4, stakes="points", base=1),
    StandingTables("wenling", 2, stakes="points", base=1),
)


class HallError(ValueError):
    """A lobby request the hall refuses; the message is for the player."""


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
        node: str = "node-1",
        standing: tuple[StandingTables, ...] = DEFAULT_STANDING,
    ) -> None:
        self.store = store
        self.db = db
        self.clock = clock
        self.bots = bots
        self.metrics = metrics
        self.directory = directory or InProcessDirectory()
        self.node = node
        self.standing = standing
        self.tables: dict[int, TableActor] = {}
        self.by_code: dict[str, TableActor] = {}
        metrics.on_scrape(self._count)  # counted when scraped, not at every change

    # ---------------------------------------------------------------- life

    async def open(self) -> None:
        """Load the open tables (creating the standing ones the first time) and resume the
        hands that were in play."""
        stored = await self.db.read(lambda s: s.tables.list(status="open"))
        standing = [t for t in stored if not t.config.get("player_made")]
        if not standing:
            for row in self.standing:
                for cfg in row.configs():
                    await self._create(cfg, host=None, player_made=False)
        for row in await self.db.read(lambda s: s.tables.list(status="open")):
            if row.id not in self.tables:
                self._spawn(row)
        for hand in await self.db.read(lambda s: s.hands.in_progress()):
            await self._resume(hand)
        await self._resume_matches()

    async def close(self) -> None:
        for actor in list(self.tables.values()):
            actor.post(_stop_timers, actor)
        self.tables.clear()

    # ---------------------------------------------------------------- tables

    def _spawn(self, row: Any) -> TableActor:
        cfg = TableConfig.from_json(row.config["table"])
        info = TableInfo(row.id, row.number, row.config.get("name") or f"{row.number}",
                         cfg, host=row.config.get("host"), room_code=row.room_code)
        actor = TableActor(info, clock=self.clock, db=self.db, bots=self.bots,
                           metrics=self.metrics, directory=self.directory)
        if not self.directory.claim_table(row.id, self.node):
            raise HallError(f"table {row.id} is owned by another node")
        self.tables[row.id] = actor
        if row.room_code:
            self.by_code[row.room_code] = actor
        actor.start()
        return actor

    async def _create(self, cfg: TableConfig, host: User | None, player_made: bool) -> TableActor:
        same = [a.info.number for a in self.tables.values() if a.config.ruleset == cfg.ruleset]
        number = max(same, default=0) + 1
        code = _room_code(set(self.by_code)) if cfg.private else None
        meta = {"table": cfg.to_json(), "player_made": player_made,
                "host": host.id if host else None, "name": None}
        row = await self.db.write(
            lambda s: s.tables.create(
                cfg.ruleset, number, options=cfg.options, config=meta, room_code=code
            )
        )
        return self._spawn(row)

    async def create_table(self, request: Any, host: User) -> TableActor:
        """A table a player asked for (validated ``TableConfig`` JSON)."""
        cfg = TableConfig.from_json(request)
        mine = [a for a in self.tables.values() if a.info.host == host.id and a.status != CLOSED]
        if len(mine) >= MAX_TABLES_PER_HOST:
            raise HallError(f"you may host at most {MAX_TABLES_PER_HOST} tables at once")
        return await self._create(cfg, host, player_made=True)

    async def quick_play(self, user: User, ruleset: str) -> TableActor:
        """A private 积分 table with three bots, for one person to sit at at once."""
        if ruleset not in ("jiaxing", "wenling"):
            raise ConfigError("ruleset: 'jiaxing' or 'wenling'")
        for actor in self.tables.values():
            if actor.info.host == user.id and actor.config.private and actor.status != CLOSED:
                if actor.config.ruleset == ruleset and actor.quick:
                    return actor
        actor = await self.create_table(
            {"ruleset": ruleset, "private": True, "stakes": "points", "hands": 4}, user
        )
        actor.quick = True
        return actor

    def get(self, table_id: int) -> TableActor | None:
        actor = self.tables.get(table_id)
        return None if actor is None or actor.status == CLOSED else actor

    def find_room(self, code: str) -> TableActor | None:
        actor = self.by_code.get(code.strip().upper())
        return None if actor is None or actor.status == CLOSED else actor

    def lobby(self) -> list[dict[str, Any]]:
        """The public tables as the lobby lists them (private ones are reached by code)."""
        return [
            a.table_json() for a in sorted(self.tables.values(),
                                           key=lambda a: (a.config.ruleset, a.info.number))
            if not a.config.private and a.status != CLOSED
        ]

    async def close_table(self, table_id: int, reason: str) -> bool:
        actor = self.tables.get(table_id)
        if actor is None or actor.status == CLOSED:
            return False
        await actor.call(actor.close, reason)
        await self.db.write(lambda s: s.tables.close(table_id))
        self.directory.release_table(table_id, self.node)
        if actor.info.room_code:
            self.by_code.pop(actor.info.room_code, None)
        return True

    # ---------------------------------------------------------------- restart

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

    async def _resume_matches(self) -> None:
        """Matches that were between hands when the server stopped (their last hand ended,
        or was voided, and the next was not dealt) go on with their stored totals: the next
        hand is dealt when the people are back and ready, or after the between-hands time.
        One that cannot go on is ended (status ``abandoned``), never left open."""
        idle = [a for a in self.tables.values() if a.status == WAITING]
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


def _room_code(taken: set[str]) -> str:
    while True:
        code = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_CODE_LENGTH))
        if code not in taken:
            return code


def _stop_timers(actor: TableActor) -> None:
    if actor._timer is not None:
        actor._timer.cancel()
