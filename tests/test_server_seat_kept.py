"""A person's seat through a match: going back to the lobby (the socket closed) keeps it,
托管 plays it, /api/me/tables offers it back and coming back seats them again; only an
escape gives it up; a match that ends while they are away frees it. A page reloaded
between hands gets the hand's result again with the true time left before the next deal,
and nothing plays for the seat once they are back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hall_harness import INSTANT, Client, running_hall
from test_server_play import player

from baida.client.play import HandTracker
from baida.table import SeatMode

pytestmark = pytest.mark.anyio

# bots take a second a turn: nothing moves unless the test moves the clock
SLOW_BOTS = {**INSTANT, "turn": 600.0, "bot_turn": 1.0, "bot_claim": 0.5}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def drop(client: Client) -> None:
    """The page goes away (back to the lobby, a reload): the socket closes, the session stays."""
    assert client.ws is not None
    await client.ws.close()
    if client.reader is not None:
        await client.reader
    client.ws = None


async def seated_with_bots(hall: Any, timing: dict[str, Any], hands: int = 2,
                           on_message: Any = None) -> tuple[Client, int]:
    """A guest at a table of their own, in seat 0 with three bots, the match started."""
    me = await Client(hall).guest()
    me.on_message = on_message
    r = await me.post("/api/tables", {"ruleset": "jiaxing", "hands": hands, "timing": timing})
    assert r.status_code == 201, r.text
    table_id = r.json()["table"]["id"]
    await me.open(table_id)
    await me.send({"type": "sit", "seat": 0})
    await hall.quiet([me])
    await me.send({"type": "add_bots"})
    await me.send({"type": "ready"})
    await hall.quiet([me])
    return me, table_id


async def my_tables(client: Client) -> list[dict[str, Any]]:
    r = await client.http.get("/api/me/tables")
    assert r.status_code == 200, r.text
    return r.json()["tables"]


async def test_back_to_the_lobby_keeps_the_seat_and_coming_back_seats_you(
    tmp_path: Path,
) -> None:
    async with running_hall(tmp_path) as hall:
        me, table_id = await seated_with_bots(hall, SLOW_BOTS)
        actor = hall.runtime.hall.get(table_id)
        assert actor.status == "playing" and me.of_type("prompt")
        assert [t["mode"] for t in await my_tables(me)] == ["player"]
        await drop(me)
        await hall.quiet()
        assert actor.seats[0].user is not None and actor.seats[0].user.id == me.me["id"]
        assert actor.driver.modes[0] == SeatMode.AUTO
        assert actor.driver.auto_reason[0] == "offline"
        listed = await my_tables(me)
        assert [(t["id"], t["seat"], t["mode"]) for t in listed] == [(table_id, 0, "auto")]
        other = await Client(hall).guest()
        assert await my_tables(other) == []
        unauthenticated = await Client(hall).http.get("/api/me/tables")
        assert unauthenticated.status_code == 401
        before = len(actor.driver.round.actions)
        await hall.advance(6.0)
        assert any(a.seat == 0 for a in actor.driver.round.actions[before:])  # 托管 played
        me.log.clear()
        await me.open(table_id)
        await hall.quiet([me])
        assert me.last("welcome")["seat"] == 0  # seated, not a spectator
        assert actor.driver.modes[0] == SeatMode.PLAYER
        assert me.last("snapshot")["view"]["seat"] == 0
        assert [t["mode"] for t in await my_tables(me)] == ["player"]
        await other.http.aclose()
        await me.close()


async def test_an_escape_gives_the_seat_up_for_good(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me, table_id = await seated_with_bots(hall, SLOW_BOTS)
        actor = hall.runtime.hall.get(table_id)
        await me.send({"type": "stand", "escape": True})
        await hall.quiet([me])
        assert actor.seats[0].escaped and actor.driver.modes[0] == SeatMode.BOT
        assert await my_tables(me) == []
        await drop(me)
        me.log.clear()
        await me.open(table_id)
        await hall.quiet([me])
        assert me.last("welcome")["seat"] is None
        await me.close()


async def test_a_match_that_ends_while_you_are_away_frees_the_seat(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me, table_id = await seated_with_bots(hall, {**SLOW_BOTS, "bot_turn": 0.1}, hands=1)
        actor = hall.runtime.hall.get(table_id)
        await drop(me)
        await hall.quiet()
        assert len(await my_tables(me)) == 1
        for _ in range(200):
            if actor.status == "waiting":
                break
            await hall.advance(5.0)
        assert actor.status == "waiting"
        assert actor.seats[0].empty
        assert await my_tables(me) == []
        await me.close()


async def test_a_reload_between_hands_shows_the_result_again_and_nothing_plays_for_you(
    tmp_path: Path,
) -> None:
    """The person plays the first hand, then reloads 8 s into the 20 s between hands: the
    result comes again saying 12 s are left; the next hand is dealt at the deadline and
    their seat is theirs: no 托管, no action taken for them."""
    answering = {"on": True}
    play = player(HandTracker())

    async def on_message(client: Client, message: dict[str, Any]) -> None:
        if message["type"] == "hand_result":
            return  # reading the settlement: no 继续
        if answering["on"]:
            await play(client, message)

    timing = {**INSTANT, "turn": 600.0, "between_hands": 20.0}
    async with running_hall(tmp_path) as hall:
        me, table_id = await seated_with_bots(hall, timing, hands=3, on_message=on_message)
        actor = hall.runtime.hall.get(table_id)
        await hall.quiet([me])
        assert actor.status == "between", actor.status
        first = me.last("hand_result")
        assert first["number"] == 1 and first["next_in"] == 20.0
        await hall.advance(8.0, [me])
        answering["on"] = False
        await drop(me)
        await hall.quiet()
        me.log.clear()
        await me.open(table_id)
        await hall.quiet([me])
        snapshot = me.last("snapshot")
        assert snapshot["view"]["phase"] == "ended"
        assert snapshot["modes"][0] == "player"  # taken back from the gap's 托管 at once
        again = me.last("hand_result")
        assert again["hand_id"] == first["hand_id"] and again["next_in"] == 12.0
        assert actor.driver.modes[0] == SeatMode.PLAYER
        assert actor.status == "between"
        await hall.advance(12.5, [me])
        assert actor.status == "playing" and actor.hand.number == 2
        await hall.advance(30.0, [me])  # the bots play on as far as the person's turn
        rnd = actor.driver.round
        assert not any(a.seat == 0 for a in rnd.actions)  # nothing played for the seat
        assert actor.driver.modes[0] == SeatMode.PLAYER
        # since the reload nothing has said the seat went to 托管 (its snapshot said player;
        # a reconnecting client hears nothing of the table before its snapshot)
        assert all(m["mode"] == "player" for m in me.of_type("seat_mode") if m["seat"] == 0)
        assert 0 in actor.driver.prompts  # the seat's decision waits for the person
        await me.close()


async def test_a_reload_between_hands_is_waited_for_a_moment(tmp_path: Path) -> None:
    """Between hands, a person whose page reloads is waited for a few seconds: another
    person's 继续 does not deal the next hand to 托管 meanwhile; one who does not come back
    is dealt in (托管) once the moment has passed, not only at the between-hands deadline."""
    async with running_hall(tmp_path) as hall:
        a = await Client(hall).guest()
        b = await Client(hall).guest()
        plays = {id(a): player(HandTracker()), id(b): player(HandTracker())}

        async def on_message(client: Client, message: dict[str, Any]) -> None:
            if message["type"] != "hand_result":  # reading it: no 继续 of its own
                await plays[id(client)](client, message)

        a.on_message = b.on_message = on_message
        timing = {**INSTANT, "turn": 600.0, "between_hands": 20.0}
        r = await a.post("/api/tables", {"ruleset": "jiaxing", "hands": 4, "timing": timing})
        table_id = r.json()["table"]["id"]
        actor = hall.runtime.hall.get(table_id)
        for seat, c in enumerate((a, b)):
            await c.open(table_id)
            await c.send({"type": "sit", "seat": seat})
            await hall.quiet([a, b])
        await a.send({"type": "add_bots"})
        for c in (a, b):
            await c.send({"type": "ready"})
        await hall.quiet([a, b])
        assert actor.status == "between" and actor.hand is None
        # a reloads; b is ready at once: the deal waits for a
        await drop(a)
        await hall.quiet([b])
        await b.send({"type": "ready"})
        await hall.quiet([b])
        await hall.advance(2.0, [b])
        assert actor.status == "between"
        a.log.clear()
        await a.open(table_id)
        await hall.quiet([a, b])
        assert a.last("welcome")["seat"] == 0 and a.last("hand_result")["number"] == 1
        assert actor.driver.modes[0] == SeatMode.PLAYER
        await a.send({"type": "ready"})
        await hall.quiet([a, b])  # the second hand is dealt and played out at once
        assert actor.status == "between" and actor.driver.match.hand_number == 2
        assert a.of_type("snapshot")[0]["modes"][0] == "player"  # back from the gap's 托管
        assert all(m["mode"] == "player" for m in a.of_type("seat_mode") if m["seat"] == 0)
        # now a goes for good; b's 继续 deals once the moment has passed, 托管 playing a
        await drop(a)
        await b.send({"type": "ready"})
        await hall.quiet([b])
        assert actor.status == "between" and actor.driver.match.hand_number == 2
        await hall.advance(5.5, [b])  # well before the 20 s deadline
        assert actor.driver.match.hand_number == 3
        assert actor.driver.modes[0] == SeatMode.AUTO
        await a.http.aclose()
        await b.close()


async def test_a_holding_table_deals_nothing_between_hands_and_posts_nothing(
    tmp_path: Path,
) -> None:
    """A table whose node drains holds after its hand: even with every seat ready and the
    between-hands time over it deals nothing, and it posts itself no deal that it would
    refuse (every pump between hands asks whether to deal: that looped, starving the node)."""
    play = player(HandTracker())

    async def on_message(client: Client, message: dict[str, Any]) -> None:
        if message["type"] != "hand_result":
            await play(client, message)

    timing = {**INSTANT, "turn": 600.0, "between_hands": 20.0}
    async with running_hall(tmp_path) as hall:
        me, table_id = await seated_with_bots(hall, timing, hands=3, on_message=on_message)
        actor = hall.runtime.hall.get(table_id)
        await hall.quiet([me])
        assert actor.status == "between" and actor.driver.match.hand_number == 1
        actor.holding = True
        for seat in actor.seats:
            seat.ready = True
        actor._maybe_start()
        assert not actor._inbox
        await hall.advance(25.0, [me])
        assert actor.status == "between" and actor.driver.match.hand_number == 1
        assert actor.hand is None and actor.idle()
