"""Redis fails under a hall on several machines (``bench/machines.py``: three network
namespaces, a node in each, the machine's PostgreSQL, the hall's own Redis, HAProxy from
Debian with ``deploy/haproxy.cfg``): with a table in play at every node (a person through
the proxy and three bots; one of them private, reached by its room code), Redis is hung
(SIGSTOP) for several seconds, then killed and started again empty, then flushed. Throughout,
every table plays on (its person hears the hand go on and its pings are answered, without a
reconnect), and the lobby through the proxy answers without a 5xx (only the nodes'
``/healthz/ready`` says 503 while Redis is out). After each fault the lobby lists every table
again within a bounded time and the room code resolves at every door."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest
import redis
from test_hall_machines import TIMING, Person, make_table, owner
from test_server_kill import until

from baida.server.store import Store
from bench.machines import Machines, machines_problem

pytestmark = [pytest.mark.anyio, pytest.mark.alone]
PROBLEM = machines_problem()
if PROBLEM is not None:
    pytest.skip(f"hosts cannot be made here: {PROBLEM}", allow_module_level=True)

HANG = 6.0  # seconds Redis is hung (SIGSTOP)
OUT = 4.0  # seconds Redis is gone before it starts again, empty
BACK = 15.0  # seconds within which the lobby lists every table again
STALL = 5.0  # the longest a table may stay silent to its person
PING = 3.0  # the longest a ping may wait for its pong


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Watch:
    """What the players and the lobby see while Redis fails: the lobby through the proxy
    (every answer's status), each node's readiness, each person's silences and pings."""

    def __init__(self, m: Machines, people: list[Person]) -> None:
        self.m = m
        self.people = people
        self.lobby: list[tuple[float, int, str]] = []  # (when, status, what was wrong)
        self.ready: dict[str, list[int]] = {n.name: [] for n in m.nodes}
        self.silence = [0.0] * len(people)  # the longest silence each person heard
        self.pings: list[float] = []  # round trips
        self.lost_pings = 0
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._poll_lobby()),
                       asyncio.create_task(self._poll_ready()),
                       asyncio.create_task(self._listen()),
                       *(asyncio.create_task(self._ping(p)) for p in self.people)]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def reset(self) -> None:
        self.silence = [0.0] * len(self.people)

    async def _poll_lobby(self) -> None:
        async with httpx.AsyncClient(base_url=self.m.proxy_base, timeout=10.0) as http:
            while True:
                when = time.monotonic()
                try:
                    r = await http.get("/api/tables")
                    self.lobby.append((when, r.status_code,
                                       r.text[:200] if r.status_code >= 500 else ""))
                except httpx.HTTPError as exc:
                    self.lobby.append((when, 0, repr(exc)))
                await asyncio.sleep(0.2)

    async def _poll_ready(self) -> None:
        async with httpx.AsyncClient(timeout=3.0) as http:
            while True:
                for node in self.m.nodes:
                    try:
                        r = await http.get(node.base + "/healthz/ready")
                        self.ready[node.name].append(r.status_code)
                    except httpx.HTTPError:
                        self.ready[node.name].append(0)
                await asyncio.sleep(0.5)

    async def _listen(self) -> None:
        while True:
            now = time.monotonic()
            for i, p in enumerate(self.people):
                self.silence[i] = max(self.silence[i], now - p.heard)
            await asyncio.sleep(0.1)

    async def _ping(self, person: Person) -> None:
        while True:
            await asyncio.sleep(0.5)
            if person.client.closed:
                continue
            sent = time.monotonic()
            try:
                await asyncio.wait_for(person.client.barrier(), PING)
                self.pings.append(time.monotonic() - sent)
            except TimeoutError:
                self.lost_pings += 1

    def bad_lobby(self) -> list[tuple[float, int, str]]:
        return [x for x in self.lobby if not 200 <= x[1] < 500]


async def listed(door: str) -> set[int]:
    """The public tables the lobby lists at ``door`` (none if it does not answer)."""
    async with httpx.AsyncClient(timeout=5.0) as http:
        try:
            r = await http.get(door + "/api/tables")
        except httpx.HTTPError:
            return set()
    return {t["id"] for t in r.json()["tables"]} if r.status_code == 200 else set()


async def every_door_lists(m: Machines, tables: set[int], what: str) -> float:
    """Wait until the proxy and every node list all of ``tables``; seconds taken."""
    start = time.monotonic()
    doors = [m.proxy_base] + [n.base for n in m.nodes]
    while True:
        seen = [await listed(d) for d in doors]
        if all(tables <= s for s in seen):
            return time.monotonic() - start
        if time.monotonic() - start > BACK:
            raise AssertionError(f"{what}: not every table listed after {BACK} s: "
                                 f"{[sorted(tables - s) for s in seen]}")
        await asyncio.sleep(0.2)


async def redis_whole(m: Machines, tables: set[int], code: str, private: int,
                      what: str) -> float:
    """Wait until Redis itself holds the lobby entry and owner of each of ``tables`` and the
    room code of ``private`` again (the nodes wrote their shares back); seconds taken."""
    start = time.monotonic()
    key = f"{m.schema}:{{}}".format
    client = redis.Redis(unix_socket_path=str(m.redis_socket), socket_timeout=2.0,
                         decode_responses=True)
    try:
        while True:
            lobby = {int(t) for t in client.hkeys(key("lobby"))}
            owners = client.mget([key(f"owner:{t}") for t in sorted(tables | {private})])
            room = client.hget(key("rooms"), code)
            if tables <= lobby and None not in owners and room == str(private):
                return time.monotonic() - start
            if time.monotonic() - start > BACK:
                raise AssertionError(f"{what}: Redis lacks {sorted(tables - lobby)}, "
                                     f"owners {owners.count(None)} missing, room {room}")
            await asyncio.sleep(0.2)
    finally:
        client.close()


async def all_ready(m: Machines, what: str) -> float:
    """Wait until every node's ``/healthz/ready`` says 200 again; seconds taken."""
    start = time.monotonic()
    async with httpx.AsyncClient(timeout=3.0) as http:
        while True:
            codes = []
            for node in m.nodes:
                try:
                    codes.append((await http.get(node.base + "/healthz/ready")).status_code)
                except httpx.HTTPError:
                    codes.append(0)
            if codes == [200] * len(m.nodes):
                return time.monotonic() - start
            if time.monotonic() - start > BACK:
                raise AssertionError(f"{what}: readiness {codes} after {BACK} s")
            await asyncio.sleep(0.1)


async def room_resolves(m: Machines, person: Person, code: str, table: int) -> None:
    """The room code leads to its table through every door."""
    cookie = "; ".join(f"{k}={v}" for k, v in person.client.http.cookies.items())
    headers = {**person.client.headers(), "Cookie": cookie}
    async with httpx.AsyncClient(timeout=5.0) as http:
        for door in [m.proxy_base] + [n.base for n in m.nodes]:
            r = await http.post(door + "/api/rooms", json={"code": code.lower()},
                                headers=headers)
            assert r.status_code == 200, (door, r.status_code, r.text)
            assert r.json()["table"]["id"] == table


async def seat_with_bots(person: Person, table: int) -> None:
    await person.open(table)
    await person.client.send({"type": "sit", "seat": 0})
    await until("the seat", lambda: any(
        m_["type"] == "table" and m_["table"]["seats"][0]["kind"] == "person"
        for m_ in person.client.log), 20.0)
    await person.client.send({"type": "add_bots"})
    await until("the bots", lambda: any(
        m_["type"] == "table" and m_["table"]["seats"][3]["kind"] == "bot"
        for m_ in person.client.log), 20.0)
    await person.client.send({"type": "ready"})


def progress(people: list[Person]) -> list[int]:
    """Discards and hand results each person has seen so far."""
    return [sum(1 for m in p.client.log if m["type"] == "hand_result") * 1000
            + p.discards_after(0) for p in people]


async def test_redis_hung_stopped_and_restarted_empty(tmp_path: Path) -> None:
    with Machines(tmp_path) as m:
        await _faults(m)


async def _faults(m: Machines) -> None:
    people: list[Person] = []
    watch: Watch | None = None
    try:
        # a table made at each node (the maker's door), one of them private, each with a
        # person who enters through the proxy and three bots
        tables: list[int] = []
        code = ""
        for i, node in enumerate(m.nodes):
            maker = await Person([node.base]).sign_in()
            people.append(maker)
            if i < 2:
                table = await make_table(maker, hands=64)
            else:
                r = await maker.client.post("/api/tables", {
                    "ruleset": "jiaxing", "timing": TIMING, "stakes": "points",
                    "hands": 64, "private": True})
                assert r.status_code == 201, r.text
                table, code = r.json()["table"]["id"], r.json()["table"]["room_code"]
                assert code
            assert owner(m, table) == node.name
            tables.append(table)
        public = set(tables[:2])
        players = [await Person([m.proxy_base]).sign_in() for _ in tables]
        await room_resolves(m, players[2], code, tables[2])
        for person, table in zip(players, tables, strict=True):
            await seat_with_bots(person, table)
        await until("every table dealing", lambda: all(
            p.discards_after(0) >= 4 for p in players), 60.0)
        people += players
        await every_door_lists(m, public, "the lobby before")
        every = await listed(m.proxy_base)  # the standing tables too
        assert public <= every and len(every) == 26
        await redis_whole(m, every, code, tables[2], "before")
        watch = Watch(m, players)
        watch.start()
        await asyncio.sleep(2.0)

        # Redis hangs: every node finds it out, nobody waits for it, play goes on
        hands = [len(p.of_type("hand_result")) for p in players]
        before = progress(players)
        m.pause_redis()
        try:
            await asyncio.sleep(HANG)
            assert all(x == [] or 503 in x[-3:] for x in watch.ready.values()), watch.ready
            during = progress(players)
        finally:
            m.pause_redis(False)
        assert all(b < d for b, d in zip(before, during, strict=True)), (before, during)
        took = await every_door_lists(m, public, "the lobby after the hang")
        print(f"hang: the lobby whole again {took:.1f} s after SIGCONT")
        await redis_whole(m, every, code, tables[2], "after the hang")
        took = await all_ready(m, "after the hang")
        print(f"hang: every node ready {took:.1f} s after that")
        await room_resolves(m, players[2], code, tables[2])

        # Redis dies and comes back empty
        before = progress(players)
        m.stop_redis()
        await asyncio.sleep(OUT / 2)  # no node is ready now: the proxy sends to live ones
        # meanwhile a newcomer signs in and watches a table, through the proxy
        newcomer = await Person([m.proxy_base]).sign_in()
        people.append(newcomer)
        await newcomer.open(tables[0])
        await asyncio.sleep(OUT / 2)
        assert newcomer.of_type("welcome") and newcomer.drops == 0
        assert "has no server available" in (m.tmp / "haproxy.log").read_text()
        during = progress(players)
        assert all(b < d for b, d in zip(before, during, strict=True)), (before, during)
        m.start_redis()
        took = await every_door_lists(m, every, "the lobby after an empty restart")
        print(f"restart: the lobby whole again {took:.1f} s after the start")
        took = await redis_whole(m, every, code, tables[2], "after an empty restart")
        print(f"restart: Redis whole again {took:.1f} s after the start")
        await all_ready(m, "after an empty restart")
        await room_resolves(m, players[2], code, tables[2])

        # Redis loses its data while it answers (FLUSHALL): the nodes notice and refill
        m.flush_redis()
        took = await redis_whole(m, every, code, tables[2], "after a flush")
        print(f"flush: Redis whole again {took:.1f} s after FLUSHALL")
        took = await every_door_lists(m, every, "the lobby after a flush")
        print(f"flush: the lobby whole again {took:.1f} s after that")
        await all_ready(m, "after a flush")
        await room_resolves(m, players[2], code, tables[2])
        after = progress(players)
        await until("play after the faults", lambda: all(
            a < n for a, n in zip(after, progress(players), strict=True)), 30.0)

        await until("a hand ended and paid at every table since the faults began", lambda: all(
            len(p.of_type("hand_result")) > n for p, n in zip(players, hands, strict=True)),
            60.0)

        # throughout: no reconnect, no long silence, every ping answered, no 5xx
        assert [p.drops for p in players] == [0, 0, 0]
        assert max(watch.silence) < STALL, watch.silence
        assert watch.lost_pings == 0 and max(watch.pings) < PING, (
            watch.lost_pings, max(watch.pings))
        assert watch.bad_lobby() == [], watch.bad_lobby()[:5]
        assert len(watch.lobby) > 50
        assert all(owner(m, t) == n.name for t, n in zip(tables, m.nodes, strict=True))
        with Store(m.database) as store:
            assert store.ledger.check().ok
    finally:
        if watch is not None:
            await watch.stop()
        for p in people:
            await p.close()
