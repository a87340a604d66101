"""Guests nobody can be again (no session left: a guest has no password) and nothing refers to
are removed with their wallet and starting grant; every guest something refers to, or that
someone may still be, stays, and the ledger stays balanced. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from baida.server.store import Store
from baida.server.store.guests import GRACE, prune_guests, start_key
from baida.server.store.logins import SESSION_DAYS
from baida.server.store.models import LedgerEntry, LedgerTxn, User, Wallet

pytest_plugins = ["store_support"]

SEED = bytes(range(32))


def counts(store: Store) -> tuple[int, int, int, int]:
    with store.engine.connect() as c:
        return tuple(c.scalar(select(func.count()).select_from(t))
                     for t in (User, Wallet, LedgerTxn, LedgerEntry))  # type: ignore[return-value]


def test_only_guests_nobody_can_be_and_nothing_refers_to_are_removed(databases: Any) -> None:
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    store: Store = databases.store(clock=lambda: now[0])
    accounts = store.accounts

    def guest(session: bool = False) -> int:
        made = accounts.create_guest().id
        if session:
            accounts.open_session(made)
        return made

    gone = [guest(), guest()]  # their sessions never opened (or long expired)
    signed_out = guest()
    accounts.close_session(accounts.open_session(signed_out))  # it signed out: none left
    gone.append(signed_out)
    alive = guest(session=True)  # it comes back (below): a session that has not expired
    registered = accounts.register("Alice", "password1")  # no password: never removed
    played = guest()
    table = store.tables.create("jiaxing", 1, options={}, config={"stakes": "silver"})
    match = store.tables.start_match(table.id, [played, None, None, None], {"hand_number": 0})
    store.hands.start(match.id, 0, ruleset="jiaxing", seed=SEED, setup={"dealer": 0},
                      seats=[played, None, None, None])
    granted = guest()
    store.ledger.grant(f"admin:{granted}", granted, 50)  # 银子 beyond the starting grant
    muted, muter = guest(), guest()
    store.mutes.set(muter, muted, True)
    reported = guest()
    store.reports.add(table.id, reported, registered.id, ["…"])
    host = guest()
    store.tables.create("wenling", 2, options={}, config={"host": host, "player_made": True})
    creator = guest()
    store.tables.create("wenling", 3, options={}, config={}, created_by=creator)
    newest = guest()  # SQLite would give its id to the next account
    kept = [alive, registered.id, played, granted, muted, muter, reported, host, creator, newest]
    before = counts(store)

    # a new guest's row has its session a moment later: nothing goes within the grace
    now[0] += GRACE - timedelta(seconds=1)
    assert accounts.prune_guests() == ([], 0)
    accounts.open_session(alive)
    now[0] += timedelta(seconds=1)
    assert accounts.prune_guests() == (gone, 0)
    assert accounts.prune_guests() == ([], 0)
    users, wallets, txns, entries = counts(store)
    assert (users, wallets, txns, entries) == (before[0] - 3, before[1] - 3, before[2] - 3,
                                               before[3] - 6)
    with store.engine.connect() as c:
        left = set(c.scalars(select(User.id)))
        keys = set(c.scalars(select(LedgerTxn.key)))
    assert left.isdisjoint(gone) and left >= set(kept)
    assert {start_key(u) for u in gone}.isdisjoint(keys)
    assert store.ledger.check().ok, store.ledger.check()
    assert accounts.get(alive).balance == 1000

    # once its session expires, the guest that had one goes too; and the newest, once a new
    # account is the newest
    now[0] += timedelta(days=SESSION_DAYS)
    accounts.register("Bob", "password1")
    assert accounts.prune_guests() == ([alive, newest], 0)
    assert store.ledger.check().ok


def test_a_batch_is_at_most_its_limit_and_the_next_call_goes_on(databases: Any) -> None:
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    store: Store = databases.store(clock=lambda: now[0])
    made = [store.accounts.create_guest().id for _ in range(7)]
    now[0] += GRACE
    with store.engine.begin() as connection, Session(bind=connection) as session:
        # a batch of 4: the next call goes on after its last
        assert prune_guests(session, now[0], limit=4) == (made[:4], made[3])
        # a window of ids: the next call starts after it, and back at 0 past the newest
        assert prune_guests(session, now[0], made[3], window=1) == ([made[4]], made[4])
        assert prune_guests(session, now[0], made[4], window=10) == ([made[5]], 0)
    assert store.accounts.prune_guests() == ([], 0)  # the newest stays
    assert store.ledger.check().ok
