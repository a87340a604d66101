"""A window replaced by another of the same account is heard no more, even for what it sent
before the table learned of the new one: its queued ``stand`` must not free the seat the new
window now holds (a stranger could then sit there while the new window still spoke for it:
chat under the seat, stand the stranger up, act on the stranger's prompts, escape for them)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hall_harness import Client, Hall, running_hall
from test_server_time import table_with_bots

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def until(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never: {what}")


async def second_window(hall: Hall, first: Client, table_id: int) -> Client:
    again = Client(hall)
    again.http.cookies.update(first.http.cookies)
    again.me = first.me
    await again.open(table_id)
    return again


async def test_a_replaced_windows_queued_stand_frees_no_seat(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        r = await me.post("/api/tables", {"ruleset": "jiaxing", "hands": 2, "private": False})
        table_id = r.json()["table"]["id"]
        await me.open(table_id)
        await me.send({"type": "sit", "seat": 0})
        await hall.quiet([me])
        actor = hall.runtime.hall.get(table_id)
        assert actor.seats[0].user.id == me.me["id"]
        # hold the table while a second window opens and the first asks to stand: the
        # table hears the new window first, then the old one's stand
        gate = asyncio.Event()
        actor.post(gate.wait)
        await until(lambda: not actor._inbox, "the table waits at the gate")
        again = await second_window(hall, me, table_id)
        await until(lambda: len(actor._inbox) == 1, "the second window's hello is queued")
        await me.send({"type": "stand"})
        await until(lambda: len(actor._inbox) == 2, "the first window's stand is queued")
        gate.set()
        await hall.quiet([again])
        assert me.last("error")["code"] == "replaced"
        assert again.last("welcome")["seat"] == 0
        assert actor.seats[0].user.id == me.me["id"] and actor.seats[0].conn is not None
        # the seat is still the account's: a stranger cannot sit there, and the new window
        # speaks for it as it should
        stranger = await Client(hall).guest()
        await stranger.open(table_id)
        await stranger.send({"type": "sit", "seat": 0})
        await hall.quiet([stranger, again])
        assert stranger.last("refused")["code"] == "not_allowed"
        assert actor.seats[0].user.id == me.me["id"]
        await again.send({"type": "chat", "text": "still here"})
        await hall.quiet([stranger, again])
        said = stranger.last("chat")
        assert (said["seat"], said["name"], said["text"]) == (0, me.me["name"], "still here")
        await again.send({"type": "stand"})
        await hall.quiet([again])
        assert actor.seats[0].empty
        for client in (me, again, stranger):
            await client.close()


async def test_a_replaced_windows_queued_act_is_not_taken(tmp_path: Path) -> None:
    """An act the old window sent is not taken for the seat once a new window holds it: the
    new one answers the open prompt itself."""
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me, hands=1, timing={
            "pause": 0, "turn": 600.0, "bank": 0, "claim": 600.0, "bot_turn": 0,
            "bot_claim": 0, "between_hands": 600.0})
        prompt = me.last("prompt")  # the dealer's first turn
        assert prompt["kind"] == "turn"
        actor = hall.runtime.hall.get(table_id)
        gate = asyncio.Event()
        actor.post(gate.wait)
        await until(lambda: not actor._inbox, "the table waits at the gate")
        again = await second_window(hall, me, table_id)
        await until(lambda: len(actor._inbox) == 1, "the second window's hello is queued")
        await me.send({"type": "act", "seq": prompt["seq"], "action": prompt["actions"][0]})
        await until(lambda: len(actor._inbox) == 2, "the first window's act is queued")
        gate.set()
        await hall.quiet([again])
        assert not me.of_type("ack")
        resent = again.last("snapshot")["prompt"]
        assert resent["seq"] == prompt["seq"]
        await again.send({"type": "act", "seq": resent["seq"], "action": resent["actions"][-1]})
        await hall.quiet([again])
        assert again.last("ack")["seq"] == prompt["seq"]
        await me.close()
        await again.close()
