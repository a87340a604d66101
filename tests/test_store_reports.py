"""Reports of players by others at their table, kept for the operator's page (SQLite, and
PostgreSQL when ``BAIDA_TEST_POSTGRES_URL`` is set)."""

from __future__ import annotations

import pytest

from baida.server.store import InvalidRequest, Store

pytest_plugins = ["store_support"]


def test_reports_are_kept_with_the_reported_words_and_listed_newest_first(store: Store) -> None:
    rude = store.accounts.register("Rude", "a long password")
    alice = store.accounts.register("阿丽", "a long password")
    bob = store.accounts.create_guest()
    words = [f"line {i}" for i in range(14)] + ["x" * 500]
    first = store.reports.add(7, rude.id, alice.id, words)
    second = store.reports.add(9, rude.id, bob.id, [])
    newest = store.reports.newest()
    assert [r.id for r in newest] == [second, first]
    older = newest[1]
    assert (older.table_id, older.user_id, older.user_name, older.reporter_id,
            older.reporter_name) == (7, rude.id, "Rude", alice.id, "阿丽")
    assert len(older.chat) == 10 and older.chat[0] == "line 5"  # the last ten, oldest first
    assert older.chat[-1] == "x" * 200  # a line is kept to 200 characters
    assert older.at.tzinfo is not None and newest[0].chat == []
    assert [r.id for r in store.reports.newest(limit=1)] == [second]
    with pytest.raises(InvalidRequest):
        store.reports.add(7, alice.id, alice.id, ["me"])
    assert len(store.reports.newest()) == 2


def test_an_operator_marks_a_report_handled_and_may_open_it_again(store: Store) -> None:
    rude = store.accounts.register("Rude", "a long password")
    alice = store.accounts.register("Alice", "a long password")
    boss = store.accounts.register("Boss", "a long password", role="admin")
    other = store.accounts.register("Other", "a long password", role="admin")
    first = store.reports.add(7, rude.id, alice.id, ["x"])
    second = store.reports.add(8, rude.id, alice.id, ["y"])
    assert store.reports.open_count() == 2
    assert store.reports.newest()[0].handled_at is None
    assert store.reports.set_handled(first, boss.id)
    assert store.reports.open_count() == 1
    assert [r.id for r in store.reports.newest(open_only=True)] == [second]
    handled = {r.id: r for r in store.reports.newest()}[first]
    assert (handled.handled_by, handled.handled_by_name) == (boss.id, "Boss")
    assert handled.handled_at is not None and handled.handled_at.tzinfo is not None
    # marked again by another operator: the first one and their time stay
    assert store.reports.set_handled(first, other.id)
    again = {r.id: r for r in store.reports.newest()}[first]
    assert (again.handled_by, again.handled_at) == (boss.id, handled.handled_at)
    # opened again: open once more, no handler
    assert store.reports.set_handled(first, None)
    reopened = {r.id: r for r in store.reports.newest()}[first]
    assert (reopened.handled_at, reopened.handled_by, reopened.handled_by_name) == (
        None, None, None)
    assert store.reports.open_count() == 2
    assert not store.reports.set_handled(10**9, boss.id)  # no such report
    assert store.reports.open_count() == 2
