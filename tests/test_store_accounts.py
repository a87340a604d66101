"""Accounts: guests, registration, login, argon2 hashes and rehashing, roles, suspension."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from baida.server.store import (
    AccountSuspended,
    AuthenticationFailed,
    InvalidName,
    InvalidPassword,
    InvalidRequest,
    NameTaken,
    NotFound,
    Store,
)
from baida.server.store.logins import SESSION_DAYS
from baida.server.store.models import User
from baida.server.store.passwords import Passwords

pytest_plugins = ["store_support"]


def stored_hash(store: Store, user_id: int) -> str | None:
    with store.engine.connect() as connection:
        return connection.scalar(select(User.password_hash).where(User.id == user_id))


def test_a_guest_is_one_call_with_a_unique_name_and_the_starting_balance(store: Store) -> None:
    guests = [store.accounts.create_guest() for _ in range(30)]
    assert len({g.name.casefold() for g in guests}) == 30
    for guest in guests:
        assert guest.name.startswith("游客") and guest.name[2:].isdigit()
        assert (guest.is_guest, guest.role, guest.suspended, guest.balance) == \
            (True, "player", False, 1000)
        assert store.ledger.balance(guest.id) == 1000
    # the starting balance is a ledger grant from the mint
    history = store.ledger.history(guests[0].id)
    assert [(e.kind, e.amount, e.txn_key) for e in history] == \
        [("grant", 1000, f"start:{guests[0].id}")]
    assert store.ledger.totals().by_account["mint"] == -30_000


def test_guest_names_grow_a_digit_when_four_are_crowded(store: Store, monkeypatch) -> None:
    import baida.server.store.accounts as accounts

    draws = iter([7] + [7] * 20 + [12345])
    monkeypatch.setattr(accounts.secrets, "randbelow", lambda n: next(draws))
    first = store.accounts.create_guest()
    assert first.name == "游客0007"
    assert store.accounts.create_guest().name == "游客12345"  # 20 misses at 4 digits, then 5


def test_register_and_authenticate(store: Store) -> None:
    alice = store.accounts.register("Alice", "correct horse")
    assert (alice.name, alice.is_guest, alice.balance, alice.session_version) == \
        ("Alice", False, 1000, 1)
    assert stored_hash(store, alice.id).startswith("$argon2id$")
    assert store.accounts.authenticate("alice", "correct horse").id == alice.id  # any case
    assert store.accounts.authenticate("ＡＬＩＣＥ", "correct horse").id == alice.id  # NFKC
    for name, password in [("Alice", "wrong horse"), ("Bob", "correct horse"),
                           ("", "correct horse"), ("a b", "x")]:
        with pytest.raises(AuthenticationFailed, match="^wrong name or password$"):
            store.accounts.authenticate(name, password)


def test_names_are_unique_ignoring_case(store: Store) -> None:
    store.accounts.register("Alice", "password1")
    for taken in ("alice", "ALICE", "Ａｌｉｃｅ"):
        with pytest.raises(NameTaken, match="is taken"):
            store.accounts.register(taken, "password1")
    guest = store.accounts.create_guest()
    with pytest.raises(InvalidName, match="reserved word '游客'"):  # guest-like names are
        store.accounts.register(guest.name, "password1")  # reserved for guests
    assert len(store.accounts.list_players()) == 2


def test_bad_names_and_passwords_are_refused_before_anything_is_written(store: Store) -> None:
    with pytest.raises(InvalidName, match="at least 2"):
        store.accounts.register("A", "password1")
    with pytest.raises(InvalidPassword, match="at least 8"):
        store.accounts.register("Alice", "short")
    with pytest.raises(InvalidRequest, match="role"):
        store.accounts.register("Alice", "password1", role="owner")
    assert store.accounts.list_players() == []
    assert store.ledger.totals().transactions == 0


def test_a_guest_upgrades_keeping_its_balance_up_to_the_starting_grant(store: Store) -> None:
    guest = store.accounts.create_guest()
    store.ledger.grant("gift", guest.id, 55)
    with pytest.raises(AuthenticationFailed):  # a guest has no password to log in with
        store.accounts.authenticate(guest.name, "")
    upgraded = store.accounts.upgrade_guest(guest.id, "password1", name="小明")
    # what a guest won above the starting grant goes back to the mint: guests are free to
    # make, so their 银子 cannot be farmed into a registered account
    assert (upgraded.id, upgraded.name, upgraded.is_guest, upgraded.balance) == \
        (guest.id, "小明", False, 1000)
    assert [(e.kind, e.amount) for e in store.ledger.history(guest.id)][:1] == [("reclaim", -55)]
    assert store.ledger.check().ok
    assert store.accounts.authenticate("小明", "password1").id == guest.id
    with pytest.raises(InvalidRequest, match="already registered"):
        store.accounts.upgrade_guest(guest.id, "password2")
    other = store.accounts.create_guest()
    kept = store.accounts.upgrade_guest(other.id, "password1")  # keeps its guest name
    assert kept.name == other.name and not kept.is_guest
    third = store.accounts.create_guest()
    with pytest.raises(NameTaken):
        store.accounts.upgrade_guest(third.id, "password1", name="小明")
    assert store.accounts.get(third.id).is_guest
    assert store.ledger.totals().by_account["user"] == 3000


def test_suspension_blocks_login_and_play_and_bumps_the_session(store: Store) -> None:
    alice = store.accounts.register("Alice", "password1")
    suspended = store.accounts.set_suspended(alice.id)
    assert suspended.suspended and suspended.session_version == 2
    with pytest.raises(AccountSuspended, match="suspended"):
        store.accounts.authenticate("Alice", "password1")
    with pytest.raises(AuthenticationFailed):  # a wrong password says nothing of suspension
        store.accounts.authenticate("Alice", "password2")
    with pytest.raises(AccountSuspended):
        store.accounts.require_active(alice.id)
    again = store.accounts.set_suspended(alice.id)
    assert again.session_version == 2  # suspending twice bumps once
    back = store.accounts.set_suspended(alice.id, False)
    assert not back.suspended and store.accounts.require_active(alice.id).id == alice.id
    assert store.accounts.authenticate("Alice", "password1").session_version == 2


def test_a_poorer_guest_keeps_all_it_has(store: Store) -> None:
    guest, rich = store.accounts.create_guest(), store.accounts.create_guest()
    store.ledger.settle_hand("h1", [guest.id, rich.id, None, None], [-300, 300, 0, 0], 0)
    assert store.accounts.upgrade_guest(guest.id, "password1", name="Poorer").balance == 700
    assert store.accounts.get(rich.id).balance == 1300  # a guest may hold more as a guest


def test_logout_everywhere_and_password_change_bump_the_session_version(store: Store) -> None:
    alice = store.accounts.register("Alice", "password1")
    assert store.accounts.logout_everywhere(alice.id).session_version == 2
    with pytest.raises(AuthenticationFailed, match="wrong password"):
        store.accounts.change_password(alice.id, "password0", "password2")
    changed = store.accounts.change_password(alice.id, "password1", "password2")
    assert changed.session_version == 3
    assert store.accounts.authenticate("Alice", "password2").id == alice.id
    with pytest.raises(AuthenticationFailed):
        store.accounts.authenticate("Alice", "password1")


def test_rename(store: Store) -> None:
    alice = store.accounts.register("Alice", "password1")
    bob = store.accounts.create_guest()
    assert store.accounts.rename(alice.id, "ALICE").name == "ALICE"  # one's own name, recased
    renamed = store.accounts.rename(alice.id, "Ｌｉｓａ")
    assert (renamed.name, renamed.balance) == ("Lisa", 1000)
    assert store.accounts.authenticate("lisa", "password1").id == alice.id
    with pytest.raises(NameTaken):
        store.accounts.rename(bob.id, "lisa")
    with pytest.raises(InvalidName, match="spaces"):
        store.accounts.rename(bob.id, "Li sa")
    assert store.accounts.get(bob.id).name == bob.name
    assert store.accounts.rename(bob.id, "Alice").name == "Alice"  # a freed name is free


def test_roles(store: Store) -> None:
    admin = store.accounts.register("Boss", "password1", role="admin")
    assert admin.is_admin
    player = store.accounts.create_guest()
    assert store.accounts.set_role(player.id, "admin").is_admin
    assert not store.accounts.set_role(player.id, "player").is_admin
    with pytest.raises(InvalidRequest):
        store.accounts.set_role(player.id, "root")


def test_unknown_accounts(store: Store) -> None:
    for call in (lambda: store.accounts.get(999), lambda: store.accounts.set_suspended(999),
                 lambda: store.ledger.balance(999), lambda: store.accounts.logout_everywhere(999)):
        with pytest.raises(NotFound, match="no account with id 999"):
            call()
    assert store.accounts.by_name("Nobody") is None
    assert store.accounts.by_name("!") is None


def test_list_players_pages_by_id(store: Store) -> None:
    made = [store.accounts.create_guest().id for _ in range(5)]
    first = store.accounts.list_players(limit=3)
    rest = store.accounts.list_players(limit=3, after=first[-1].id)
    assert [a.id for a in first + rest] == made
    assert all(a.balance == 1000 for a in first + rest)



def test_list_players_finds_names_by_any_part_taken_literally(store: Store) -> None:
    ids = {name: store.accounts.register(name, "a long password").id
           for name in ("Alice", "alicia", "老王", "a_b", "aXb")}

    def found(text: str) -> set[str]:
        return {a.name for a in store.accounts.list_players(name_contains=text)}

    assert found("ALI") == {"Alice", "alicia"}
    assert found("王") == {"老王"}
    assert found("_") == {"a_b"} and found("a_b") == {"a_b"}  # not a wildcard
    assert found("%") == set() and found("\\") == set()
    assert found("nobody") == set()
    first = store.accounts.list_players(name_contains="a", limit=2)
    rest = store.accounts.list_players(name_contains="a", after=first[-1].id)
    assert [a.id for a in first + rest] == sorted(
        ids[n] for n in ("Alice", "alicia", "a_b", "aXb"))


def test_hashes_are_redone_when_the_parameters_change(
        make_store: Callable[..., Store]) -> None:
    old = make_store()  # the fixtures' fast parameters
    alice = old.accounts.register("Alice", "password1")
    before = stored_hash(old, alice.id)
    stronger = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
    new = make_store(str(old.engine.url.render_as_string(hide_password=False)),
                     migrate=False, password_hasher=stronger)
    assert Passwords(stronger).needs_rehash(before)
    new.accounts.authenticate("Alice", "password1")
    after = stored_hash(new, alice.id)
    assert after != before and not Passwords(stronger).needs_rehash(after)
    assert "m=16,t=2,p=1" in after
    new.accounts.authenticate("Alice", "password1")
    assert stored_hash(new, alice.id) == after  # nothing to redo now


def test_no_starting_balance(make_store: Callable[..., Store]) -> None:
    store = make_store(starting_balance=0)
    guest = store.accounts.create_guest()
    assert guest.balance == 0 and store.ledger.history(guest.id) == []


def test_an_unknown_name_costs_a_hash_too() -> None:
    calls: list[str] = []

    class Counting(PasswordHasher):
        def verify(self, hash: str, password: str) -> bool:  # noqa: A002 (argon2's name)
            calls.append(hash)
            return super().verify(hash, password)

    passwords = Passwords(Counting(time_cost=1, memory_cost=8, parallelism=1))
    assert not passwords.verify(None, "anything")
    assert len(calls) == 1 and calls[0].startswith("$argon2id$")


# ---------------------------------------------------------------- sessions and look-alikes


def test_sessions_live_in_the_database_until_revoked(store: Store) -> None:
    alice = store.accounts.register("Alice", "password1")
    first, second = store.accounts.open_session(alice.id), store.accounts.open_session(alice.id)
    assert first != second and store.accounts.session_count(alice.id) == 2
    assert store.accounts.by_session(first).id == alice.id
    for bad in ("", "x" * 500, None, 12, first + "x"):
        assert store.accounts.by_session(bad) is None
    store.accounts.close_session(first)  # signing out: this one only
    assert store.accounts.by_session(first) is None
    assert store.accounts.by_session(second).id == alice.id
    store.accounts.change_password(alice.id, "password1", "password2")
    assert store.accounts.by_session(second) is None  # a password change revokes them all
    third = store.accounts.open_session(alice.id)
    store.accounts.logout_everywhere(alice.id)
    assert store.accounts.by_session(third) is None
    fourth = store.accounts.open_session(alice.id)
    store.accounts.set_suspended(alice.id)
    assert store.accounts.by_session(fourth) is None and store.accounts.session_count(alice.id) == 0


def test_registering_a_guest_revokes_its_sessions(store: Store) -> None:
    guest = store.accounts.create_guest()
    token = store.accounts.open_session(guest.id)
    store.accounts.upgrade_guest(guest.id, "password1", name="小明")
    assert store.accounts.by_session(token) is None


def test_sessions_expire(databases) -> None:
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    store = databases.store(clock=lambda: now[0])
    alice = store.accounts.register("Alice", "password1")
    token = store.accounts.open_session(alice.id)
    now[0] += timedelta(days=SESSION_DAYS) - timedelta(seconds=1)
    assert store.accounts.by_session(token).id == alice.id
    now[0] += timedelta(seconds=1)
    assert store.accounts.by_session(token) is None
    store.accounts.open_session(alice.id)  # opening one sweeps the expired rows away
    assert store.accounts.session_count(alice.id) == 1


@pytest.mark.parametrize("lookalike", ["аdmiral", "ADMIRAL", "admiraI", "Ａdmiral"])
def test_a_name_that_looks_like_another_is_refused(store: Store, lookalike: str) -> None:
    store.accounts.register("admiral", "password1")
    guest = store.accounts.create_guest()
    bob = store.accounts.register("bob_2", "password1")
    for attempt in (lambda: store.accounts.register(lookalike, "password1"),
                    lambda: store.accounts.upgrade_guest(guest.id, "password1", name=lookalike),
                    lambda: store.accounts.rename(bob.id, lookalike)):
        with pytest.raises(NameTaken, match="(?i)'admiral'"):
            attempt()
    assert store.accounts.get(guest.id).is_guest and store.accounts.get(bob.id).name == "bob_2"
    assert store.accounts.rename(bob.id, "BOB_2").name == "BOB_2"  # one's own look-alike


def test_a_look_alike_that_slips_past_the_check_fails_on_the_index(store: Store) -> None:
    store.accounts.register("admiral", "password1")
    with store.engine.begin() as connection, pytest.raises(IntegrityError):
        connection.execute(text(
            "INSERT INTO users (name, name_key, name_skeleton, is_guest, role, suspended, "
            "session_version, created_at, password_hash) SELECT 'аdmiral', 'аdmiral', "
            "name_skeleton, is_guest, role, suspended, 1, created_at, password_hash "
            "FROM users WHERE name = 'admiral'"))
