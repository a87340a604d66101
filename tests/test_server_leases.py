"""A node's lease keeper: which unowned tables it takes (its preferred ones at once, any after
the grace, none while draining), what it learns it lost, and where other nodes are."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from baida.server.nodes.leases import LeaseKeeper, rendezvous
from baida.server.nodes.role import NodeRole
from baida.server.store import Store

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(str(tmp_path / "hall.db"), sqlite_synchronous="NORMAL")
    s.migrate()
    return s


def keeper(store: Store, name: str, **role: Any) -> LeaseKeeper:
    async def read(fn: Any) -> Any:
        return fn(store)

    node = NodeRole(role.pop("index", 0), role.pop("count", 1), Path("/nonexistent"), "", "",
                    given_name=name, address=f"{name}:8000", **role)
    return LeaseKeeper(node, read, ttl=1.0, grace=0.5)


def tables(store: Store, n: int) -> list[int]:
    return [store.tables.create("jiaxing", i + 1, options={}, config={}).id for i in range(n)]


def test_rendezvous_is_the_same_everywhere_and_spreads() -> None:
    nodes = ["a", "b", "c"]
    picks = [rendezvous(t, nodes) for t in range(300)]
    assert picks == [rendezvous(t, list(reversed(nodes))) for t in range(300)]
    assert all(picks.count(n) > 60 for n in nodes)
    assert rendezvous(1, []) is None


async def test_nodes_split_the_tables_and_take_over_a_dead_ones(store: Store) -> None:
    ids = tables(store, 12)
    a, b = keeper(store, "a"), keeper(store, "b")
    for k in (a, b):  # both alive before either claims
        await k.renew()
    for k in (a, b):
        await k.refresh()
        for t in k.to_claim(starting=True):
            assert await k.acquire(t) is not None
    assert sorted([*a.epochs, *b.epochs]) == ids and a.epochs and b.epochs
    await b.renew()
    await a.refresh()
    assert a.owner_of(next(iter(b.epochs))) == "b" and a.address_of("b") == "b:8000"

    # b stops renewing: after its leases expire a takes its preferred ones at once...
    time.sleep(1.1)
    await a.renew()
    await a.refresh()
    assert set(b.epochs) <= set(a.unowned) and all(a.moving(t) for t in b.epochs)
    first = a.to_claim()
    assert set(first) == {t for t in b.epochs if rendezvous(t, ["a"]) == "a"}
    # ... and the rest (preferring b, whose row still looks alive) after the grace
    time.sleep(0.55)
    await a.refresh()
    assert set(a.to_claim()) == set(b.epochs)
    for t in a.to_claim():
        assert await a.acquire(t) is not None
    # b wakes up: its renewal tells it every table is gone
    held = sorted(b.epochs)
    assert sorted(await b.renew()) == held and b.epochs == {}


async def test_a_draining_node_takes_nothing_and_is_nobodys_preference(store: Store) -> None:
    tables(store, 6)
    a, b = keeper(store, "a"), keeper(store, "b")
    await a.renew()
    await b.renew()
    assert store.leases.set_draining("a", True)
    await a.refresh()
    await b.refresh()
    assert a.is_draining and a.to_claim(starting=True) == []
    assert len(b.to_claim(starting=True)) == 6  # a drains: every table prefers b


async def test_nodes_of_one_machine_wait_for_a_sibling_that_is_starting(store: Store) -> None:
    ids = tables(store, 6)

    async def read(fn: Any) -> Any:
        return fn(store)

    node0 = LeaseKeeper(NodeRole(0, 2, Path("/x"), "", ""), read, ttl=0.5, grace=0.0)
    await node0.refresh()
    assert node0.to_claim(starting=True) == [t for t in ids if t % 2 == 0]
    await node0.refresh()
    await node0.refresh()
    assert node0.to_claim() == [t for t in ids if t % 2 == 0]  # node-1 is not up yet

    # node-1 comes up: node-0 has been seeing its tables unowned for a while, yet it gives
    # node-1 the whole patience from the read that first sees it up (node-1 takes its share
    # one table at a time, so taking at once would race it and win some)
    node1 = LeaseKeeper(NodeRole(1, 2, Path("/x"), "", ""), read, ttl=5.0, grace=0.0)
    await node1.renew()
    odd = [t for t in ids if t % 2 == 1]
    for _ in range(node0.patience - 1):
        await node0.refresh()
        assert not set(node0.to_claim()) & set(odd)
    await node0.refresh()
    assert set(odd) <= set(node0.to_claim())  # node-1 up yet still not taking: anyone may
    await node1.refresh()
    assert node1.to_claim(starting=True) == odd


async def test_a_restarted_sibling_gets_its_expired_tables_back_first(store: Store) -> None:
    """A whole machine restarts: node-1's tables were leased before and have expired. The new
    node-0 leaves them while node-1 is down (it is starting) and for the patience after it is
    first seen up, then takes whatever node-1 has not."""
    ids = tables(store, 6)
    odd = [t for t in ids if t % 2 == 1]

    async def read(fn: Any) -> Any:
        return fn(store)

    def node(index: int) -> LeaseKeeper:
        return LeaseKeeper(NodeRole(index, 2, Path("/x"), "", ""), read, ttl=5.0, grace=1.0)

    before = node(1)
    for t in odd:
        assert await before.acquire(t) is not None
    await before.stop()  # the leases expire now: the tables are unowned, leased before

    node0 = node(0)
    await node0.renew()
    for _ in range(3):
        await node0.refresh()
        assert not set(node0.to_claim(starting=True)) & set(odd)
    assert all(node0.unowned[t] is not None for t in odd)  # expired, not never leased

    node1 = node(1)
    await node1.renew()
    for _ in range(node0.patience - 1):
        await node0.refresh()
        assert not set(node0.to_claim()) & set(odd)
    await node1.refresh()
    assert node1.to_claim(starting=True) == odd
    await node0.refresh()  # up for the whole patience: had node-1 not taken them, node-0 would
    assert set(odd) <= set(node0.to_claim())
