"""Table ownership by lease, for a hall of several nodes (``store.leases``).

A node owns a table while its lease has not expired; it renews all its leases at once every
second or so. A lease that expires (its node died, hung or lost the database) may be taken
by any node, and taking it raises the table's epoch: the fencing token every write of the
owner carries (``fence``), so a node that wakes up after its lease was taken cannot write
over the new owner. Times are the database's clock (seconds since 1970), never a node's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, text, update
from sqlalchemy.orm import Session

from .database import Sessions
from .errors import InvalidRequest, LeaseLost
from .models import GameTable, HallNode, TableLease

SETUP = 0  # the lease of setting up the hall's standing tables (no table has id 0)
MAX_NAME = 64

_NOW = {
    "postgresql": "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)",
    "sqlite": "SELECT (julianday('now') - 2440587.5) * 86400.0",
}
# fencing in a writer's own transaction: the lease rows are read FOR SHARE (PostgreSQL), so
# a takeover waits for writes in flight and writes after it see its epoch; SQLite's writer
# holds the whole database already
_FENCE = {
    "postgresql": "SELECT table_id, owner, epoch FROM table_leases WHERE table_id IN ({ids}) "
                  "FOR SHARE",
    "sqlite": "SELECT table_id, owner, epoch FROM table_leases WHERE table_id IN ({ids})",
}
_PARAM = {"postgresql": "%s", "sqlite": "?"}


@dataclass(frozen=True, slots=True)
class Fence:
    """What a write of a table's owner carries: the table, the node and its lease epoch."""

    table_id: int
    node: str
    epoch: int


@dataclass(frozen=True, slots=True)
class LeaseRow:
    table_id: int
    owner: str
    epoch: int
    expires: float


@dataclass(frozen=True, slots=True)
class Overview:
    """What a node reads every second: the database's time, every table lease, every node,
    and the open tables nobody holds (id -> seconds since its lease expired; None: never
    leased)."""

    now: float
    leases: list[LeaseRow]
    nodes: list[NodeRow]
    unowned: dict[int, float | None]


@dataclass(frozen=True, slots=True)
class NodeRow:
    name: str
    address: str | None
    expires: float
    draining: bool
    tables: int


def stale_fences(cursor: Any, dialect: str, fences: Iterable[Fence]) -> set[int]:
    """The tables of ``fences`` whose lease is no longer the fence's (on a DB-API cursor
    inside the writer's transaction)."""
    wanted = {f.table_id: f for f in fences}
    if not wanted:
        return set()
    ids = sorted(wanted)
    cursor.execute(_FENCE[dialect].format(ids=",".join([_PARAM[dialect]] * len(ids))), ids)
    held = {row[0]: (row[1], row[2]) for row in cursor.fetchall()}
    return {t for t, f in wanted.items() if held.get(t) != (f.node, f.epoch)}


def check_fence(session: Session, fence: Fence | None) -> None:
    """Refuse (``LeaseLost``) a write whose fence is stale, in ``session``'s transaction."""
    if fence is None:
        return
    connection = session.connection()
    dialect = connection.dialect.name
    sql = _FENCE[dialect].replace("({ids})", "(:t)")
    row = connection.execute(text(sql), {"t": fence.table_id}).first()
    if row is None or (row[1], row[2]) != (fence.node, fence.epoch):
        raise LeaseLost(f"table {fence.table_id} is no longer {fence.node}'s "
                        f"(epoch {fence.epoch})")


def _check_name(node: str) -> None:
    if not isinstance(node, str) or not node or len(node) > MAX_NAME:
        raise InvalidRequest(f"a node's name is 1-{MAX_NAME} characters, got {node!r}")


class Leases:
    """The lease table and the node table; each call its own short transaction."""

    def __init__(self, sessions: Sessions) -> None:
        self._sessions = sessions

    @staticmethod
    def _now(session: Session) -> float:
        dialect = session.connection().dialect.name
        return float(session.execute(text(_NOW[dialect])).scalar_one())

    def now(self) -> float:
        """The database's time, in seconds since 1970."""
        with self._sessions.read() as session:
            return self._now(session)

    def acquire(self, table_id: int, node: str, ttl: float) -> int | None:
        """Own ``table_id`` for ``ttl`` seconds if nobody else does (no lease, an expired
        one, or ``node``'s own from before it restarted): the new epoch; None if another
        node holds it."""
        _check_name(node)

        def work(session: Session) -> int | None:
            now = self._now(session)
            row = session.scalar(select(TableLease).where(TableLease.table_id == table_id)
                                 .with_for_update())
            if row is None:
                session.add(TableLease(table_id=table_id, owner=node, epoch=1,
                                       expires=now + ttl))
                session.flush()
                return 1
            if row.owner != node and row.expires > now:
                return None
            row.owner, row.epoch, row.expires = node, row.epoch + 1, now + ttl
            return row.epoch

        return self._sessions.transact(work)

    def renew(self, node: str, ttl: float, table_ids: Iterable[int] = (), *,
              address: str | None = None) -> dict[int, int]:
        """Extend the leases of ``table_ids`` that ``node`` still holds by ``ttl`` seconds
        from now, and its node row (alive, its address, how many tables it asked for):
        table id -> epoch of each it still holds. (A lease of ``node``'s name from an
        earlier run that it has not taken again is left to expire.)"""
        _check_name(node)
        ids = sorted(set(table_ids))
        with self._sessions.write() as session:
            now = self._now(session)
            held: list[Any] = []
            for start in range(0, len(ids), 500):
                held += session.execute(
                    update(TableLease).where(TableLease.owner == node,
                                             TableLease.table_id.in_(ids[start:start + 500]))
                    .values(expires=now + ttl).returning(TableLease.table_id, TableLease.epoch)
                ).all()
            found = session.get(HallNode, node)
            if found is None:
                session.add(HallNode(name=node, address=address, expires=now + ttl,
                                     draining=False, tables=len(ids)))
            else:
                found.address, found.expires, found.tables = address, now + ttl, len(ids)
            return {int(t): int(e) for t, e in held}

    def release(self, table_id: int, node: str, epoch: int) -> bool:
        """Give the table up (it expires now, any node may take it); False if it was no
        longer ``node``'s at ``epoch``."""
        with self._sessions.write() as session:
            now = self._now(session)
            done = session.execute(
                update(TableLease).where(TableLease.table_id == table_id,
                                         TableLease.owner == node, TableLease.epoch == epoch)
                .values(expires=now - 1.0)).rowcount
            return bool(done)

    def leases(self) -> tuple[float, list[LeaseRow]]:
        """The database's time and every table lease."""
        with self._sessions.read() as session:
            now = self._now(session)
            rows = session.scalars(select(TableLease).where(TableLease.table_id != SETUP))
            return now, [LeaseRow(r.table_id, r.owner, r.epoch, r.expires) for r in rows]

    def overview(self) -> Overview:
        """The leases, the nodes and the open tables nobody holds, in one read."""
        with self._sessions.read() as session:
            now = self._now(session)
            leases = [LeaseRow(r.table_id, r.owner, r.epoch, r.expires) for r in
                      session.scalars(select(TableLease).where(TableLease.table_id != SETUP))]
            nodes = [NodeRow(r.name, r.address, r.expires, r.draining, r.tables)
                     for r in session.scalars(select(HallNode).order_by(HallNode.name))]
            found = session.execute(
                select(GameTable.id, TableLease.expires)
                .join(TableLease, TableLease.table_id == GameTable.id, isouter=True)
                .where(GameTable.status == "open")
                .where((TableLease.table_id.is_(None)) | (TableLease.expires <= now))).all()
            unowned = {int(t): None if e is None else now - e for t, e in found}
            return Overview(now, leases, nodes, unowned)

    def nodes(self) -> tuple[float, list[NodeRow]]:
        """The database's time and every node that has renewed (alive: ``expires`` > now)."""
        with self._sessions.read() as session:
            now = self._now(session)
            rows = session.scalars(select(HallNode).order_by(HallNode.name))
            return now, [NodeRow(r.name, r.address, r.expires, r.draining, r.tables)
                         for r in rows]

    def set_draining(self, node: str, draining: bool) -> bool:
        """Ask ``node`` to give its tables away (or to take tables again); False if no such
        node has ever run."""
        _check_name(node)
        with self._sessions.write() as session:
            found = session.get(HallNode, node)
            if found is None:
                return False
            found.draining = draining
            return True

    def forget_setup(self, node: str) -> None:
        """``node`` is done setting up the hall (it held the ``SETUP`` lease)."""
        with self._sessions.write() as session:
            session.execute(delete(TableLease).where(TableLease.table_id == SETUP,
                                                     TableLease.owner == node))

    def forget_node(self, node: str) -> None:
        """A node stopped for good: its row goes, its leases expire now."""
        with self._sessions.write() as session:
            now = self._now(session)
            session.execute(update(TableLease).where(TableLease.owner == node)
                            .values(expires=now - 1.0))
            found = session.get(HallNode, node)
            if found is not None:
                session.delete(found)
