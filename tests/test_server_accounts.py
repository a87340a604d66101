"""Accounts as the open internet needs them: guests limited per address, login limits that
slow a guesser without locking the owner out, sessions revoked on the server, password
changes, and names that cannot pass for another's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from hall_harness import Client, Hall, running_hall

from baida.server.web.auth import COOKIE, DEVICE_COOKIE
from baida.server.web.limits import (
    ADDRESS_FAILURES,
    DEVICE_FAILURES,
    GUEST_WINDOW,
    NAME_FAILURES,
    GuestLimiter,
    LoginGate,
    Refusal,
    Taken,
    address_key,
)

pytestmark = pytest.mark.anyio
pytest_plugins = ["store_support"]
OWNER = {"name": "小明", "password": "correct horse"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def with_cookie(hall: Hall, cookie: str) -> httpx.AsyncClient:
    """A browser holding only this session cookie."""
    return httpx.AsyncClient(base_url=hall.base, cookies={COOKIE: cookie})


async def registered(hall: Hall, body: dict[str, str] = OWNER) -> Client:
    owner = Client(hall)
    r = await owner.http.post("/api/register", json=body)
    assert r.status_code == 201, r.text
    owner.me = r.json()["me"]
    return owner


# ---------------------------------------------------------------- guests


async def test_guests_are_limited_per_address_per_hour(tmp_path: Path) -> None:
    async with running_hall(tmp_path, guests_per_hour=3) as hall:
        made = [await Client(hall).guest() for _ in range(3)]
        refused = await Client(hall).http.post("/api/guest")
        assert refused.status_code == 429
        assert refused.json()["code"] == "guests_limited"
        assert "3 guests in the last hour" in refused.json()["error"]
        assert 0 < int(refused.headers["Retry-After"]) <= GUEST_WINDOW
        again = await made[0].http.post("/api/guest")  # a guest already: its own account
        assert again.status_code == 200 and again.json()["me"]["id"] == made[0].me["id"]
        hall.clock.advance(GUEST_WINDOW)
        assert (await Client(hall).http.post("/api/guest")).status_code == 201


async def test_registrations_and_guests_share_the_new_accounts_limit(tmp_path: Path) -> None:
    """Each new account comes with the starting balance: registering 40 accounts in 10
    minutes (the sign-in limit) must not bring more into play than guests may."""
    async with running_hall(tmp_path, guests_per_hour=3) as hall:
        await registered(hall, {"name": "First", "password": "a long password"})
        typo = await Client(hall).http.post("/api/register", json={"name": "x",
                                                                    "password": "long enough"})
        assert typo.status_code == 400  # refused: not an account, so not counted
        guest = await Client(hall).guest()
        await registered(hall, {"name": "Second", "password": "a long password"})
        refused = await Client(hall).http.post("/api/register", json={
            "name": "Third", "password": "a long password"})
        assert refused.status_code == 429 and refused.json()["code"] == "accounts_limited"
        assert "3 new accounts in the last hour" in refused.json()["error"]
        assert 0 < int(refused.headers["Retry-After"]) <= GUEST_WINDOW
        assert (await Client(hall).http.post("/api/guest")).json()["code"] == "guests_limited"
        # a guest registering makes no new account: never refused so
        r = await guest.post("/api/register", {"name": "Upgraded", "password": "long enough"})
        assert r.status_code == 201 and r.json()["me"]["id"] == guest.me["id"]
        hall.clock.advance(GUEST_WINDOW)
        again = await Client(hall).http.post("/api/register", json={
            "name": "Third", "password": "a long password"})
        assert again.status_code == 201


def test_the_guest_limit_counts_an_ipv6_subscriber_once() -> None:
    limiter = GuestLimiter(lambda: 0.0, per_hour=2)
    for address in ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9"):  # the same /64
        taken = limiter.take(address)
        assert isinstance(taken, Taken)
        taken.keep()
    assert limiter.refusal("2001:db8:1:2::77") is not None
    assert limiter.refusal("2001:db8:1:3::1") is None and limiter.refusal("192.0.2.1") is None
    assert address_key("::ffff:192.0.2.1") == "192.0.2.1"
    assert GuestLimiter(lambda: 0.0, per_hour=0).refusal("192.0.2.1") is None  # 0: no limit


# ---------------------------------------------------------------- login limits


async def test_a_locked_name_keeps_its_owners_known_browser(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        owner = await registered(hall)  # registering set this browser's device cookie
        assert owner.http.cookies.get(DEVICE_COOKIE)
        assert (await owner.post("/api/logout", {})).status_code == 200
        stranger = Client(hall)
        for _ in range(NAME_FAILURES):
            r = await stranger.http.post("/api/login", json={**OWNER, "password": "guess!!!"})
            assert r.status_code == 401
        r = await stranger.http.post("/api/login", json=OWNER)  # even the right password
        assert r.status_code == 429 and r.json()["code"] == "name_limited"
        assert "browser you have used" in r.json()["error"]
        r = await owner.http.post("/api/login", json=OWNER)  # the owner's browser gets in
        assert r.status_code == 200, r.text
        assert r.json()["me"]["name"] == "小明"
        newcomer = Client(hall)  # another name is not touched
        r = await newcomer.http.post("/api/register",
                                     json={"name": "阿华", "password": "long enough"})
        assert r.status_code == 201


async def test_a_device_cookie_only_vouches_for_its_own_name(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        await registered(hall)
        other = await registered(hall, {"name": "阿华", "password": "long enough"})
        stranger = Client(hall)
        for _ in range(NAME_FAILURES):
            await stranger.http.post("/api/login", json={**OWNER, "password": "guess!!!"})
        r = await other.http.post("/api/login", json=OWNER)  # 阿华's browser, 小明's name
        assert r.status_code == 429
        forged = httpx.AsyncClient(base_url=hall.base, cookies={DEVICE_COOKIE: "x.y.z"})
        assert (await forged.post("/api/login", json=OWNER)).status_code == 429
        await forged.aclose()


async def test_sign_ins_are_limited_per_address(tmp_path: Path) -> None:
    async with running_hall(tmp_path, signins_per_address=5) as hall:
        owner = await registered(hall)  # one attempt
        codes = [(await owner.http.post("/api/login", json=OWNER)).status_code
                 for _ in range(5)]
        assert codes == [200, 200, 200, 200, 429]
        r = await owner.http.post("/api/login", json=OWNER)
        assert r.json()["code"] == "signins_limited" and "Retry-After" in r.headers
        hall.clock.advance(600)
        assert (await owner.http.post("/api/login", json=OWNER)).status_code == 200


def wrong(gate: LoginGate, host: str, name: str, device: tuple[str, str] | None = None) -> None:
    """A sign-in let through whose password was wrong."""
    taken = gate.attempt(host, name, device)
    assert isinstance(taken, Taken), taken
    taken.keep()


def refused(gate: LoginGate, host: str, name: str,
            device: tuple[str, str] | None = None) -> str | None:
    """The refusal's code of a sign-in now, or None (let through: its password was right)."""
    taken = gate.attempt(host, name, device)
    if isinstance(taken, Taken):
        taken.give_back()
        return None
    assert isinstance(taken, Refusal)
    return taken.code


def test_the_gate_counts_names_devices_and_addresses() -> None:
    now = [0.0]
    gate = LoginGate(lambda: now[0], attempts=0)
    owner = ("device-1", "alice")
    # every spelling of a name reaches the same account and counts against it
    for i, spelling in enumerate(["ａlice", "ALICE", "Alice", "alice"] * 3):
        if i == NAME_FAILURES:
            break
        wrong(gate, f"10.0.0.{i}", spelling)
    assert refused(gate, "192.0.2.1", "ａＬＩＣＥ") == "name_limited"
    assert refused(gate, "192.0.2.1", "bob") is None
    assert refused(gate, "192.0.2.1", "alice", owner) is None  # the owner's browser
    assert refused(gate, "192.0.2.1", "alice", ("device-2", "bob")) is not None  # bob's
    for _ in range(DEVICE_FAILURES):  # the owner's own wrong passwords count on its cookie
        wrong(gate, "192.0.2.2", "alice", owner)
    assert refused(gate, "192.0.2.3", "alice", owner) == "name_limited"
    for i in range(ADDRESS_FAILURES):  # one address guessing many names
        wrong(gate, "198.51.100.7", f"user{i}")
    assert refused(gate, "198.51.100.7", "carol") == "address_limited"
    now[0] += 600
    assert refused(gate, "198.51.100.7", "carol") is None
    assert refused(gate, "192.0.2.1", "alice") is None  # the window passed


def test_sign_ins_being_checked_hold_their_place_until_their_outcome_is_known() -> None:
    """A sign-in counts as a wrong password while its password is checked: sent at once,
    the name's ten are let through and the rest must wait for their outcome (``attempt``
    says None, ``attempt_in_turn`` waits) or, once ten are known wrong, are refused. Right
    ones give their place back: 25 people behind one address signing in at once were 20 let
    through and 5 refused for wrong passwords none of them had typed."""
    gate = LoginGate(lambda: 0.0, attempts=0)
    first = [gate.attempt("192.0.2.9", "alice", final=False) for _ in range(NAME_FAILURES)]
    assert all(isinstance(t, Taken) for t in first)
    assert gate.attempt("192.0.2.9", "alice", final=False) is None  # ten in flight: wait
    assert gate.attempt("192.0.2.9", "alice").code == "name_limited"  # (a last look)
    first[0].give_back()  # that one was right
    later = gate.attempt("192.0.2.10", "alice", final=False)
    assert isinstance(later, Taken)
    for taken in [*first[1:], later]:
        taken.keep()  # all wrong: the name is closed, whatever is in flight
    assert gate.attempt("192.0.2.9", "alice", final=False).code == "name_limited"
    # people behind one router: every sign-in let through in turn, none refused
    people = LoginGate(lambda: 0.0, attempts=0)
    flight = [people.attempt("198.51.100.1", f"user{i}", final=False) for i in range(25)]
    assert [t is None for t in flight].count(True) == 25 - ADDRESS_FAILURES
    for taken in flight:
        if taken is not None:
            taken.give_back()
    assert all(isinstance(people.attempt("198.51.100.1", f"user{i}"), Taken)
               for i in range(20, 25))


# ---------------------------------------------------------------- sessions


async def test_signing_out_revokes_the_session(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        old = me.http.cookies.get(COOKIE)
        assert (await me.post("/api/logout", {})).status_code == 200
        async with with_cookie(hall, old) as replay:
            assert (await replay.get("/api/me")).status_code == 401
            assert (await replay.get("/api/session")).json() == {"me": None}


def database(databases: Any) -> str | None:
    """The hall's database: SQLite in its folder, or a fresh PostgreSQL schema."""
    return None if databases.kind == "sqlite" else databases.url()


async def test_registering_rotates_the_guest_cookie(tmp_path: Path,
                                                    databases: Any) -> None:
    async with running_hall(tmp_path, database=database(databases)) as hall:
        me = await Client(hall).guest()
        guest_cookie = me.http.cookies.get(COOKIE)
        r = await me.post("/api/register", OWNER)
        assert r.status_code == 201 and r.json()["me"]["id"] == me.me["id"]
        new_cookie = me.http.cookies.get(COOKIE)
        assert new_cookie != guest_cookie and r.json()["me"]["csrf"] != me.me["csrf"]
        async with with_cookie(hall, guest_cookie) as replay:
            assert (await replay.get("/api/me")).status_code == 401
        r = await me.http.get("/api/me")
        assert r.status_code == 200 and r.json()["me"]["name"] == "小明"
        assert not r.json()["me"]["guest"]


async def test_a_password_change_revokes_every_other_session(tmp_path: Path,
                                                             databases: Any) -> None:
    async with running_hall(tmp_path, database=database(databases)) as hall:
        first = await registered(hall)
        second = Client(hall)
        r = await second.http.post("/api/login", json=OWNER)
        assert r.status_code == 200
        first_cookie = first.http.cookies.get(COOKIE)
        change = {"password": "correct horse", "new_password": "battery staple"}
        r = await first.http.post("/api/password", json=change)
        assert r.status_code == 403 and "CSRF" in r.json()["error"]
        r = await first.post("/api/password", {**change, "password": "not it!!"})
        assert r.status_code == 403 and r.json()["code"] == "wrong_password"
        r = await first.post("/api/password", {**change, "new_password": "short"})
        assert r.status_code == 400 and "at least 8" in r.json()["error"]
        r = await first.post("/api/password", change)
        assert r.status_code == 200, r.text
        first.me = r.json()["me"]
        assert (await second.http.get("/api/me")).status_code == 401  # the other browser
        async with with_cookie(hall, first_cookie) as replay:  # this one's old cookie too
            assert (await replay.get("/api/me")).status_code == 401
        assert (await first.http.get("/api/me")).status_code == 200  # its new cookie
        assert (await first.post("/api/tables", {"ruleset": "wenling"})).status_code == 201
        assert (await second.http.post("/api/login", json=OWNER)).status_code == 401
        r = await second.http.post("/api/login", json={**OWNER, "password": "battery staple"})
        assert r.status_code == 200


async def test_only_a_registered_session_changes_a_password(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        nobody = Client(hall)
        r = await nobody.http.post("/api/password",
                                   json={"password": "x" * 8, "new_password": "y" * 8})
        assert r.status_code == 401
        guest = await Client(hall).guest()
        r = await guest.post("/api/password", {"password": "x" * 8, "new_password": "y" * 8})
        assert r.status_code == 400 and r.json()["code"] == "guest_no_password"
        r = await guest.post("/api/password", {"password": "x" * 8})
        assert r.status_code == 400 and "new_password" in r.json()["error"]


# ---------------------------------------------------------------- names


@pytest.mark.parametrize(("name", "code", "words"), [
    ("\u1160\u1160", "name_invisible", "invisible"),
    ("a\u200bb", "name_invisible", "ZERO WIDTH SPACE"),
    ("a" + "\u0301" * 15, "name_marks", "combining marks"),
    ("bot", "name_reserved", "reserved word 'bot'"),
    ("机器人", "name_reserved", "reserved word '机器人'"),
    ("游客1234", "name_reserved", "reserved word '游客'"),
    ("Guest1234", "name_reserved", "reserved word 'guest'"),
    ("аdmiral", "name_lookalike", "looks too much like the name 'admiral'"),  # Cyrillic а
    ("ADMIRAL", "name_taken", "is taken"),
])
async def test_names_are_refused_with_the_rule_they_break(tmp_path: Path, name: str, code: str,
                                                         words: str) -> None:
    async with running_hall(tmp_path) as hall:
        await registered(hall, {"name": "admiral", "password": "long enough"})
        fresh = Client(hall)
        r = await fresh.http.post("/api/register", json={"name": name, "password": "long enough"})
        assert r.status_code == 400 and r.json()["code"] == code, r.text
        assert words in r.json()["error"]
        guest = await Client(hall).guest()
        r = await guest.http.patch("/api/me", json={"name": name}, headers=guest.headers())
        assert r.status_code == 400 and r.json()["code"] == code
        assert (await guest.http.get("/api/me")).json()["me"]["name"] == guest.me["name"]


async def test_a_cookie_of_the_old_kind_is_traded_once_for_a_session(tmp_path: Path) -> None:
    """Cookies signed before the hall kept sessions (an account id and its session version)
    still open their account once, for a session of the new kind, so nobody's guest is lost
    at the upgrade; the old cookie then stops working."""
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        rt = hall.runtime
        account = await rt.db.read(lambda s: s.accounts.get(me.me["id"]))
        serializer = rt.codec._serializer
        legacy = serializer.dumps({"u": account.id, "v": account.session_version})
        async with with_cookie(hall, legacy) as browser:
            r = await browser.get("/api/session")
            assert r.json()["me"]["id"] == account.id
        traded = httpx.Cookies()
        traded.extract_cookies(r)
        assert traded.get(COOKIE) and traded.get(COOKIE) != legacy
        async with with_cookie(hall, traded.get(COOKIE)) as browser:
            assert (await browser.get("/api/me")).status_code == 200
        async with with_cookie(hall, legacy) as replay:  # once only
            assert (await replay.get("/api/me")).status_code == 401
        forged = serializer.dumps({"u": account.id, "v": account.session_version + 5})
        async with with_cookie(hall, forged) as other:
            assert (await other.get("/api/me")).status_code == 401


async def test_mutes_are_kept_with_the_account_and_checked(tmp_path: Path) -> None:
    """``/api/me/mutes``: a second session of the same account (another device) reads what the
    first muted; oneself, an account that is not there and an id that cannot be one are
    refused by name; without a session, 401; without the CSRF token, 403."""
    async with running_hall(tmp_path) as hall:
        me = await registered(hall, {"name": "静静", "password": "long enough"})
        rude = await Client(hall).guest()
        other = await Client(hall).guest()
        assert (await me.http.get("/api/me/mutes")).json() == {"muted": []}
        r = await me.http.put(f"/api/me/mutes/{rude.me['id']}",
                              headers={"X-CSRF-Token": me.me["csrf"]})
        assert r.status_code == 200 and r.json() == {"muted": [rude.me["id"]]}
        second = Client(hall)
        r = await second.http.post("/api/login", json={"name": "静静", "password": "long enough"})
        assert r.status_code == 200
        assert (await second.http.get("/api/me/mutes")).json() == {"muted": [rude.me["id"]]}
        headers = {"X-CSRF-Token": me.me["csrf"]}
        for target, status, code in ((me.me["id"], 400, None), (10**9, 404, "no_account"),
                                     ("1x", 404, "no_account"), (2**70, 404, "no_account")):
            r = await me.http.put(f"/api/me/mutes/{target}", headers=headers)
            assert r.status_code == status and r.json().get("code") == code, (target, r.text)
        assert (await me.http.put(f"/api/me/mutes/{other.me['id']}")).status_code == 403
        assert (await Client(hall).http.get("/api/me/mutes")).status_code == 401
        r = await me.http.delete(f"/api/me/mutes/{rude.me['id']}", headers=headers)
        assert r.json() == {"muted": []}
        assert (await rude.http.get("/api/me/mutes")).json() == {"muted": []}  # their own
        for c in (me, rude, other, second):
            await c.close()


async def test_each_new_guest_clears_away_old_guests_nobody_can_be_again(tmp_path: Path) -> None:
    """A guest made 31 days ago that signed out (a guest has no password: nobody can be it again)
    and never played is removed, with its starting grant, once the next guests are made."""
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import select, update

    from baida.server.store.models import User

    async with running_hall(tmp_path) as hall:
        gone = await Client(hall).guest()
        assert (await gone.post("/api/logout")).status_code in (200, 204)
        store = hall.runtime.store
        with store.engine.begin() as connection:
            connection.execute(update(User).where(User.id == gone.me["id"]).values(
                created_at=datetime.now(UTC) - timedelta(days=31)))
        later = [await Client(hall).guest() for _ in range(2)]
        await hall.quiet()
        with store.engine.connect() as connection:
            left = set(connection.scalars(select(User.id)))
        assert gone.me["id"] not in left and {c.me["id"] for c in later} <= left
        assert store.ledger.check().ok
        for client in [gone, *later]:
            await client.http.aclose()


async def test_attempts_sent_at_once_are_counted_one_by_one(tmp_path: Path) -> None:
    """Registrations and wrong passwords sent at once from one address: each is counted
    before the next is looked at (all of them used to pass the limit before the first was
    counted: 30 registrations where 10 an hour may, 35 guesses where a name allows 10)."""
    import asyncio

    async with running_hall(tmp_path, guests_per_hour=10) as hall:
        owner = await registered(hall)  # the first of the address's 10 new accounts
        async with httpx.AsyncClient(base_url=hall.base) as http:
            made = await asyncio.gather(*(http.post("/api/register", json={
                "name": f"Racer{i}", "password": "a long password"})
                for i in range(30)))
            codes = [r.status_code for r in made]
            assert codes.count(201) == 9 and codes.count(429) == 21, codes
        async with httpx.AsyncClient(base_url=hall.base) as http:
            guesses = await asyncio.gather(*(http.post("/api/login", json={
                "name": OWNER["name"], "password": f"wrong {i}"}) for i in range(35)))
            codes = [r.status_code for r in guesses]
            assert codes.count(401) == NAME_FAILURES and codes.count(429) == 35 - NAME_FAILURES
    async with running_hall(tmp_path / "b") as hall:
        # a stolen session guessing the current password: the same limits, one at a time
        # (this browser holds the account's device cookie, so the address's limit holds)
        owner = await registered(hall)
        changes = await asyncio.gather(*(owner.post("/api/password", {
            "password": f"wrong {i}", "new_password": "another long one"}) for i in range(35)))
        codes = [r.status_code for r in changes]
        assert codes.count(403) == ADDRESS_FAILURES, codes
        assert codes.count(429) == 35 - ADDRESS_FAILURES, codes
        await owner.http.aclose()


async def test_people_behind_one_address_sign_in_at_once(tmp_path: Path) -> None:
    """25 people behind one router (one address) sign in at the same moment, each with the
    right password. Each sign-in counts as a wrong password of the address while it is
    checked, and the address may fail 20 times: the last five were refused (429
    ``address_limited``, ``Retry-After: 600``) for wrong passwords none of them had typed.
    They now wait their turn, and all are in."""
    import asyncio

    async with running_hall(tmp_path) as hall:
        people = [{"name": f"Neighbour{i}", "password": "a long password"} for i in range(25)]
        for body in people:
            await (await registered(hall, body)).http.aclose()
        async with httpx.AsyncClient(base_url=hall.base, timeout=60) as http:
            answers = await asyncio.gather(*(http.post("/api/login", json=body)
                                             for body in people))
        assert [r.status_code for r in answers] == [200] * 25, [r.text for r in answers]
