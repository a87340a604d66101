"""Which tables this node plays, in a hall of several nodes: it holds each by a lease in the
store (``nodes.leases.LeaseKeeper``), renews them every second, takes over the tables of a
node that stopped renewing (its hands go on from the store, as after a restart), lets go at
once of a table another node took (a write of its refused by the store's fencing says so
too), and, while draining, gives its tables away between hands."""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from ..nodes.leases import EVERY, LeaseKeeper
from ..nodes.role import NodeRole
from ..ops.logs import fields
from ..store.leases import SETUP, Fence

log = logging.getLogger(__name__)

SETUP_SECONDS = 60.0  # how long a node waits for another to make the hall's standing tables
# while draining, how long a table in mid-hand is waited for before it moves mid-hand
DRAIN_WAIT = float(os.environ.get("BAIDA_DRAIN_WAIT", "120"))


class Ownership:
    """This node's tables by lease (``Hall.open`` starts it for a node of several)."""

    def __init__(self, hall: Any, role: NodeRole) -> None:
        """``hall``: the ``hall.Hall`` whose tables these are."""
        self.hall = hall
        self.keeper = LeaseKeeper(role, hall.db.read)
        self._task: asyncio.Task[None] | None = None
        self._drain_since: float | None = None
        self._drained = False
        self.moves = 0  # tables taken over from another node
        self.given = 0  # tables given away while draining

    # ---------------------------------------------------------------- life

    async def open(self) -> None:
        """Make the standing tables if the hall is new, take this node's share of the
        tables nobody holds, and keep the leases from now on."""
        keeper = self.keeper
        await keeper.renew()  # alive at once: nodes starting together share the tables
        await self._set_up()
        await keeper.refresh()
        await self.take_over(keeper.to_claim(starting=True))
        await keeper.renew()  # alive from now on, its share taken
        self._task = asyncio.get_running_loop().create_task(self._keep(), name="leases")

    async def close(self) -> None:
        """Stop renewing; the leases expire now, so the other nodes take the tables over."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        await self.keeper.stop()

    async def _set_up(self) -> None:
        """One node at a time (the ``SETUP`` lease): the standing tables of a new hall, and
        the hands of tables closed while they played (voided)."""
        hall = self.hall
        name = self.keeper.name
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETUP_SECONDS
        while await hall.db.read(lambda s: s.leases.acquire(SETUP, name, 30.0)) is None:
            if loop.time() > deadline:
                raise RuntimeError("another node has been setting up the hall for "
                                   f"{SETUP_SECONDS:.0f} s")
            await asyncio.sleep(0.2)
        try:
            await hall.make_standing()
            open_ids = {t.id for t in await hall.db.read(lambda s: s.tables.list())}
            hands = await hall.db.read(lambda s: s.hands.in_progress())
            await hall.resume_hands([h for h in hands if h.table_id not in open_ids])  # voided
        finally:
            await hall.db.read(lambda s: s.leases.forget_setup(name))

    # ---------------------------------------------------------------- every second

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(EVERY)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store is out: the leases expire, fencing holds
                log.warning("could not renew this node's leases: %s", exc)

    async def tick(self) -> None:
        hall, keeper = self.hall, self.keeper
        for table_id in await keeper.renew():
            log.warning("table %s was taken over by another node", table_id, extra=fields(
                "table_lost", table=table_id, node=keeper.name))
            hall.let_go(table_id, "table moved")
        await keeper.refresh()
        if keeper.is_draining:
            await self._drain()
            return
        if self._drain_since is not None:
            log.info("node %s takes tables again", keeper.name)
            for actor in hall.tables.values():
                actor.holding = False
                actor.post(actor._maybe_start)
        self._drain_since, self._drained = None, False
        claims = keeper.to_claim()
        if claims:
            await self.take_over(claims)

    # ---------------------------------------------------------------- moving tables

    async def take_over(self, table_ids: list[int]) -> list[Any]:
        """Take the leases of ``table_ids`` (those another node did not take first), run
        their tables here and resume their hands and matches from the store."""
        hall, keeper = self.hall, self.keeper
        taken = []
        for table_id in table_ids:
            epoch = await keeper.acquire(table_id)
            if epoch is None:
                continue
            row = await hall.db.read(lambda s, t=table_id: s.tables.get(t))
            if row.status != "open" or table_id in hall.tables:
                await keeper.release(table_id)
                continue
            try:
                actor = hall._spawn(row, Fence(table_id, keeper.name, epoch), take=True)
            except Exception:
                log.exception("table %s could not be taken over", table_id)
                await keeper.release(table_id)
                continue
            # a person reconnecting before the stored hand is resumed must not start a new
            # match beside it (two hands of one table in play): nothing starts until then
            actor.holding = True
            taken.append(actor)
        if not taken:
            return taken
        ids = [a.id for a in taken]
        try:
            await hall.resume_hands(await hall.db.read(lambda s: s.hands.in_progress(ids)))
            await hall._resume_matches(taken)
        finally:
            for actor in taken:
                actor.holding = keeper.is_draining
                actor.post(actor._maybe_start)
        self.moves += len(taken)
        log.info("node %s took %d tables", keeper.name, len(taken), extra=fields(
            "tables_taken", node=keeper.name, tables=ids))
        return taken

    async def give_away(self, table_id: int) -> None:
        """Stop the table here and release its lease: another node takes it at once."""
        hall = self.hall
        actor = hall.tables.get(table_id)
        if actor is None:
            return
        try:
            await asyncio.wait_for(actor.call(actor.let_go, "table moving"), 10.0)
        except TimeoutError:
            actor.let_go("table moving")
        finally:
            hall.tables.pop(table_id, None)  # whatever the store and directory say below
        try:
            # before ``forget``, which drops the lease's epoch: without it nothing is released
            # and the other nodes wait for the lease to expire
            await self.keeper.release(table_id)
        except Exception as exc:  # the store is out: the lease, no longer renewed, expires
            log.warning("table %s: its lease could not be released: %s", table_id, exc)
        try:
            hall.forget(table_id)
            hall.directory.release_table(table_id, self.keeper.name)
        except Exception as exc:  # the directory is out: the new owner's claim replaces it
            log.warning("table %s: the directory could not forget it: %s", table_id, exc)
        self.given += 1

    async def _drain(self) -> None:
        """Give every table away between hands (or in mid-hand after ``DRAIN_WAIT``)."""
        hall = self.hall
        now = asyncio.get_running_loop().time()
        if self._drain_since is None:
            self._drain_since = now
            log.info("node %s drains: %d tables to give away", self.keeper.name,
                     len(hall.tables), extra=fields("drain", node=self.keeper.name,
                                                    tables=len(hall.tables)))
        force = now - self._drain_since >= DRAIN_WAIT
        for actor in list(hall.tables.values()):
            actor.holding = True  # the hand in play is its last here
            if actor.hand is None or force:
                await self.give_away(actor.id)
        if not hall.tables and not self._drained:
            self._drained = True
            log.info("node %s is drained: it may be stopped", self.keeper.name,
                     extra=fields("drained", node=self.keeper.name))
