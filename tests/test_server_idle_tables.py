"""A table a player made closes by itself once nobody has sat at it for ten minutes between
matches (it stayed in the lobby for ever, and counted against its host's three tables: a host
who had made three tables could make no other until an operator closed them); a host at the
limit who makes another first loses the oldest of their tables with nobody at it. The hall's
numbered tables stay. Time is the hall's manual clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from hall_harness import Client, Hall, running_hall
from test_server_time import table_with_bots

from baida.server.tables.hall import MAX_TABLES_PER_HOST
from baida.server.tables.idle import IDLE_SECONDS
from baida.server.tables.standing import StandingTables

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def new_table(client: Client, **config: object) -> int:
    r = await client.post("/api/tables", {"ruleset": "jiaxing", "hands": 2, **config})
    assert r.status_code == 201, r.text
    return r.json()["table"]["id"]


async def listed(hall: Hall, client: Client) -> set[int]:
    return {t["id"] for t in (await client.http.get("/api/tables")).json()["tables"]}


async def test_a_table_nobody_sits_at_closes_after_ten_minutes(tmp_path: Path) -> None:
    standing = (StandingTables("wenling", 1),)
    async with running_hall(tmp_path, standing=standing) as hall:
        host = await Client(hall).guest()
        table_id = await new_table(host)
        [numbered] = await listed(hall, host) - {table_id}
        watcher = await Client(hall).guest()
        await watcher.open(table_id)
        await hall.advance(IDLE_SECONDS - 1, [watcher])
        assert table_id in await listed(hall, host)
        # someone sits: the table is kept however long they stay; standing up starts anew
        await host.open(table_id)
        await host.send({"type": "sit", "seat": 1})
        await hall.advance(2 * IDLE_SECONDS, [host, watcher])
        assert table_id in await listed(hall, host)
        await host.send({"type": "stand"})
        await hall.advance(IDLE_SECONDS - 1, [host, watcher])
        assert table_id in await listed(hall, host)
        await hall.advance(1, [host, watcher])
        # closed: gone from the lobby, its description and its row; the watcher is told why
        assert table_id not in await listed(hall, host)
        r = await host.http.get(f"/api/tables/{table_id}")
        assert r.status_code == 404
        closed = watcher.last("error")
        assert closed["code"] == "unattended" and "nobody sat at it" in closed["message"]
        row = hall.runtime.store.tables.get(table_id)
        assert row.status == "closed"
        # the hall's own numbered table, empty all along, stays
        assert numbered in await listed(hall, host)
        for client in (host, watcher):
            await client.close()


async def test_a_match_played_by_bots_keeps_its_table_until_it_ends(tmp_path: Path) -> None:
    """A person who leaves a match keeps their seat (托管 plays it): the table is attended
    until the match is over; after it, with nobody back, it closes in ten minutes."""
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        table_id = await table_with_bots(hall, host, hands=1, timing={
            "pause": 0, "turn": 5.0, "bank": 0, "claim": 1.0, "bot_turn": 1.0,
            "bot_claim": 0.5, "between_hands": 5.0})
        assert host.of_type("prompt")
        await host.ws.close()
        await hall.advance(IDLE_SECONDS / 4)  # the hand is played out by 托管 meanwhile
        actor = hall.runtime.hall.get(table_id)
        assert actor is not None and actor.status == "waiting"  # over: nobody sits now
        await hall.advance(IDLE_SECONDS)
        assert hall.runtime.hall.get(table_id) is None
        await host.http.aclose()


LONG_MATCH = {"pause": 0, "turn": 5.0, "bank": 0, "claim": 1.0, "bot_turn": 1.0,
              "bot_claim": 0.5, "between_hands": 5.0}


async def test_a_long_match_nobody_is_at_ends_after_ten_minutes_and_its_table_closes(
    tmp_path: Path,
) -> None:
    """A long match whose people all left played on with 托管 and bots for hours (64 hands at
    the unattended pace: about three), keeping its table in the lobby and counting against
    its host's three. With no person connected for ten minutes it now ends at the end of the
    hand in play, as abandoned (every hand played is settled; the hand in play is finished,
    not voided); then the table closes like any other nobody sits at. A watcher keeps it."""
    async with running_hall(tmp_path, starting_balance=400) as hall:
        host = await Client(hall).guest()
        table_id = await table_with_bots(hall, host, hands=64, timing=LONG_MATCH,
                                         stakes="silver", base=1, fee=1)
        other = await Client(hall).guest()
        watched = await table_with_bots(hall, other, hands=64, timing=LONG_MATCH)
        watcher = await Client(hall).guest()
        await watcher.open(watched)
        await host.ws.close()
        await other.ws.close()  # gone too: only a watcher is at that table
        actor = hall.runtime.hall.get(table_id)
        kept = hall.runtime.hall.get(watched)
        match_id = actor.match_id
        await hall.advance(IDLE_SECONDS - 30, [watcher])
        assert actor.status != "waiting" and actor.match_id == match_id  # still playing
        await hall.advance(IDLE_SECONDS / 2, [watcher])  # ten minutes, then its hand's end
        assert actor.status == "waiting" and actor.driver is None
        store = hall.runtime.store
        match = store.tables.get_match(match_id)
        assert match.status == "abandoned"
        assert not store.hands.in_progress([table_id])  # no hand left half played
        assert store.ledger.check().ok
        assert all(s.user is None for s in actor.seats)  # the gone person's seat is free
        # back, they are told why (once), not left to wonder where their match went
        for told in (["match_abandoned"], []):
            await host.open(table_id)
            await hall.quiet([host])
            assert [m["code"] for m in host.of_type("notice")] == told
            await host.ws.close()
            host.log.clear()
        await hall.advance(IDLE_SECONDS, [watcher])
        assert hall.runtime.hall.get(table_id) is None  # closed as any unattended table
        assert store.tables.get(table_id).status == "closed"
        # the table with a watcher plays on
        assert kept.status in ("playing", "between") and kept.match_id is not None
        assert store.tables.get_match(kept.match_id).status == "playing"
        await watcher.close()
        for client in (host, other):
            await client.http.aclose()


async def test_a_host_at_the_limit_loses_the_oldest_table_nobody_sits_at(
    tmp_path: Path,
) -> None:
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        tables = [await new_table(host) for _ in range(MAX_TABLES_PER_HOST)]
        await host.open(tables[0])  # the oldest is attended: the next one goes instead
        await host.send({"type": "sit", "seat": 0})
        await hall.quiet([host])
        fourth = await new_table(host)
        assert await listed(hall, host) >= {tables[0], tables[2], fourth}
        assert tables[1] not in await listed(hall, host)
        # all three attended: the limit holds, nothing is closed
        for table_id in (tables[2], fourth):
            other = Client(hall)
            other.http.cookies.update(host.http.cookies)
            other.me = host.me
            await other.open(table_id)
            await other.send({"type": "sit", "seat": 0})
            await hall.quiet([other])
        r = await host.post("/api/tables", {"ruleset": "jiaxing", "hands": 2})
        assert r.status_code == 400 and r.json()["code"] == "host_limit"
        assert await listed(hall, host) >= {tables[0], tables[2], fourth}
        await host.close()


async def test_requests_sent_at_once_make_no_more_tables_than_the_limit(tmp_path: Path) -> None:
    """Twelve table requests of one host sent at once: the host holds three tables after
    (nobody sits at them, so each new one closes the oldest; each request used to see the
    host's tables before any was made, and twelve stayed open); quick plays sent at once all
    sit at one table."""
    import asyncio

    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        answers = await asyncio.gather(*(
            host.post("/api/tables", {"ruleset": "jiaxing", "hands": 1}) for _ in range(12)))
        assert {r.status_code for r in answers} == {201}
        hosted = [a for a in hall.runtime.hall.tables.values()
                  if a.info.host == host.me["id"] and a.status != "closed"]
        assert len(hosted) == MAX_TABLES_PER_HOST, len(hosted)
        player = await Client(hall).guest()
        quick = await asyncio.gather(*(
            player.post("/api/quickplay", {"ruleset": "wenling"}) for _ in range(6)))
        assert {r.status_code for r in quick} <= {200, 201}, [r.text for r in quick]
        assert len({r.json()["table"]["id"] for r in quick}) == 1
        assert len(hall.runtime.hall._hosting) == 0  # no lock is left behind
        await host.http.aclose()
        await player.http.aclose()
