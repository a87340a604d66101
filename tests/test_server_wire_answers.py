"""Answers a client can count on: a refusal echoes the id the message carried, ``resume``
is always answered, and a client that reconnects mid-hand hears nothing of the game before
its snapshot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hall_harness import Client, running_hall
from test_server_time import my_turn, table_with_bots

pytestmark = pytest.mark.anyio

GAME = {"events", "prompt", "prompt_closed", "seat_mode"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_refusal_echoes_the_id_the_message_carried(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        await table_with_bots(hall, me)
        sent = [
            ({"type": "act", "seq": "x", "action": {"type": "pass"}, "id": "c1"}, "c1"),
            ({"type": "no_such", "id": "c2"}, "c2"),
            ({"type": "act", "seq": 1, "action": {"type": "fly"}, "id": "c3"}, "c3"),
            ({"type": "act", "seq": 999, "action": {"type": "pass"}, "id": "c4"}, "c4"),
            ({"type": "act", "seq": 1, "action": {"type": "pass"}, "id": "x" * 33}, None),
            ({"type": "act", "seq": 1, "action": {"type": "pass"}, "id": 5}, None),
            ({"type": "sit", "id": "c7"}, "c7"),  # sit has no id: malformed, still echoed
        ]
        for message, _ in sent:
            await me.send(message)
        await me.send("[1, 2]")
        await me.send('{"type": "ping", "id": "c9"')
        await hall.quiet([me])
        refused = me.of_type("refused")
        # the table's own refusals (stale) come after those of the socket (malformed)
        got = sorted((r["id"] or "", r["code"]) for r in refused)
        assert got == sorted([(i or "", "stale" if i == "c4" else "malformed")
                              for _, i in sent] + [("", "malformed")] * 2)
        await me.close()


async def test_resume_is_answered_in_and_out_of_tuoguan(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        await table_with_bots(hall, me)
        await my_turn(hall, me)
        await me.send({"type": "resume"})
        await hall.quiet([me])
        assert me.last("seat_mode") == {"type": "seat_mode", "seat": 0, "mode": "player",
                                        "reason": None}
        await hall.advance(12.5, [me])  # the turn and the bank run out: 托管
        assert me.last("seat_mode")["mode"] == "auto"
        await me.send({"type": "resume"})
        await hall.quiet([me])
        assert me.last("seat_mode") == {"type": "seat_mode", "seat": 0, "mode": "player",
                                        "reason": None}
        await me.close()


async def test_a_reconnecting_client_hears_nothing_before_its_snapshot(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me)
        await my_turn(hall, me)
        await me.send({"type": "act", "seq": me.last("prompt")["seq"],
                       "action": me.last("prompt")["actions"][0]})
        await hall.quiet([me])
        assert me.ws is not None
        await me.ws.close()
        await hall.quiet()
        for step in range(8):  # reconnect at moments all through the bots' turns
            await hall.advance(0.3 + 0.1 * step)
            again = Client(hall)
            again.http.cookies.update(me.http.cookies)
            again.me = me.me
            await again.open(table_id)
            for _ in range(20):
                await hall.advance(0.25, [again])
                if again.of_type("snapshot"):
                    break
            kinds = [m["type"] for m in again.log]
            first = kinds.index("snapshot")
            assert not GAME & set(kinds[:first]), kinds
            snap = again.log[first]
            assert snap["resync"] is True
            # what follows goes on from the snapshot: no event it already holds, none missed
            later = [m for m in again.log[first:] if m["type"] == "events"]
            if later:
                assert later[0]["index"] == snap["event_index"], json.dumps(later[0])[:200]
            assert again.ws is not None
            await again.ws.close()
            await hall.quiet()
            await again.http.aclose()
        await me.http.aclose()
