"""The hall's tables and the matches played at them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from baida import rulesets  # absolute: the hall's modules are moving into folders

from .database import Sessions
from .errors import HandStateError, InvalidRequest, NotFound
from .leases import Fence, check_fence
from .models import GameTable, MatchRow, User

RULESETS = rulesets.names()
MATCH_STATUSES = ("playing", "ended", "abandoned")


@dataclass(frozen=True)
class TableInfo:
    """A table row: ``options`` are the rule options, ``config`` the hall's settings."""

    id: int
    ruleset: str
    number: int
    options: dict[str, Any]
    config: dict[str, Any]  # 底分 base, fee, length, stakes, claim seconds, ...
    private: bool
    room_code: str | None
    status: str  # open, closed
    created_by: int | None
    created_at: datetime
    closed_at: datetime | None


@dataclass(frozen=True)
class MatchInfo:
    id: int
    table_id: int
    seats: list[int | None]  # user ids by seat; None: a bot
    state: dict[str, Any]  # the match state between hands (the hall's, e.g. Match.to_json())
    status: str  # playing, ended, abandoned
    created_at: datetime
    updated_at: datetime


def table_info(row: GameTable) -> TableInfo:
    return TableInfo(row.id, row.ruleset, row.number, row.options, row.config, row.private,
                     row.room_code, row.status, row.created_by, row.created_at, row.closed_at)


def match_info(row: MatchRow) -> MatchInfo:
    return MatchInfo(row.id, row.table_id, list(row.seats), row.state, row.status,
                     row.created_at, row.updated_at)


def check_seats(seats: Sequence[int | None]) -> list[int | None]:
    """Four seats, each a user id or None (a bot), no user twice."""
    if isinstance(seats, str | bytes) or len(seats) != 4:
        raise InvalidRequest(f"seats: four user ids or None, got {seats!r}")
    for seat, user in enumerate(seats):
        if user is not None and (not isinstance(user, int) or isinstance(user, bool)):
            raise InvalidRequest(f"seats[{seat}]: a user id or None, got {user!r}")
    humans = [u for u in seats if u is not None]
    if len(humans) != len(set(humans)):
        raise InvalidRequest(f"seats: a user sits in two seats: {list(seats)}")
    return list(seats)


def require_users(session: Session, user_ids: Sequence[int | None]) -> None:
    """``NotFound`` naming the first user id that has no account."""
    wanted = {u for u in user_ids if u is not None}
    if not wanted:
        return
    found = set(session.scalars(select(User.id).where(User.id.in_(wanted))))
    for user_id in sorted(wanted - found):
        raise NotFound(f"no account with id {user_id}")


def _check_object(name: str, value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidRequest(f"{name}: expected a JSON object, got {type(value).__name__}")
    return value


def load_match(session: Session, match_id: int, *, lock: bool = False) -> MatchRow:
    query = select(MatchRow).where(MatchRow.id == match_id)
    row = session.scalar(query.with_for_update() if lock else query)
    if row is None:
        raise NotFound(f"no match with id {match_id}")
    return row


def match_update(now: datetime, state: dict[str, Any] | None,
                 status: str | None) -> dict[str, Any]:
    """The columns of a match's new state and status (checked), for an UPDATE."""
    values: dict[str, Any] = {"updated_at": now}
    if state is not None:
        values["state"] = _check_object("state", state)
    if status is not None:
        if status not in MATCH_STATUSES:
            raise InvalidRequest(f"status: one of {', '.join(MATCH_STATUSES)}, got {status!r}")
        values["status"] = status
    return values


def update_match(row: MatchRow, now: datetime, state: dict[str, Any] | None,
                 status: str | None) -> None:
    """Store a match's new state and status on its loaded row."""
    for name, value in match_update(now, state, status).items():
        setattr(row, name, value)


class Tables:
    """Tables and matches, each call in its own transaction (any thread may call)."""

    def __init__(self, sessions: Sessions, clock: Callable[[], datetime]) -> None:
        self._sessions = sessions
        self._clock = clock

    def create(self, ruleset: str, number: int, *, options: dict[str, Any],
               config: dict[str, Any], private: bool = False, room_code: str | None = None,
               created_by: int | None = None) -> TableInfo:
        """A new open table; a private table's ``room_code`` is unique among open tables
        (a closed table has none)."""
        if ruleset not in RULESETS:
            raise InvalidRequest(f"ruleset: one of {', '.join(RULESETS)}, got {ruleset!r}")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise InvalidRequest(f"number: a table number >= 1, got {number!r}")
        _check_object("options", options)
        _check_object("config", config)
        if room_code is not None and (not isinstance(room_code, str) or
                                      not 1 <= len(room_code) <= 16):
            raise InvalidRequest("room_code: 1-16 characters")

        def work(session: Session) -> TableInfo:
            if room_code is not None and self._open_by_code(session, room_code) is not None:
                raise InvalidRequest(f"room code {room_code!r} is in use by an open table")
            require_users(session, [created_by])
            row = GameTable(ruleset=ruleset, number=number, options=options, config=config,
                            private=private, room_code=room_code, status="open",
                            created_by=created_by, created_at=self._clock(), closed_at=None)
            session.add(row)
            session.flush()
            return table_info(row)

        return self._sessions.transact(work)

    @staticmethod
    def _open_by_code(session: Session, code: str) -> GameTable | None:
        return session.scalar(select(GameTable).where(GameTable.room_code == code,
                                                      GameTable.status == "open"))

    def get(self, table_id: int) -> TableInfo:
        with self._sessions.read() as session:
            row = session.get(GameTable, table_id)
            if row is None:
                raise NotFound(f"no table with id {table_id}")
            return table_info(row)

    def by_room_code(self, code: str) -> TableInfo | None:
        """The open table with this room code, if any."""
        with self._sessions.read() as session:
            row = self._open_by_code(session, code)
            return None if row is None else table_info(row)

    def list(self, *, status: str | None = "open", ruleset: str | None = None) -> list[TableInfo]:
        """Tables in id order (``status=None``: every table, for the admin page)."""
        with self._sessions.read() as session:
            query = select(GameTable)
            if status is not None:
                query = query.where(GameTable.status == status)
            if ruleset is not None:
                query = query.where(GameTable.ruleset == ruleset)
            return [table_info(r) for r in session.scalars(query.order_by(GameTable.id))]

    def close(self, table_id: int) -> TableInfo:
        """Close a table (the admin's action; the hall stops its play). Closing twice is fine."""

        def work(session: Session) -> TableInfo:
            row = session.get(GameTable, table_id, with_for_update=True)
            if row is None:
                raise NotFound(f"no table with id {table_id}")
            if row.status == "open":  # its room code is free again
                row.status, row.closed_at, row.room_code = "closed", self._clock(), None
            return table_info(row)

        return self._sessions.transact(work)

    # ------------------------------------------------------------------ matches

    def start_match(self, table_id: int, seats: Sequence[int | None],
                    state: dict[str, Any], fence: Fence | None = None) -> MatchInfo:
        """A new match at an open table. With a ``fence`` (the table's lease), refused
        (``LeaseLost``) unless the table is still the fence's node's at its epoch: a node
        whose table was taken over starts no match beside the new owner's."""
        seats = check_seats(seats)
        _check_object("state", state)

        def work(session: Session) -> MatchInfo:
            check_fence(session, fence)
            table = session.get(GameTable, table_id)
            if table is None:
                raise NotFound(f"no table with id {table_id}")
            if table.status != "open":
                raise HandStateError(f"table {table_id} is closed")
            require_users(session, seats)
            now = self._clock()
            row = MatchRow(table_id=table_id, seats=seats, state=state, status="playing",
                           created_at=now, updated_at=now)
            session.add(row)
            session.flush()
            return match_info(row)

        return self._sessions.transact(work)

    def save_match(self, match_id: int, *, state: dict[str, Any] | None = None,
                   status: str | None = None,
                   seats: Sequence[int | None] | None = None,
                   fence: Fence | None = None) -> MatchInfo:
        """Store a match's state, status or seats (e.g. a player replaced by a bot); with a
        ``fence``, only while its table is still the fence's node's (``LeaseLost``)."""
        new_seats = None if seats is None else check_seats(seats)

        def work(session: Session) -> MatchInfo:
            check_fence(session, fence)
            row = load_match(session, match_id, lock=True)
            update_match(row, self._clock(), state, status)
            if new_seats is not None:
                require_users(session, new_seats)
                row.seats = new_seats
            return match_info(row)

        return self._sessions.transact(work)

    def get_match(self, match_id: int) -> MatchInfo:
        with self._sessions.read() as session:
            return match_info(load_match(session, match_id))

    def current_match(self, table_id: int) -> MatchInfo | None:
        """The table's match in play, if any."""
        with self._sessions.read() as session:
            row = session.scalar(select(MatchRow).where(MatchRow.table_id == table_id,
                                                        MatchRow.status == "playing")
                                 .order_by(MatchRow.id.desc()).limit(1))
            return None if row is None else match_info(row)
