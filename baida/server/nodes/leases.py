"""A node's side of table ownership by lease (``store.leases``): renewing its leases, knowing
who owns what and where each node is reached, and which unowned tables it should take.

A table nobody holds goes first to its preferred node: among the nodes of one machine's
``--nodes N``, the one its id falls to (as before leases); otherwise the winner of a
rendezvous hash over the live nodes that are not draining. After ``GRACE`` seconds any live
node takes it, so a preferred node that is slow or dead never holds a table back for long.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from .role import NodeRole, node_name

log = logging.getLogger(__name__)

TTL = 4.0  # a lease lasts this long unless renewed
EVERY = 1.0  # renewed (and the overview read) this often
GRACE = 2.0  # an expired lease waits this long for its preferred node, then anyone takes it
# for this long after a node starts, a table whose preferred node is another node of this
# machine's ``--nodes N`` that is not running yet waits for it (node 0 starts first, the
# others once it is ready)
STARTING_SECONDS = 60.0

Read = Callable[[Callable[[Any], Any]], Awaitable[Any]]


def rendezvous(table_id: int, nodes: list[str]) -> str | None:
    """The node a table prefers among ``nodes`` (the same answer on every node)."""
    def weight(node: str) -> bytes:
        return hashlib.blake2b(f"{table_id}:{node}".encode(), digest_size=8).digest()

    return max(nodes, key=weight) if nodes else None


class LeaseKeeper:
    """This node's leases and its view of the others', refreshed every ``EVERY`` seconds."""

    def __init__(self, role: NodeRole, read: Read, *, ttl: float = TTL,
                 grace: float = GRACE) -> None:
        self.role = role
        self.name = role.name
        self._read = read
        self.ttl = ttl
        self.grace = grace
        self.epochs: dict[int, int] = {}  # the tables this node holds -> their epochs
        self.owners: dict[int, str] = {}  # every live lease: table -> node
        self.addresses: dict[str, str] = {}  # live nodes -> where they are reached
        self.alive: set[str] = set()
        self.draining: set[str] = set()
        self.unowned: dict[int, float | None] = {}
        self._never_leased: dict[int, int] = {}  # table -> reads in a row it was seen so
        self._up_for: dict[str, int] = {}  # live node -> reads in a row it was seen alive
        self.renewed_at: float | None = None  # the database's time of the last renewal
        self.started = time.monotonic()

    @property
    def is_draining(self) -> bool:
        return self.name in self.draining

    async def renew(self) -> list[int]:
        """Renew this node's leases; the tables it held and no longer holds (another node
        took them over: this node must let them go at once)."""
        name, ttl, address = self.name, self.ttl, self.role.address
        asked = dict(self.epochs)  # (tables taken meanwhile are not in this renewal)
        held: dict[int, int] = await self._read(
            lambda s: s.leases.renew(name, ttl, list(asked), address=address))
        lost = [t for t, e in asked.items() if held.get(t) != e and self.epochs.get(t) == e]
        for table in lost:
            self.epochs.pop(table, None)
        return lost

    async def refresh(self) -> None:
        """Read who owns what, which nodes live, which open tables nobody holds."""
        seen = await self._read(lambda s: s.leases.overview())
        now = seen.now
        self.renewed_at = now
        self.owners = {r.table_id: r.owner for r in seen.leases if r.expires > now}
        live = [n for n in seen.nodes if n.expires > now]
        self.alive = {n.name for n in live}
        self._up_for = {n: self._up_for.get(n, 0) + 1 for n in self.alive}
        self.addresses = {n.name: n.address for n in live if n.address}
        self.draining = {n.name for n in seen.nodes if n.draining}
        self.unowned = seen.unowned
        self._never_leased = {t: self._never_leased.get(t, 0) + 1
                              for t, e in self.unowned.items() if e is None}

    def preferred(self, table_id: int) -> str | None:
        role = self.role
        if role.given_name is None and role.count > 1:  # one machine's --nodes N
            home = node_name(table_id % role.count)
            if home not in self.draining:
                return home
        candidates = sorted((self.alive | {self.name}) - self.draining)
        return rendezvous(table_id, candidates)

    def to_claim(self, starting: bool = False) -> list[int]:
        """The unowned tables this node should take now (none while it drains). A table
        never leased is taken by the node that made it within milliseconds: others wait
        until they have seen it unowned at two reads in a row (``starting``: the hall's
        tables of a new database, which nobody made)."""
        if self.is_draining:
            return []
        out = []
        patience = self.patience
        for table, expired_for in sorted(self.unowned.items()):
            if table in self.epochs:
                continue
            preferred = self.preferred(table)
            mine = preferred == self.name
            if not mine and self._sibling_starting(preferred):
                continue
            if expired_for is None:
                seen = self._never_leased.get(table, 0)
                if (mine and (starting or seen >= 2)) or seen >= patience:
                    out.append(table)
            elif mine or expired_for >= self.grace:
                out.append(table)
        return out

    @property
    def patience(self) -> int:
        """Reads a table waits for its preferred node before another node may take it."""
        return 2 + int(self.grace)

    def _sibling_starting(self, node: str | None) -> bool:
        """Whether ``node`` is a node of this machine's ``--nodes N`` that is not started yet,
        or has been seen up for fewer than ``patience`` reads: it takes its share one table at
        a time as it starts, and another node taking them meanwhile would race it."""
        role = self.role
        if role.given_name is not None or role.count < 2 or node is None or node == self.name:
            return False
        if node in self.alive:
            return self._up_for.get(node, 0) < self.patience
        return time.monotonic() - self.started < STARTING_SECONDS

    async def acquire(self, table_id: int) -> int | None:
        """Take the table's lease: its epoch, or None if another node holds it."""
        name, ttl = self.name, self.ttl
        epoch = await self._read(lambda s: s.leases.acquire(table_id, name, ttl))
        if epoch is not None:
            self.epochs[table_id] = epoch
            self.owners[table_id] = name
            self.unowned.pop(table_id, None)
        return epoch

    async def release(self, table_id: int) -> None:
        """Give the table up: another node may take it at once."""
        epoch = self.epochs.pop(table_id, None)
        if epoch is None:
            return
        name = self.name
        await self._read(lambda s: s.leases.release(table_id, name, epoch))
        self.owners.pop(table_id, None)
        self.unowned[table_id] = 0.0

    def owner_of(self, table_id: int) -> str | None:
        """The live owner of a table as last read (None: nobody, or not known yet)."""
        return self.owners.get(table_id)

    def moving(self, table_id: int) -> bool:
        """Whether the table is open and nobody holds it just now (it is being taken over)."""
        return table_id in self.unowned

    def address_of(self, node: str) -> str | None:
        return self.addresses.get(node)

    async def stop(self) -> None:
        """This node stops: its leases expire now and its row goes (others take over)."""
        name = self.name
        self.epochs.clear()
        try:
            await self._read(lambda s: s.leases.forget_node(name))
        except Exception as exc:  # the database is gone: the leases expire by themselves
            log.warning("could not give up node %s's leases: %s", name, exc)
