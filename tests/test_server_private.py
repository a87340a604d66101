"""Private tables belong to their host, the people who gave the room code and the people seated
there: to anyone else they do not exist, over HTTP and over the socket, and guessing codes is
limited. A suspended account is put out of its tables at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hall_harness import INSTANT, Client, Hall, running_hall
from test_server_play import player
from test_server_silver import until
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from baida.client.play import HandTracker

pytestmark = pytest.mark.anyio

ROOM_FAILURES = 10  # wrong room codes an address or an account may give in ROOM_WINDOW
ROOM_WINDOW = 600.0  # seconds (baida.server.web.auth)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def answer_of_socket(hall: Hall, client: Client, table_id: int) -> tuple[Any, int | None]:
    """The first message the hall sends on ``table_id``'s socket, and its close code."""
    cookie = "; ".join(f"{k}={v}" for k, v in client.http.cookies.items())
    async with connect(f"{hall.ws_base}/ws/tables/{table_id}",
                       additional_headers={"Cookie": cookie}) as ws:
        try:
            await ws.send(json.dumps({"type": "hello", "protocol": 1}))
        except ConnectionClosed:  # turned away before the hello: the reason is waiting
            pass
        first = json.loads(await ws.recv())
        if first["type"] != "error":
            return first, None
        with pytest.raises(ConnectionClosed):
            await ws.recv()
        return first, ws.close_code


async def private_table(hall: Hall, host: Client, **config: Any) -> dict[str, Any]:
    r = await host.post("/api/tables", {"ruleset": "jiaxing", "hands": 1, "private": True,
                                        "timing": INSTANT, **config})
    assert r.status_code == 201, r.text
    return r.json()["table"]


async def test_a_private_table_is_closed_to_strangers(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        public = (await host.post("/api/tables", {"ruleset": "wenling", "hands": 1})).json()
        table = await private_table(hall, host)
        stranger = await Client(hall).guest()
        # the socket: the same answer as for a table that does not exist
        missing = await answer_of_socket(hall, stranger, table["id"] + 1000)
        refused = await answer_of_socket(hall, stranger, table["id"])
        assert missing == refused
        assert refused[0]["code"] == "no_table" and refused[1] == 4404
        assert table["room_code"] not in json.dumps(refused)
        # the lobby does not list it, nor shows it by id
        listed = (await stranger.http.get("/api/tables")).json()["tables"]
        assert [t["id"] for t in listed] == [public["table"]["id"]]
        one = await stranger.http.get(f"/api/tables/{table['id']}")
        assert one.status_code == 404
        assert one.json() == (await stranger.http.get("/api/tables/99999")).json()
        # the host may open it; a friend may once they give the code
        welcome, _ = await answer_of_socket(hall, host, table["id"])
        assert welcome["type"] == "welcome" and welcome["table"]["room_code"]
        friend = await Client(hall).guest()
        assert (await answer_of_socket(hall, friend, table["id"]))[1] == 4404
        r = await friend.post("/api/rooms", {"code": table["room_code"].lower()})
        assert r.status_code == 200 and r.json()["table"]["id"] == table["id"]
        welcome, _ = await answer_of_socket(hall, friend, table["id"])
        assert welcome["type"] == "welcome"
        # admission is per account: the stranger is still turned away
        assert (await answer_of_socket(hall, stranger, table["id"]))[1] == 4404
        for c in (host, stranger, friend):
            await c.close()


async def test_the_seated_come_back_after_a_restart(tmp_path: Path) -> None:
    """Admissions live in the directory (not the database); the people seated at a private
    table when the hall stopped may open it again after the restart."""
    data = tmp_path / "hall"
    async with running_hall(data) as hall:
        host = await Client(hall).guest()
        # bots and 托管 take their time, so that the hand is still on when the hall stops (with
        # instant bots 托管 could finish it between the people leaving and the stop)
        table = await private_table(hall, host, timing={**INSTANT, "bot_turn": 60.0})
        friend = await Client(hall).guest()
        assert (await friend.post("/api/rooms", {"code": table["room_code"]})).status_code == 200
        await friend.open(table["id"])
        await friend.send({"type": "sit", "seat": 1})  # never answers: the hand waits
        await hall.quiet([friend])
        await host.open(table["id"])
        host.on_message = player(HandTracker())
        await host.send({"type": "sit", "seat": 0})
        await hall.quiet([host, friend])
        await host.send({"type": "add_bots"})
        await host.send({"type": "ready"})
        await friend.send({"type": "ready"})
        await until(hall, [host, friend], lambda: hall.actors()[0].status == "playing")
        cookies, me = dict(friend.http.cookies), friend.me
        await friend.close()
        await host.close()
    async with running_hall(data) as hall:
        actor = hall.runtime.hall.get(table["id"])
        assert actor is not None and actor.status == "playing"
        back = Client(hall)
        back.http.cookies.update(cookies)
        back.me = me
        welcome, _ = await answer_of_socket(hall, back, table["id"])
        assert welcome["type"] == "welcome" and welcome["seat"] == 1
        stranger = await Client(hall).guest()
        assert (await answer_of_socket(hall, stranger, table["id"]))[1] == 4404
        await back.close()
        await stranger.close()


async def test_guessing_room_codes_is_limited(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        table = await private_table(hall, host)
        await host.open(table["id"])  # the host waits there (a table nobody sits at closes)
        await host.send({"type": "sit", "seat": 0})
        await hall.quiet([host])
        guesser = await Client(hall).guest()
        for i in range(ROOM_FAILURES):
            r = await guesser.post("/api/rooms", {"code": f"NOPE{i:02d}"})
            assert r.status_code == 404 and r.json()["error"] == "no table with that room code"
        # over the limit: refused, even with the right code, and nothing is admitted
        for attempt in ({"code": "NOPE99"}, {"code": table["room_code"]}):
            r = await guesser.post("/api/rooms", attempt)
            assert r.status_code == 429 and "too many wrong room codes" in r.json()["error"]
        # entering a room changes what the caller may open: never by GET (no CSRF token)
        r = await guesser.http.get(f"/api/rooms/{table['room_code']}")
        assert r.status_code in (404, 405)
        assert (await answer_of_socket(hall, guesser, table["id"]))[1] == 4404
        # malformed codes count too, and are refused the same way
        other = await Client(hall).guest()
        assert (await other.post("/api/rooms", {"code": 12})).status_code == 429  # same address
        # the window passes: the right code works again
        hall.clock.advance(ROOM_WINDOW + 1)
        r = await guesser.post("/api/rooms", {"code": table["room_code"]})
        assert r.status_code == 200
        for c in (host, guesser, other):
            await c.close()


async def admin(hall: Hall) -> Client:
    boss = Client(hall)
    r = await boss.http.post("/api/register", json={"name": "老板", "password": "long enough"})
    boss.me = r.json()["me"]
    hall.runtime.store.accounts.set_role(boss.me["id"], "admin")
    return boss


def silent(client: Client, message: dict[str, Any]) -> None:
    """A player who sits and never answers: the hand waits for them."""


async def test_a_suspension_puts_the_account_out_of_its_tables(tmp_path: Path) -> None:
    async with running_hall(tmp_path, starting_balance=400) as hall:
        boss = await admin(hall)
        host = await Client(hall).guest()
        r = await host.post("/api/tables", {
            "ruleset": "jiaxing", "hands": 2, "timing": INSTANT, "stakes": "silver",
            "base": 5, "fee": 3, "escape_penalty": 30,
        })
        table_id = r.json()["table"]["id"]
        people = []
        for seat in range(3):
            c = host if seat == 0 else await Client(hall).guest()
            c.on_message = player(HandTracker()) if seat < 2 else silent
            await c.open(table_id)
            await c.send({"type": "sit", "seat": seat})
            people.append(c)
        await hall.quiet(people)
        await host.send({"type": "add_bots"})
        for c in people:
            await c.send({"type": "ready"})
        actor = hall.runtime.hall.get(table_id)
        culprit = people[2]
        await until(hall, people, lambda: actor.status == "playing"
                    and 2 in actor.driver.prompts and culprit.of_type("prompt"))
        # a second window of theirs, watching another table
        elsewhere = (await host.post("/api/tables", {"ruleset": "wenling", "hands": 1})).json()
        watching = Client(hall)
        watching.http.cookies.update(culprit.http.cookies)
        await watching.open(elsewhere["table"]["id"])
        await hall.quiet([*people, watching])
        assert watching.last("welcome")["seat"] is None
        ids = [c.me["id"] for c in people]
        store = hall.runtime.store
        r = await boss.http.post("/api/admin/suspend", json={"id": ids[2]},
                                 headers=boss.headers())
        assert r.status_code == 200, r.text
        await hall.quiet(people[:2])
        # their sockets are closed at once, saying why
        for c in (culprit, watching):
            await until(hall, people[:2], lambda c=c: c.closed)
            assert c.log[-1]["type"] == "error" and c.log[-1]["code"] == "suspended"
            assert c.ws.close_code == 4403
        # the seat went to the bot as for an escape; the others play the match to its end
        assert any(m["type"] == "seat_mode" and m["seat"] == 2 and m["reason"] == "escaped"
                   for m in host.log)
        await until(hall, people[:2], lambda: any(m["match_over"]
                                                   for m in host.of_type("hand_result")))
        results = host.of_type("hand_result")
        assert results[0]["silver"][2]["fee"] == 3  # the hand in play was theirs to pay
        assert results[1]["silver"][2]["fee"] == 0  # then the house's bot played
        penalties = [e for e in store.ledger.history(ids[2]) if e.kind == "penalty"]
        assert [e.amount for e in penalties] == [-30]
        comp = [e for i in ids[:2] for e in store.ledger.history(i) if e.kind == "compensation"]
        assert sum(e.amount for e in comp) == 20  # 30 shared by three seats: 10 to the bot
        assert store.ledger.check().ok
        # and they cannot come back
        assert (await culprit.http.get("/api/me")).status_code == 401
        for c in (*people, watching, boss):
            await c.close()


async def test_room_code_guesses_count_an_ipv6_subscribers_64_as_one_address(
        tmp_path: Path) -> None:
    """Behind a proxy, guesses from new accounts at addresses of one IPv6 /64 share the
    address's limit (a subscriber may draw any address of its /64); another /64 is another."""
    async with running_hall(tmp_path, forwarded_allow_ips="127.0.0.1") as hall:
        clients = []
        for i in range(ROOM_FAILURES + 1):
            c = await Client(hall).guest()
            clients.append(c)
            r = await c.http.post("/api/rooms", json={"code": f"NOPE{i:02d}"}, headers={
                **c.headers(), "X-Forwarded-For": f"2001:db8:7:7::{i + 1:x}"})
            assert r.status_code == (404 if i < ROOM_FAILURES else 429), (i, r.text)
        other = await Client(hall).guest()
        r = await other.http.post("/api/rooms", json={"code": "NOPE"}, headers={
            **other.headers(), "X-Forwarded-For": "2001:db8:7:8::1"})
        assert r.status_code == 404
        for c in [*clients, other]:
            await c.close()
