"""Mutes (屏蔽) kept with the account (SQLite, and PostgreSQL when
``BAIDA_TEST_POSTGRES_URL`` is set)."""

from __future__ import annotations

import pytest

from baida.server.store import InvalidRequest, Store
from baida.server.store.errors import NotFound
from baida.server.store.mutes import MUTES_MAX

pytest_plugins = ["store_support"]


def test_a_player_mutes_and_unmutes_others_and_the_list_is_theirs_alone(store: Store) -> None:
    alice = store.accounts.register("Alice", "a long password")
    rude = store.accounts.register("Rude", "a long password")
    guest = store.accounts.create_guest()
    assert store.mutes.of(alice.id) == []
    assert store.mutes.set(alice.id, rude.id, True) == [rude.id]
    assert store.mutes.set(alice.id, guest.id, True) == [rude.id, guest.id]
    assert store.mutes.set(alice.id, rude.id, True) == [rude.id, guest.id]  # twice: once
    assert store.mutes.of(rude.id) == [] and store.mutes.of(guest.id) == []
    assert store.mutes.set(guest.id, alice.id, True) == [alice.id]  # a guest keeps its own
    assert store.mutes.set(alice.id, rude.id, False) == [guest.id]
    assert store.mutes.set(alice.id, rude.id, False) == [guest.id]  # not muted: nothing
    with pytest.raises(InvalidRequest, match="themselves"):
        store.mutes.set(alice.id, alice.id, True)
    with pytest.raises(NotFound):
        store.mutes.set(alice.id, 10**9, True)
    assert store.mutes.of(alice.id) == [guest.id]


def test_mutes_are_capped(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    assert MUTES_MAX == 500
    monkeypatch.setattr("baida.server.store.mutes.MUTES_MAX", 2)
    me = store.accounts.register("Many", "a long password")
    others = [store.accounts.create_guest().id for _ in range(3)]
    store.mutes.set(me.id, others[0], True)
    store.mutes.set(me.id, others[1], True)
    with pytest.raises(InvalidRequest, match="at most 2"):
        store.mutes.set(me.id, others[2], True)
    assert store.mutes.set(me.id, others[1], True) == others[:2]  # again: not one more
