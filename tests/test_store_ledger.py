"""The 银子 ledger in the database: double entry, caps, idempotent retries, concurrency."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from itertools import count

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from sqlalchemy import func, select, text

from baida.server.store import (
    IdempotencyConflict,
    InvalidRequest,
    NotFound,
    Store,
)
from baida.server.store.ledger import MAX_BALANCE
from baida.server.store.models import LedgerEntry, LedgerTxn

pytest_plugins = ["store_support"]


def rows(store: Store) -> tuple[int, int]:
    """(transactions, entries) written so far."""
    with store.engine.connect() as connection:
        return (connection.scalar(select(func.count()).select_from(LedgerTxn)),
                connection.scalar(select(func.count()).select_from(LedgerEntry)))


def players(store: Store, n: int) -> list[int]:
    return [store.accounts.create_guest().id for _ in range(n)]


def assert_sound(store: Store) -> None:
    """Every transaction sums to 0, caches equal their entries, no balance is below 0, and
    the players hold what was granted less what the house and the bots took."""
    check = store.ledger.check()
    assert check.ok, check
    totals = store.ledger.totals()
    assert totals.entries_sum == 0
    by = totals.by_entry
    grants = by.get(("user", "grant"), 0)
    assert grants == -totals.by_account["mint"]
    to_house = by.get(("house", "fee"), 0) + by.get(("house", "penalty"), 0)
    assert totals.by_account["user"] == grants - to_house - totals.by_account["bots"]
    assert totals.by_account["user"] == sum(a.balance for a in
                                            store.accounts.list_players(limit=10_000))


def test_a_grant_is_idempotent(store: Store) -> None:
    (alice,) = players(store, 1)
    first = store.ledger.grant("topup-1", alice, 250)
    assert (first.balance_after, first.replayed) == (1250, False)
    before = rows(store)
    again = store.ledger.grant("topup-1", alice, 250)
    assert again.replayed and again.balance_after == 1250 and again.amount == 250
    assert rows(store) == before and store.ledger.balance(alice) == 1250
    with pytest.raises(IdempotencyConflict, match="topup-1"):
        store.ledger.grant("topup-1", alice, 300)
    for bad in (0, -5, 1.5, True, "10"):
        with pytest.raises(InvalidRequest, match="grant"):
            store.ledger.grant("topup-2", alice, bad)
    with pytest.raises(NotFound):
        store.ledger.grant("topup-3", 999, 10)
    assert rows(store) == before
    assert_sound(store)


def test_grants_stay_within_what_an_account_may_hold(store: Store) -> None:
    """Two grants of 2^63 - 1 overflowed SQLite's integer into a float balance, and every sum
    of the ledger (the admin page, ``baida admin check``) failed after it."""
    (alice,) = players(store, 1)
    before = rows(store)
    for amount in (2**63 - 1, MAX_BALANCE + 1):
        with pytest.raises(InvalidRequest, match=f"at most {MAX_BALANCE}"):
            store.ledger.grant(f"huge-{amount}", alice, amount)
    top = MAX_BALANCE - store.ledger.balance(alice)
    with pytest.raises(InvalidRequest, match="more than the most one account holds"):
        store.ledger.grant("just-over", alice, top + 1)
    assert rows(store) == before
    assert store.ledger.grant("to-the-top", alice, top).balance_after == MAX_BALANCE
    assert store.ledger.balance(alice) == MAX_BALANCE
    assert store.ledger.totals() is not None
    assert_sound(store)


def test_a_hand_is_settled_once_with_caps_and_fees(store: Store) -> None:
    a, b, c = players(store, 3)
    store.ledger.grant("poor", a, 1)  # a: 1001
    seats = [a, b, None, c]
    owed = [-1500, 600, 400, 500]
    first = store.ledger.settle_hand("hand-1", seats, owed, 10)
    assert [(s.user_id, s.owed, s.amount, s.fee, s.balance_after) for s in first.seats] == [
        (a, -1500, -1001, 0, 0),
        # 1001 shared 600:400:500 -> 400.4, 266.9, 333.7 -> 400, 267, 334
        (b, 600, 400, 10, 1390),
        (None, 400, 267, 0, None),
        (c, 500, 334, 10, 1324),
    ]
    assert first.fees == 20 and not first.replayed
    before = rows(store)
    again = store.ledger.settle_hand("hand-1", seats, owed, 10)
    assert again.replayed and again.seats == first.seats
    assert rows(store) == before
    with pytest.raises(IdempotencyConflict):
        store.ledger.settle_hand("hand-1", seats, [-1500, 600, 500, 400], 10)
    with pytest.raises(IdempotencyConflict):  # the same key for another operation
        store.ledger.grant("hand-1", a, 5)
    assert [store.ledger.balance(u) for u in (a, b, c)] == [0, 1390, 1324]
    history = store.ledger.history(b)
    assert [(e.kind, e.amount, e.txn_key) for e in history] == [
        ("fee", -10, "hand-1"), ("hand", 400, "hand-1"), ("grant", 1000, f"start:{b}")]
    assert_sound(store)


def test_a_win_that_only_pays_the_fee_leaves_the_balance(store: Store) -> None:
    a, b, c = players(store, 3)
    out = store.ledger.settle_hand("h", [a, b, c, None], [1, 1, 1, -3], 1)
    assert [s.balance_after for s in out.seats] == [1000, 1000, 1000, None]
    assert [e.kind for e in store.ledger.history(a)] == ["fee", "hand", "grant"]
    assert_sound(store)


def test_two_bot_seats_share_one_entry(store: Store) -> None:
    a, b = players(store, 2)
    out = store.ledger.settle_hand("h", [None, a, None, b], [-30, 50, -30, 10], 1)
    assert [s.amount for s in out.seats] == [-30, 50, -30, 10]
    with store.engine.connect() as connection:
        bots = connection.execute(text(
            "SELECT e.kind, e.amount FROM ledger_entries e JOIN wallets w ON w.id = e.wallet_id "
            "WHERE w.kind = 'bots'")).all()
    assert [tuple(r) for r in bots] == [("hand", -60)]
    assert store.ledger.totals().by_account["bots"] == -60
    assert_sound(store)


@pytest.mark.parametrize(("seats", "owed", "fee", "error", "message"), [
    ([1, 2, 3], [-1, 1, 0], 0, InvalidRequest, "four seats"),
    ([1, 1, 2, 3], [-1, 1, 0, 0], 0, InvalidRequest, "two seats"),
    ([1, 2, 3, 4], [-1, 2, 0, 0], 0, InvalidRequest, "sum to 0"),
    ([1, 2, 3, 4], [-1, 1, 0, 0], -3, InvalidRequest, "fee"),
    ([1, 2, 3, "x"], [-1, 1, 0, 0], 0, InvalidRequest, "user id"),
    ([1, 2, 3, 99], [-1, 1, 0, 0], 0, NotFound, "99"),
])
def test_bad_settlements_write_nothing(store: Store, seats, owed, fee, error, message) -> None:
    players(store, 4)
    before = rows(store)
    with pytest.raises(error, match=message):
        store.ledger.settle_hand("bad", seats, owed, fee)
    assert rows(store) == before


def test_an_escape_pays_the_others_and_the_house(store: Store) -> None:
    a, b, c = players(store, 3)
    out = store.ledger.escape("esc-1", a, 100, [b, None, c], fee=5)
    assert (out.penalty_paid, out.fee_paid, out.to_house, out.balance_after) == (100, 5, 1, 895)
    assert [(s.user_id, s.amount) for s in out.shares] == [(b, 33), (None, 33), (c, 33)]
    before = rows(store)
    again = store.ledger.escape("esc-1", a, 100, [b, None, c], fee=5)
    assert again.replayed and again.shares == out.shares and rows(store) == before
    assert [store.ledger.balance(u) for u in (a, b, c)] == [895, 1033, 1033]
    broke = store.ledger.escape("esc-2", a, 5000, [], fee=5)  # nobody left: all to the house
    assert (broke.penalty_paid, broke.fee_paid, broke.to_house, broke.balance_after) == \
        (895, 0, 895, 0)
    with pytest.raises(InvalidRequest, match="own penalty"):
        store.ledger.escape("esc-3", b, 10, [a, b])
    with pytest.raises(InvalidRequest, match="penalty"):
        store.ledger.escape("esc-3", b, -10, [a])
    totals = store.ledger.totals()
    assert totals.by_entry[("house", "penalty")] == 1 + 895
    assert totals.by_entry[("house", "fee")] == 5
    assert_sound(store)


def test_history_pages_newest_first(store: Store) -> None:
    (a,) = players(store, 1)
    for i in range(5):
        store.ledger.grant(f"g{i}", a, i + 1)
    first = store.ledger.history(a, limit=3)
    rest = store.ledger.history(a, limit=3, before=first[-1].id)
    assert [e.amount for e in first + rest] == [5, 4, 3, 2, 1, 1000]
    assert all(e.created_at.tzinfo is not None for e in first)


def test_the_check_finds_a_tampered_balance(store: Store) -> None:
    a, b = players(store, 2)
    assert store.ledger.check().ok
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE wallets SET balance = balance + 7 WHERE user_id = :u"),
                           {"u": a})
    check = store.ledger.check()
    assert not check.ok and check.cache_mismatches == [(a, 1007, 1000)]
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE ledger_entries SET amount = amount + 3 "
                                "WHERE txn_key = :k AND kind = 'grant' AND amount > 0"),
                           {"k": f"start:{b}"})
    assert store.ledger.check().unbalanced == [(f"start:{b}", 3)]


def test_the_database_refuses_a_negative_balance(store: Store) -> None:
    (a,) = players(store, 1)
    with pytest.raises(Exception, match="(?i)check|constraint"), store.engine.begin() as c:
        c.execute(text("UPDATE wallets SET balance = -1 WHERE user_id = :u"), {"u": a})


# ---------------------------------------------------------------------- random operations

KEYS = count()


@st.composite
def operations(draw: st.DrawFn) -> list[tuple]:
    ops = []
    for _ in range(draw(st.integers(1, 24))):
        kind = draw(st.sampled_from(["settle", "settle", "settle", "escape", "grant", "retry"]))
        if kind == "settle":
            seats = draw(st.permutations([0, 1, 2, 3, None, None]))[:4]
            three = draw(st.lists(st.integers(-400, 400), min_size=3, max_size=3))
            ops.append(("settle", seats, [*three, -sum(three)], draw(st.integers(0, 20))))
        elif kind == "escape":
            escaper = draw(st.integers(0, 3))
            others = draw(st.lists(st.sampled_from([None] + [u for u in range(4) if u != escaper]),
                                   max_size=3, unique=True))
            ops.append(("escape", escaper, draw(st.integers(0, 500)), others,
                        draw(st.integers(0, 20))))
        elif kind == "grant":
            ops.append(("grant", draw(st.integers(0, 3)), draw(st.integers(1, 300))))
        else:
            ops.append(("retry",))
    return ops


@pytest.fixture
def ledger_players(store: Store) -> list[int]:
    return players(store, 4)


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=operations())
def test_random_operations_keep_the_ledger_sound(store: Store, ledger_players: list[int],
                                                 ops: list[tuple]) -> None:
    """Across examples the same database keeps growing: the invariants hold throughout."""
    users = ledger_players
    done: list[tuple[str, Callable[[], object], object]] = []
    for op in ops:
        key = f"op-{next(KEYS)}"
        if op[0] == "settle":
            _, seats, owed, fee = op
            ids = [None if s is None else users[s] for s in seats]
            before = {a.id: a.balance for a in store.accounts.list_players()}
            call = partial(store.ledger.settle_hand, key, ids, owed, fee)
            result = call()
            for seat in result.seats:
                if seat.user_id is not None:
                    assert seat.balance_after == store.ledger.balance(seat.user_id) >= 0
                    if seat.owed < 0:
                        assert -seat.amount == min(-seat.owed, before[seat.user_id])
        elif op[0] == "escape":
            _, escaper, penalty, others, fee = op
            ids = [None if s is None else users[s] for s in others]
            call = partial(store.ledger.escape, key, users[escaper], penalty, ids, fee=fee)
            result = call()
            assert result.balance_after == store.ledger.balance(users[escaper]) >= 0
        elif op[0] == "grant":
            call = partial(store.ledger.grant, key, users[op[1]], op[2])
            result = call()
        else:
            if not done:
                continue
            _, call, result = done[-1]
            before = rows(store)
            again = call()
            assert again.replayed and rows(store) == before
            continue
        done.append((key, call, result))
    assert_sound(store)


# ---------------------------------------------------------------------- concurrency

def test_concurrent_writers_from_several_threads(store: Store, make_store) -> None:
    """Six threads write at once, half through a second engine on the same database (as a
    second process would): SQLite's writers queue on the busy timeout, PostgreSQL's on locks."""
    users = players(store, 6)
    second = make_store(store.engine.url.render_as_string(hide_password=False), migrate=False)
    stores = (store, second)
    threads, per_thread = 6, 25
    barrier = threading.Barrier(threads)

    def work(worker: int) -> int:
        rng = random.Random(worker)
        ledger = stores[worker % 2].ledger
        barrier.wait()
        for i in range(per_thread):
            seats = rng.sample([*users, None, None], 4)
            three = [rng.randint(-300, 300) for _ in range(3)]
            if i % 5 == 4:
                ledger.grant(f"w{worker}-{i}", rng.choice(users), 100)
            else:
                ledger.settle_hand(f"w{worker}-{i}", seats, [*three, -sum(three)], 3)
            ledger.balance(rng.choice(users))  # readers run alongside
        return per_thread

    with ThreadPoolExecutor(threads) as pool:
        assert sum(pool.map(work, range(threads))) == threads * per_thread
    assert store.ledger.totals().transactions == len(users) + threads * per_thread
    assert_sound(store)


def test_concurrent_retries_of_one_key_write_once(store: Store) -> None:
    a, b = players(store, 2)
    threads = 8
    barrier = threading.Barrier(threads)

    def settle(_: int):
        barrier.wait()
        return store.ledger.settle_hand("the-hand", [a, b, None, None], [-100, 40, 30, 30], 5)

    # entries: a's hand and fee, b's hand and fee, the bots' hand, the house's fees

    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(settle, range(threads)))
    assert sum(not r.replayed for r in results) == 1
    assert len({r.seats for r in results}) == 1
    with store.engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(LedgerEntry)
                                 .where(LedgerEntry.txn_key == "the-hand")) == 6
    assert store.ledger.balance(a) == 1000 - 100 - 5
    assert_sound(store)
