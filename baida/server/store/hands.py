"""Hands: the secret seed and setup at the deal, the actions as they happen, the record at the end.

A hand is a deterministic function of its seed, setup and actions, so a hall that restarts
rebuilds every unfinished hand from ``in_progress()``. The seed and the record (which holds
the seed) never leave the store before the hand has ended.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from .database import Sessions
from .errors import HandStateError, InvalidRequest, NotFound
from .leases import Fence, check_fence, stale_fences
from .ledger import Ledger, Settlement
from .models import HandAction, HandRow, HandSeat, MatchRow, User
from .tables import RULESETS, check_seats, match_update, require_users


@dataclass(frozen=True)
class HandInfo:
    """A hand as anyone may see it (no seed, no record)."""

    id: int
    match_id: int
    number: int
    ruleset: str
    commitment: str
    setup: dict[str, Any]
    seats: list[int | None]
    status: str  # playing, ended, voided
    void_reason: str | None
    result: dict[str, Any] | None
    started_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True)
class ResumableHand:
    """What the hall needs to rebuild an unfinished hand after a restart."""

    hand_id: int
    match_id: int
    table_id: int
    number: int
    ruleset: str
    seed: bytes
    commitment: str
    setup: dict[str, Any]  # the Round.from_seed keywords
    seats: list[int | None]
    actions: list[tuple[int, dict[str, Any]]]  # (seq, action JSON) in seq order
    match_state: dict[str, Any]
    match_seats: list[int | None]


@dataclass(frozen=True)
class HandSummary:
    """One finished hand in a player's list."""

    hand_id: int
    match_id: int
    table_id: int
    number: int
    ruleset: str
    seat: int
    seats: list[int | None]
    result: dict[str, Any] | None
    started_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True)
class SettleRequest:
    """The ledger part of ``finish``: ``Ledger.settle_hand``'s arguments."""

    txn_key: str
    seats: Sequence[int | None]
    owed: Sequence[int]
    fee: int


@dataclass(frozen=True)
class FinishedHand:
    hand: HandInfo
    settlement: Settlement | None
    replayed: bool  # the hand had already been finished: nothing was written


def hand_info(row: HandRow) -> HandInfo:
    return HandInfo(row.id, row.match_id, row.number, row.ruleset, row.commitment, row.setup,
                    list(row.seats), row.status, row.void_reason, row.result, row.started_at,
                    row.ended_at)


# Appending actions is the hall's most frequent write: its statements are built once.
# No row lock: a table has one owner, which appends a hand's actions and ends it in order.
_STATUSES = (select(HandRow.id, HandRow.status)
             .where(HandRow.id.in_(bindparam("ids", expanding=True))))
_ADD_ACTIONS: dict[str, Any] = {}


def _add_actions(dialect: str) -> Any:
    """The dialect's INSERT … ON CONFLICT DO NOTHING RETURNING seq (its module loaded when a
    database of that kind is first written to, not when the store is imported)."""
    if dialect not in _ADD_ACTIONS:
        module = importlib.import_module(f"sqlalchemy.dialects.{dialect}")
        _ADD_ACTIONS[dialect] = (module.insert(HandAction).on_conflict_do_nothing()
                                 .returning(HandAction.seq))
    return _ADD_ACTIONS[dialect]


_RAW_INSERT_MANY = {
    dialect: "INSERT INTO hand_actions (hand_id, seq, action) VALUES {values} "
             "ON CONFLICT DO NOTHING" for dialect in ("sqlite", "postgresql")
}
_RAW_VALUES = {"sqlite": "(?, ?, ?)", "postgresql": "(%s, %s, CAST(%s AS JSON))"}
_ROWS_PER_STATEMENT = 300  # 900 parameters, well inside both databases' limits


_HANDS = HandRow.__table__
_MATCHES = MatchRow.__table__
_HAND_SEATS = HandSeat.__table__
_INFO_COLUMNS = tuple(_HANDS.c[name] for name in (
    "id", "match_id", "number", "ruleset", "commitment", "setup", "seats", "status",
    "void_reason", "started_at"))


def _statements(locks: bool) -> dict[str, Any]:
    """The deal's and the hand end's statements, built once (``locks``: FOR UPDATE, where
    the database has row locks; SQLite's writer holds the whole database already)."""

    def locked(query: Any) -> Any:
        return query.with_for_update() if locks else query

    return {
        "match_status": locked(select(_MATCHES.c.status).where(
            _MATCHES.c.id == bindparam("match_id"))),
        "dealt": select(_HANDS.c.id, _HANDS.c.commitment).where(
            _HANDS.c.match_id == bindparam("match_id"), _HANDS.c.number == bindparam("number")),
        "deal": _HANDS.insert().returning(_HANDS.c.id),
        "hand": locked(select(*_INFO_COLUMNS).where(_HANDS.c.id == bindparam("hand_id"))),
        "end": _HANDS.update().where(_HANDS.c.id == bindparam("hand_id")),
    }


_STATEMENTS = {False: _statements(False), True: _statements(True)}


def _stmt(name: str, connection: Any) -> Any:
    return _STATEMENTS[connection.dialect.name != "sqlite"][name]


def _load(session: Session, hand_id: int, *, lock: bool = False) -> HandRow:
    query = select(HandRow).where(HandRow.id == hand_id)
    if lock:
        query = query.with_for_update()
    row = session.scalar(query)
    if row is None:
        raise NotFound(f"no hand with id {hand_id}")
    return row


def _check_actions(actions: Iterable[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    rows = []
    for i, item in enumerate(actions):
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise InvalidRequest(f"actions[{i}]: expected (seq, action), got {item!r}")
        seq, action = item
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise InvalidRequest(f"actions[{i}]: seq is a whole number >= 0, got {seq!r}")
        if not isinstance(action, dict):
            raise InvalidRequest(f"actions[{i}]: the action is a JSON object, got {action!r}")
        rows.append({"seq": seq, "action": action})
    return rows


class Hands:
    """Hands, their actions and records, each call in its own transaction."""

    def __init__(self, sessions: Sessions, clock: Callable[[], datetime], ledger: Ledger) -> None:
        self._sessions = sessions
        self._clock = clock
        self._ledger = ledger
        self._local = threading.local()

    def start(self, match_id: int, number: int, *, ruleset: str, seed: bytes,
              setup: dict[str, Any], seats: Sequence[int | None],
              fence: Fence | None = None) -> HandInfo:
        """Store a hand at its deal. Calling again for the same match, number and seed returns
        the stored hand; another seed for that number is refused. With a ``fence``, refused
        (``LeaseLost``) unless the table is still the fence's node's at its epoch."""
        if not isinstance(seed, bytes | bytearray) or not seed or len(seed) > 64:
            raise InvalidRequest("seed: 1-64 bytes")
        if ruleset not in RULESETS:
            raise InvalidRequest(f"ruleset: one of {', '.join(RULESETS)}, got {ruleset!r}")
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise InvalidRequest(f"number: a hand number >= 0, got {number!r}")
        if not isinstance(setup, dict):
            raise InvalidRequest("setup: expected the Round.from_seed keywords as an object")
        seats = check_seats(seats)
        commitment = hashlib.sha256(bytes(seed)).hexdigest()

        def work(session: Session) -> HandInfo:
            # Core statements, not the ORM: a hall deals tens of hands a second
            check_fence(session, fence)
            connection = session.connection()
            status = connection.execute(_stmt("match_status", connection),
                                        {"match_id": match_id}).scalar()
            if status is None:
                raise NotFound(f"no match with id {match_id}")
            existing = connection.execute(_stmt("dealt", connection),
                                          {"match_id": match_id, "number": number}).first()
            if existing is not None:
                if existing.commitment != commitment:
                    raise HandStateError(f"hand {number} of match {match_id} was already "
                                         "dealt from another seed")
                return hand_info(_load(session, existing.id))
            if status != "playing":
                raise HandStateError(f"match {match_id} is {status}")
            require_users(session, seats)
            started = self._clock()
            hand_id = connection.execute(_stmt("deal", connection), {
                "match_id": match_id, "number": number, "ruleset": ruleset,
                "seed": seed.hex(), "commitment": commitment, "setup": setup, "seats": seats,
                "status": "playing", "void_reason": None, "record": None, "result": None,
                "started_at": started, "ended_at": None}).scalar_one()
            people = [{"hand_id": hand_id, "seat": seat, "user_id": user}
                      for seat, user in enumerate(seats) if user is not None]
            if people:
                connection.execute(_HAND_SEATS.insert(), people)
            return HandInfo(hand_id, match_id, number, ruleset, commitment, setup, list(seats),
                            "playing", None, None, started, None)

        return self._sessions.transact(work)

    def append_actions(self, hand_id: int,
                       actions: Iterable[tuple[int, dict[str, Any]]]) -> int:
        """Store a batch of (seq, action JSON) in one transaction; a seq already stored is
        skipped (a retried batch writes nothing twice). Returns how many rows were new."""
        return self.append_many({hand_id: actions})

    def append_many(self, batches: Mapping[int, Iterable[tuple[int, dict[str, Any]]]]) -> int:
        """``append_actions`` for several hands in ONE transaction, so that a writer thread
        serving many tables commits (and syncs to disk) once per batch, not once per action.
        Refused whole (``HandStateError``) if one of the hands is not playing."""
        rows = [{"hand_id": hand_id, **row} for hand_id, actions in batches.items()
                for row in _check_actions(actions)]
        if not rows:
            return 0
        hand_ids = sorted({row["hand_id"] for row in rows})
        with self._sessions.write() as session:
            connection = session.connection()
            statuses = dict(connection.execute(_STATUSES, {"ids": hand_ids}).all())
            for hand_id in hand_ids:
                if hand_id not in statuses:
                    raise NotFound(f"no hand with id {hand_id}")
                if statuses[hand_id] != "playing":
                    raise HandStateError(f"hand {hand_id} is {statuses[hand_id]}: it takes no "
                                         "more actions")
            added = connection.execute(_add_actions(connection.dialect.name), rows).all()
            return len(added)

    def append_rows(self, rows: Sequence[tuple[int, int, dict[str, Any] | str]],
                    fences: Mapping[int, Fence] | None = None) -> set[int]:
        """The hall writer's hot path: (hand id, seq, action JSON) rows of many hands in one
        transaction (an action may come encoded as JSON text), straight to the driver on a
        connection this thread keeps (a row already stored is skipped). Unlike
        ``append_many`` it does not check that each hand is still playing: the hall's single
        writer thread appends a hand's actions before it finishes the hand.

        ``fences``: hand id -> the fence of its table's owner; the rows of a hand whose fence
        is stale are not written, and the stale tables' ids are returned."""
        if not rows:
            return set()
        params = [(hand_id, seq, action if isinstance(action, str) else json.dumps(
            action, separators=(",", ":"))) for hand_id, seq, action in rows]
        raw = self._raw_connection()
        dialect = self._sessions.engine.dialect.name
        try:
            cursor = raw.cursor()
            if dialect == "sqlite":
                cursor.execute("BEGIN IMMEDIATE")
            stale: set[int] = set()
            if fences:
                stale = stale_fences(cursor, dialect, fences.values())
                if stale:
                    params = [p for p in params
                              if p[0] not in fences or fences[p[0]].table_id not in stale]
            # one statement per chunk: one round trip (and, in the hall, one release of the
            # interpreter lock) instead of one per row
            for start in range(0, len(params), _ROWS_PER_STATEMENT):
                chunk = params[start : start + _ROWS_PER_STATEMENT]
                values = ",".join([_RAW_VALUES[dialect]] * len(chunk))
                cursor.execute(_RAW_INSERT_MANY[dialect].format(values=values),
                               [x for row in chunk for x in row])
            raw.commit()
            return stale
        except Exception:
            self._drop_raw_connection()
            raise

    def _raw_connection(self) -> Any:
        """This thread's own driver connection for ``append_rows`` (kept between calls)."""
        held = getattr(self._local, "raw", None)
        if held is None:
            held = self._local.raw = self._sessions.engine.raw_connection()
        return held

    def _drop_raw_connection(self) -> None:
        held = getattr(self._local, "raw", None)
        self._local.raw = None
        if held is not None:
            try:
                held.rollback()
                held.close()
            except Exception:  # the connection is broken: let the pool discard it
                pass

    def finish(self, hand_id: int, record: dict[str, Any], result: dict[str, Any], *,
               settle: SettleRequest | None = None, match_state: dict[str, Any] | None = None,
               match_status: str | None = None, fence: Fence | None = None) -> FinishedHand:
        """End a hand in ONE transaction: its record and result, its 银子 settlement, and the
        match's state after it. Calling again after success writes nothing and returns the
        stored outcome (``replayed``). With a ``fence``: refused (``LeaseLost``) unless the
        table is still the fence's node's."""
        if not isinstance(record, dict) or not isinstance(result, dict):
            raise InvalidRequest("record and result: JSON objects")

        def work(session: Session) -> FinishedHand:
            check_fence(session, fence)
            connection = session.connection()
            row = connection.execute(_stmt("hand", connection), {"hand_id": hand_id}).first()
            if row is None:
                raise NotFound(f"no hand with id {hand_id}")
            if row.status == "voided":
                raise HandStateError(f"hand {hand_id} was voided")
            replayed = row.status == "ended"
            now = self._clock()
            if replayed:
                info = hand_info(_load(session, hand_id))
            else:
                connection.execute(_stmt("end", connection), {
                    "hand_id": hand_id, "status": "ended", "record": record, "result": result,
                    "ended_at": now})
                info = HandInfo(row.id, row.match_id, row.number, row.ruleset, row.commitment,
                                row.setup, list(row.seats), "ended", row.void_reason, result,
                                row.started_at, now)
                if match_state is not None or match_status is not None:
                    values = match_update(now, match_state, match_status)
                    done = connection.execute(_MATCHES.update().where(
                        _MATCHES.c.id == row.match_id).values(**values)).rowcount
                    if not done:
                        raise NotFound(f"no match with id {row.match_id}")
            settlement = None
            if settle is not None:
                settlement = self._ledger.writer(session, now).settle_hand(
                    settle.txn_key, settle.seats, settle.owed, settle.fee, hand_id)
            session.flush()
            return FinishedHand(info, settlement, replayed)

        return self._sessions.transact(work)

    def void(self, hand_id: int, reason: str) -> HandInfo:
        """Void an unfinished hand (no record, no 银子 moved); voiding twice is fine."""

        def work(session: Session) -> HandInfo:
            row = _load(session, hand_id, lock=True)
            if row.status == "ended":
                raise HandStateError(f"hand {hand_id} has ended: it cannot be voided")
            if row.status == "playing":
                row.status, row.void_reason, row.ended_at = "voided", reason[:200], self._clock()
            return hand_info(row)

        return self._sessions.transact(work)

    def get(self, hand_id: int) -> HandInfo:
        with self._sessions.read() as session:
            return hand_info(_load(session, hand_id))

    def in_progress(self, table_ids: Sequence[int] | None = None) -> list[ResumableHand]:
        """Every hand still playing (at ``table_ids`` only, if given), with its seed, setup,
        stored actions and match state."""
        with self._sessions.read() as session:
            query = (select(HandRow, MatchRow).join(MatchRow, MatchRow.id == HandRow.match_id)
                     .where(HandRow.status == "playing"))
            if table_ids is not None:
                query = query.where(MatchRow.table_id.in_(list(table_ids)))
            rows = session.execute(query.order_by(HandRow.id)).all()
            ids = [hand.id for hand, _ in rows]
            actions: dict[int, list[tuple[int, dict[str, Any]]]] = {i: [] for i in ids}
            if ids:
                for a in session.scalars(select(HandAction).where(HandAction.hand_id.in_(ids))
                                         .order_by(HandAction.hand_id, HandAction.seq)):
                    actions[a.hand_id].append((a.seq, a.action))
            return [ResumableHand(hand.id, hand.match_id, match.table_id, hand.number,
                                  hand.ruleset, bytes.fromhex(hand.seed), hand.commitment,
                                  hand.setup, list(hand.seats), actions[hand.id], match.state,
                                  list(match.seats))
                    for hand, match in rows]

    def user_hands(self, user_id: int, *, limit: int = 20,
                   before: int | None = None) -> list[HandSummary]:
        """A player's finished hands, newest first; ``before``: a hand id from an earlier page."""
        with self._sessions.read() as session:
            query = (select(HandRow, HandSeat.seat, MatchRow.table_id)
                     .join(HandSeat, HandSeat.hand_id == HandRow.id)
                     .join(MatchRow, MatchRow.id == HandRow.match_id)
                     .where(HandSeat.user_id == user_id, HandRow.status == "ended"))
            if before is not None:
                query = query.where(HandRow.id < before)
            rows = session.execute(query.order_by(HandRow.id.desc()).limit(max(limit, 0)))
            return [HandSummary(h.id, h.match_id, table_id, h.number, h.ruleset, seat,
                                list(h.seats), h.result, h.started_at, h.ended_at)
                    for h, seat, table_id in rows]

    def record(self, hand_id: int, viewer_id: int) -> dict[str, Any] | None:
        """The game record, for a player of the hand or an admin, once the hand has ended;
        None otherwise (no such hand, not theirs, not ended: the caller cannot tell which)."""
        with self._sessions.read() as session:
            row = session.get(HandRow, hand_id)
            if row is None or row.status != "ended":
                return None
            seated = session.scalar(select(HandSeat.seat).where(
                HandSeat.hand_id == hand_id, HandSeat.user_id == viewer_id))
            if seated is None and session.scalar(
                    select(User.role).where(User.id == viewer_id)) != "admin":
                return None
            return row.record
