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
