"""No message to a seat holds another seat's concealed tile, the wall, an unrevealed seed, or
who else may claim: every message of whole matches of both rulesets, every seat and a
spectator, checked (also with the hall's bots and a seat played by 托管 while its person was
away); and the messages match the published schemas."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hall_harness import INSTANT, Client, running_hall
from test_server_protocol import validate

pytestmark = pytest.mark.anyio

# what only an event's own seat may see (written here, not taken from the engine)
PRIVATE = {"deal": ("tiles", "drawn"), "draw": ("tile",), "akong": ("tile",)}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def random_player(seed: int) -> Any:
    """Answers every prompt with a random offered action (claims, kongs, 三摊 choices...)."""
    rng = random.Random(seed)

    async def on_message(client: Client, message: dict[str, Any]) -> None:
        if message["type"] == "prompt":
            action = rng.choice(message["actions"])
            await client.send({"type": "act", "seq": message["seq"], "action": action})
        elif message["type"] == "hand_result" and not message["match_over"]:
            await client.send({"type": "ready"})

    return on_message


def leaks(seat: int | None, messages: list[dict[str, Any]]) -> list[str]:
    """What ``seat`` (None: a spectator) was shown that it may not see."""
    found: list[str] = []
    ended = False

    def walk(value: Any, where: str) -> None:
        if isinstance(value, dict):
            if "wall" in value:
                found.append(f"{where}: a wall")
            if value.get("seed") is not None and not ended:
                found.append(f"{where}: a seed before the end")
            players = value.get("players")
            if isinstance(players, list) and value.get("phase") != "ended":
                for p in players:
                    if p["seat"] != seat and (p["concealed"] is not None or p["drawn"]):
                        found.append(f"{where}: seat {p['seat']}'s concealed tiles")
                if value.get("phase") in ("claim", "rob") and set(value["to_act"]) - {seat}:
                    found.append(f"{where}: who else may claim {value['to_act']}")
            for key, inner in value.items():
                walk(inner, f"{where}.{key}")
        elif isinstance(value, list):
            for i, inner in enumerate(value):
                walk(inner, f"{where}[{i}]")

    for n, message in enumerate(messages):
        kind = message["type"]
        if kind == "events":
            for event in message["events"]:
                if event["type"] == "hand_start":
                    ended = False
                private = PRIVATE.get(event["type"], ())
                if event.get("seat") != seat and any(event.get(k) is not None for k in private):
                    found.append(f"message {n}: seat {event['seat']}'s {event['type']}")
                if event["type"] == "hand_end":
                    ended = True
                else:
                    walk(event, f"message {n} event {event['type']}")
            continue
        if kind == "snapshot" and message["view"] is not None:
            ended = message["view"]["phase"] == "ended"
        if kind == "prompt" and seat is None:
            found.append(f"message {n}: a prompt to a spectator")
        walk(message, f"message {n} ({kind})")
    return found


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
async def test_no_message_reveals_a_secret(tmp_path: Path, ruleset: str) -> None:
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        options = {"allow_discard_win": True} if ruleset == "jiaxing" else {}
        r = await host.post("/api/tables", {"ruleset": ruleset, "hands": 3, "timing": INSTANT,
                                           "options": options})
        table_id = r.json()["table"]["id"]
        players = []
        for seat in range(4):
            c = await Client(hall).guest()
            c.on_message = random_player(seat + 10 * (ruleset == "wenling"))
            await c.open(table_id)
            await c.send({"type": "sit", "seat": seat})
            players.append(c)
        watcher = await Client(hall).guest()
        await watcher.open(table_id)
        everyone = [*players, watcher]
        await hall.quiet(everyone)
        for c in players:
            await c.send({"type": "ready"})
        for _ in range(600):
            await hall.quiet(everyone)
            if all(any(m["match_over"] for m in c.of_type("hand_result")) for c in players):
                break
        kinds: set[str] = set()
        for seat, c in enumerate(players):
            assert len(c.of_type("hand_result")) == 3
            assert leaks(seat, c.log) == []
            for message in c.log:
                validate(message)
                kinds.add(message["type"])
                if message["type"] == "events":
                    kinds.update(e["type"] for e in message["events"])
        assert leaks(None, watcher.log) == []
        for message in watcher.log:
            validate(message)
        # the random players made claims, so windows opened and were answered
        assert {"prompt", "ack", "snapshot", "pon"} <= kinds or {"prompt", "chi"} <= kinds
        for c in everyone + [host]:
            await c.close()


# the bots (and 托管) take half a second a move: time passes only when the test says
BOT_PACED = {**INSTANT, "bot_turn": 0.5, "bot_claim": 0.25}


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
async def test_no_secret_with_hall_bots_and_a_seat_on_tuoguan(tmp_path: Path,
                                                             ruleset: str) -> None:
    """Two people and two of the hall's bots; one person drops mid-hand (托管 plays the seat)
    and comes back: nothing either person or a spectator is sent leaks, before, during or
    after, and everything matches the schemas."""
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        r = await host.post("/api/tables", {"ruleset": ruleset, "hands": 2,
                                           "timing": BOT_PACED})
        table_id = r.json()["table"]["id"]
        dropper = await Client(hall).guest()
        host.on_message = random_player(20)
        people = [host, dropper]
        for seat, c in enumerate(people):
            await c.open(table_id)
            await c.send({"type": "sit", "seat": seat})
        watcher = await Client(hall).guest()
        await watcher.open(table_id)
        everyone = [*people, watcher]
        await hall.quiet(everyone)
        await host.send({"type": "add_bots"})  # seats 2 and 3
        for c in people:
            await c.send({"type": "ready"})
        for _ in range(400):  # until the dropper owes a decision, which it never answers
            if dropper.of_type("prompt"):
                break
            await hall.advance(0.25, everyone)
        assert dropper.of_type("prompt")
        await dropper.ws.close()
        await hall.quiet([host, watcher])
        actor = hall.runtime.hall.get(table_id)
        assert actor.driver.modes[1].value == "auto"
        await hall.advance(3.0, [host, watcher])  # 托管 plays the seat for a while
        back = Client(hall)
        back.http.cookies.update(dropper.http.cookies)
        back.me = dropper.me
        back.on_message = random_player(99)
        await back.open(table_id)
        await back.send({"type": "resume"})
        everyone = [host, back, watcher]
        for _ in range(4000):
            if all(any(m["match_over"] for m in c.of_type("hand_result")) for c in (host, back)):
                break
            await hall.advance(0.25, everyone)
        assert any(m["match_over"] for m in back.of_type("hand_result"))
        assert any(m["type"] == "seat_mode" for m in host.log)  # 托管, marked to everyone
        for seat, log in ((0, host.log), (1, dropper.log), (1, back.log)):
            assert leaks(seat, log) == [], seat
            for message in log:
                validate(message)
        assert leaks(None, watcher.log) == []
        for message in watcher.log:
            validate(message)
        for c in [*everyone, dropper]:
            await c.close()


def test_the_checker_finds_leaks() -> None:
    leaked = [
        {"type": "events", "index": 0, "events": [{"type": "draw", "seat": 2, "tile": "5m"}]},
        {"type": "snapshot", "view": {"phase": "claim", "to_act": [0, 2], "seed": None,
                                      "players": []}},
        {"type": "snapshot", "view": {"phase": "turn", "to_act": [1], "seed": "ab",
                                      "players": [{"seat": 1, "concealed": ["1m"],
                                                   "drawn": None}]}},
    ]
    found = leaks(0, leaked)
    assert len(found) == 4, found
