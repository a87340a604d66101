"""Whole matches through the real protocol: four scripted clients, bots, spectators, records."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hall_harness import INSTANT, Client, running_hall

from baida.client.play import HandTracker, auto_choice
from baida.server.tables.hall import PRACTICE_TIMING

pytestmark = pytest.mark.anyio
pytest_plugins = ["store_support"]

if TYPE_CHECKING:
    from store_support import Databases

@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def player(tracker: HandTracker) -> Any:
    """A client that sits, gets ready, and answers every prompt by the fixed rule."""

    async def on_message(client: Client, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "snapshot":
            tracker.snapshot(message)
        elif kind == "events":
            for i, event in enumerate(message["events"]):
                if message["index"] + i >= tracker.next_index:
                    tracker.event(event)
            tracker.next_index = message["index"] + len(message["events"])
        elif kind == "prompt":
            action = auto_choice(tracker, message)
            await client.send({"type": "act", "seq": message["seq"], "action": action})
        elif kind == "hand_result" and not message["match_over"]:
            await client.send({"type": "ready"})

    return on_message


async def seat_four(hall: Any, table_id: int) -> list[Client]:
    clients = []
    for seat in range(4):
        c = await Client(hall).guest()
        c.on_message = player(HandTracker())
        await c.open(table_id)
        await c.send({"type": "sit", "seat": seat})
        clients.append(c)
    await hall.quiet(clients)
    for c in clients:
        await c.send({"type": "ready"})
    return clients


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
async def test_four_clients_play_a_match_to_the_end(
    tmp_path: Path, ruleset: str, databases: Databases
) -> None:
    url = None if databases.kind == "sqlite" else databases.url()
    async with running_hall(tmp_path, database=url) as hall:
        host = await Client(hall).guest()
        r = await host.post("/api/tables", {"ruleset": ruleset, "hands": 2, "timing": INSTANT})
        assert r.status_code == 201, r.text
        table_id = r.json()["table"]["id"]
        clients = await seat_four(hall, table_id)
        for _ in range(400):
            await hall.quiet(clients)
            if all(any(m["match_over"] for m in c.of_type("hand_result")) for c in clients):
                break
        results = [c.of_type("hand_result") for c in clients]
        assert all(len(r) == 2 for r in results)
        totals = results[0][-1]["totals"]
        assert sum(totals) == 0 and all(r[-1]["totals"] == totals for r in results)
        # each player's hands and records are theirs to read, and verify
        for seat, c in enumerate(clients):
            hands = (await c.http.get("/api/me/hands")).json()["hands"]
            assert [h["seat"] for h in hands] == [seat, seat]
            record = (await c.http.get(f"/api/hands/{hands[0]['hand_id']}/record")).json()
            assert record["format"] == "baida-record-v1" and record["seed"]
            check = (await c.http.get(f"/api/hands/{hands[0]['hand_id']}/verify")).json()
            assert check["ok"], check
            # the record (战绩) counts what the list of hands shows
            [record] = (await c.http.get("/api/me/stats")).json()["records"]
            assert record["ruleset"] == ruleset and record["hands"] == 2
            assert record["wins"] == sum(h["winner"] == seat for h in hands)
            assert record["drawn"] == sum(h["winner"] is None for h in hands)
            assert record["points"] == sum(h["payment"] for h in hands)
            gains = [h for h in hands if h["payment"] > 0]
            best = max(gains, key=lambda h: (h["payment"], h["hand_id"])) if gains else None
            assert record["best_points"] == (best and best["payment"])
            assert record["best_hand_id"] == (best and best["hand_id"])
        other = (await clients[0].http.get("/api/me/hands")).json()["hands"][0]["hand_id"]
        stranger = await Client(hall).guest()
        assert (await stranger.http.get(f"/api/hands/{other}/record")).status_code == 404
        for c in [*clients, host, stranger]:
            await c.close()


async def test_the_guides_practice_table_is_its_own_with_long_clocks(tmp_path: Path) -> None:
    """The first-hand guide's table: a newcomer reads while the hand goes on, and a 12 s
    turn ran out under the first steps (托管 took the seat); and the guide opened the quick
    table the person was already playing at."""
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        quick = (await me.post("/api/quickplay", {"ruleset": "wenling"})).json()["table"]
        r = await me.post("/api/quickplay", {"ruleset": "wenling", "practice": True})
        assert r.status_code == 201
        practice = r.json()["table"]
        assert practice["id"] != quick["id"] and practice["private"]
        assert practice["timing"] == {**quick["timing"], **PRACTICE_TIMING}
        assert practice["timing"]["turn"] >= 10 * quick["timing"]["turn"]
        again = (await me.post("/api/quickplay", {"ruleset": "wenling", "practice": True}))
        assert again.json()["table"]["id"] == practice["id"]
        assert (await me.post("/api/quickplay", {"ruleset": "wenling"})).json()["table"][
            "id"] == quick["id"]
        bad = await me.post("/api/quickplay", {"ruleset": "wenling", "practice": "yes"})
        assert bad.status_code == 400 and "practice" in bad.json()["error"]
        await me.close()


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
async def test_quick_play_with_three_bots_and_a_spectator(tmp_path: Path, ruleset: str) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        r = await me.post("/api/quickplay", {"ruleset": ruleset})
        table = r.json()["table"]
        assert table["private"] and table["room_code"]
        # make it instant for the test: the operator's knob is the table config
        actor = hall.runtime.hall.get(table["id"])
        from baida.server.tables.config import TableConfig

        actor.config = TableConfig.from_json({**actor.config.to_json(), "timing": INSTANT})
        me.on_message = player(HandTracker())
        await me.open(table["id"])
        await me.send({"type": "sit"})
        await hall.quiet([me])
        await me.send({"type": "add_bots"})
        watcher = await Client(hall).guest()
        found = (await watcher.post("/api/rooms", {"code": table["room_code"].lower()})).json()
        assert found["table"]["id"] == table["id"]
        await watcher.open(table["id"])
        await me.send({"type": "ready"})
        for _ in range(400):
            await hall.quiet([me, watcher])
            if any(m["match_over"] for m in me.of_type("hand_result")):
                break
        assert len(me.of_type("hand_result")) == 4
        assert watcher.of_type("events") and not watcher.of_type("prompt")
        seen_by_watcher = [e for m in watcher.of_type("events") for e in m["events"]]
        assert all(e.get("tiles") is None for e in seen_by_watcher if e["type"] == "deal")
        assert all(e.get("tile") is None for e in seen_by_watcher if e["type"] == "draw")
        await me.close()
        await watcher.close()
