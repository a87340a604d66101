"""Table leases: one owner at a time, expiry, takeover with a higher epoch, and fencing (a
write carrying a stale epoch is refused, nothing written), on SQLite and PostgreSQL."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import func, select

from baida.server.store import Fence, LeaseLost, SettleRequest, Store
from baida.server.store.models import HandAction

pytest_plugins = ["store_support"]

SEED = bytes(range(32))


def a_table_and_match(store: Store, seats: list[int | None]) -> tuple[int, int]:
    table = store.tables.create("jiaxing", 1, options={"allow_chi": True},
                                config={"stakes": "silver"})
    return table.id, store.tables.start_match(table.id, seats, {"hand_number": 0}).id


def test_one_owner_until_the_lease_expires_then_a_higher_epoch(store: Store) -> None:
    table, _ = a_table_and_match(store, [None] * 4)
    assert store.leases.acquire(table, "a", ttl=0.5) == 1
    assert store.leases.acquire(table, "b", ttl=0.5) is None  # a holds it
    assert store.leases.renew("a", 0.5, [table], address="10.0.0.1:8000") == {table: 1}
    time.sleep(0.6)
    assert store.leases.acquire(table, "b", ttl=5) == 2  # expired: b takes it over
    assert store.leases.renew("a", 5, [table]) == {}  # a learns it lost the table
    assert store.leases.renew("b", 5, [table]) == {table: 2}
    now, rows = store.leases.leases()
    assert [(r.table_id, r.owner, r.epoch) for r in rows] == [(table, "b", 2)]
    assert rows[0].expires > now
    _, nodes = store.leases.nodes()
    assert [(n.name, n.address, n.tables) for n in nodes] == [("a", None, 1), ("b", None, 1)]


def test_a_node_that_restarts_takes_its_own_tables_back_at_once(store: Store) -> None:
    table, _ = a_table_and_match(store, [None] * 4)
    assert store.leases.acquire(table, "a", ttl=30) == 1
    assert store.leases.acquire(table, "a", ttl=30) == 2  # same name: its own, a new epoch


def test_release_lets_another_node_take_the_table_now(store: Store) -> None:
    table, _ = a_table_and_match(store, [None] * 4)
    store.leases.acquire(table, "a", ttl=30)
    assert not store.leases.release(table, "a", epoch=7)  # not its epoch: nothing happens
    assert store.leases.acquire(table, "b", ttl=30) is None
    assert store.leases.release(table, "a", epoch=1)
    assert store.leases.acquire(table, "b", ttl=30) == 2


def test_draining_and_forgetting_a_node(store: Store) -> None:
    table, _ = a_table_and_match(store, [None] * 4)
    assert not store.leases.set_draining("a", True)  # never ran
    store.leases.acquire(table, "a", ttl=30)
    store.leases.renew("a", 30, [table], address="h:1")
    assert store.leases.set_draining("a", True)
    _, nodes = store.leases.nodes()
    assert [(n.name, n.address, n.draining, n.tables) for n in nodes] == [("a", "h:1", True, 1)]
    store.leases.forget_node("a")
    assert store.leases.nodes()[1] == []
    assert store.leases.acquire(table, "b", ttl=30) == 2


def test_fenced_writes_of_a_node_that_lost_its_table_are_refused(store: Store) -> None:
    people = [store.accounts.create_guest().id for _ in range(4)]
    table, match = a_table_and_match(store, people)
    store.leases.acquire(table, "a", ttl=0.2)
    old = Fence(table, "a", 1)
    hand = store.hands.start(match, 0, ruleset="jiaxing", seed=SEED, setup={"dealer": 0},
                             seats=people, fence=old)
    assert store.hands.append_rows([(hand.id, 0, {"type": "x"})], {hand.id: old}) == set()
    time.sleep(0.3)
    assert store.leases.acquire(table, "b", ttl=30) == 2  # a paused; b took over
    new = Fence(table, "b", 2)
    # a wakes up: its actions, its deal and its hand end are all refused
    assert store.hands.append_rows([(hand.id, 1, {"type": "stale"})], {hand.id: old}) == {table}
    settle = SettleRequest(txn_key=f"hand:{hand.id}", seats=people, owed=[3, -1, -1, -1], fee=0)
    with pytest.raises(LeaseLost):
        store.hands.finish(hand.id, {"r": 1}, {"outcome": "win"}, settle=settle, fence=old)
    with pytest.raises(LeaseLost):
        store.hands.start(match, 1, ruleset="jiaxing", seed=SEED, setup={}, seats=people,
                          fence=old)
    # nor may it start a match beside the new owner's, or change a match's seats
    with pytest.raises(LeaseLost):
        store.tables.start_match(table, people, {"hand_number": 0}, fence=old)
    with pytest.raises(LeaseLost):
        store.tables.save_match(match, seats=[None, *people[1:]], fence=old)
    assert store.tables.get_match(match).seats == people
    assert store.tables.save_match(match, seats=people, fence=new).seats == people
    # the new owner's writes go through, once
    assert store.hands.append_rows([(hand.id, 1, {"type": "new"})], {hand.id: new}) == set()
    done = store.hands.finish(hand.id, {"r": 1}, {"outcome": "win"}, settle=settle, fence=new)
    assert not done.replayed and store.ledger.check().ok
    with store.engine.connect() as c:
        actions = c.execute(select(HandAction.seq, HandAction.action)
                            .where(HandAction.hand_id == hand.id).order_by(HandAction.seq)).all()
        assert [(s, a["type"]) for s, a in actions] == [(0, "x"), (1, "new")]
        assert c.execute(select(func.count()).select_from(HandAction)).scalar() == 2


def test_a_stale_owner_charges_no_escape_penalty(store: Store) -> None:
    people = [store.accounts.create_guest().id for _ in range(4)]
    table, match = a_table_and_match(store, people)
    store.leases.acquire(table, "a", ttl=30)
    store.leases.release(table, "a", 1)
    assert store.leases.acquire(table, "b", ttl=30) == 2
    key = f"escape:{match}:1:0"
    before = store.ledger.totals(), store.ledger.history(people[0])
    with pytest.raises(LeaseLost):
        store.ledger.escape(key, people[0], 50, people[1:], fence=Fence(table, "a", 1))
    assert (store.ledger.totals(), store.ledger.history(people[0])) == before
    # the owner's charge goes through, once, under the same key
    done = store.ledger.escape(key, people[0], 50, people[1:], fence=Fence(table, "b", 2))
    assert done.penalty_paid == 50 and not done.replayed and store.ledger.check().ok


def test_a_batch_refuses_only_the_stale_tables_rows(store: Store) -> None:
    t1, m1 = a_table_and_match(store, [None] * 4)
    t2, m2 = a_table_and_match(store, [None] * 4)
    store.leases.acquire(t1, "a", ttl=30)
    store.leases.acquire(t2, "a", ttl=30)
    h1 = store.hands.start(m1, 0, ruleset="jiaxing", seed=SEED, setup={}, seats=[None] * 4)
    h2 = store.hands.start(m2, 0, ruleset="jiaxing", seed=SEED, setup={}, seats=[None] * 4)
    store.leases.release(t2, "a", 1)
    store.leases.acquire(t2, "b", ttl=30)
    stale = store.hands.append_rows(
        [(h1.id, 0, {"t": 1}), (h2.id, 0, {"t": 2})],
        {h1.id: Fence(t1, "a", 1), h2.id: Fence(t2, "a", 1)})
    assert stale == {t2}
    with store.engine.connect() as c:
        assert c.execute(select(HandAction.hand_id)).scalars().all() == [h1.id]


def test_the_overview_names_the_open_tables_nobody_holds(store: Store) -> None:
    t1, _ = a_table_and_match(store, [None] * 4)
    t2, _ = a_table_and_match(store, [None] * 4)
    t3, _ = a_table_and_match(store, [None] * 4)
    store.tables.close(t3)
    store.leases.acquire(t1, "a", ttl=30)
    store.leases.renew("a", 30, [t1], address="h:1")
    seen = store.leases.overview()
    assert seen.unowned == {t2: None}
    assert [(r.table_id, r.owner) for r in seen.leases] == [(t1, "a")]
    assert [(n.name, n.address) for n in seen.nodes] == [("a", "h:1")]
    store.leases.release(t1, "a", 1)
    again = store.leases.overview().unowned
    assert set(again) == {t1, t2} and again[t1] is not None and again[t1] >= 1.0
