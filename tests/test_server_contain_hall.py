"""A hall of two nodes (``baida serve --nodes 2``) whose parts fail: its Redis hung (SIGSTOP),
gone, and back empty while people play; a node killed (only it restarts, the other keeps
serving); the supervisor killed (its nodes exit, a new hall starts on the same port); and the
limits that count across nodes. Redis is a redis-server of the test's own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from hall_harness import Client
from test_server_kill import FAST, free_port, until
from test_server_nodes import node_processes, stop

from baida.server.directory.in_redis import REDIS_SECONDS, RedisDirectory
from baida.server.store import Store
from baida.server.web.auth import ROOM_FAILURES
from baida.server.web.limits import NAME_FAILURES

if TYPE_CHECKING:
    from private_redis import PrivateRedis

pytest_plugins = ["private_redis"]
pytestmark = pytest.mark.anyio
PREFIX = "hall"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def start_hall(data: Path, port: int, redis_url: str, timeout: float = 90.0
               ) -> subprocess.Popen[bytes]:
    """``baida serve --nodes 2``, once it prints its URL."""
    log = data / f"hall-{len(list(data.glob('hall-*.log'))) + 1}.log"
    cmd = [sys.executable, "-m", "baida.cli", "serve", "--nodes", "2", "--port", str(port),
           "--data", str(data), "--bot-workers", "0", "--no-warm-up", "--log-level", "warning",
           "--redis", redis_url, "--redis-prefix", PREFIX,
           "--client-rate", "1000", "--client-burst", "1000",  # (the pings of ping_times)
           # every client on this one address, some sharing an account
           "--max-connections-per-address", "100000", "--max-sockets-per-address", "100000",
           "--max-sockets-per-account", "100000",
           "--guests-per-hour", "0", "--signins-per-address", "0", "--min-bot-time", "0"]
    proc = subprocess.Popen(cmd, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + timeout
    while "baida hall:" not in log.read_text(errors="replace"):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"the hall did not start: {log.read_text()[-3000:]}")
        time.sleep(0.05)
    return proc


def hall_at(port: int) -> Any:
    return SimpleNamespace(base=f"http://127.0.0.1:{port}", ws_base=f"ws://127.0.0.1:{port}")


async def fresh(hall: Any, method: str, path: str, client: Client | None = None,
                payload: Any = None) -> httpx.Response:
    """One request on a connection of its own (so the kernel may give it to either node)."""
    cookies = client.http.cookies if client is not None else None
    headers = {**(client.headers() if client is not None else {}), "Connection": "close"}
    async with httpx.AsyncClient(base_url=hall.base, cookies=cookies, timeout=10) as http:
        return await http.request(method, path, json=payload, headers=headers)


async def both_ready(hall: Any) -> bool:
    """Whether both nodes answer ready (asked on fresh connections until each has)."""
    seen: dict[str, int] = {}
    for _ in range(40):
        r = await fresh(hall, "GET", "/healthz/ready")
        seen[r.json()["node"]] = r.status_code
        if len(seen) == 2:
            break
    return seen == {"node-0": 200, "node-1": 200}


def auto_player(client: Client, message: dict[str, Any]) -> Any:
    """Answers every prompt at once (a win, else a pass), and is ready for the next hand."""
    if message["type"] == "hand_result" and not message["match_over"]:
        return client.send({"type": "ready"})
    if message["type"] != "prompt":
        return None
    acts = message["actions"]
    choice = next((a for a in acts if a["type"] in ("win", "pass", "continue")), acts[-1])
    return client.send({"type": "act", "seq": message["seq"], "action": choice})


async def tables_on_both_nodes(hall: Any, directory: RedisDirectory) -> list[tuple[Client, int]]:
    """A host and a long 银子 match with three bots at a table of each node, playing."""
    found: dict[str, tuple[Client, int]] = {}
    spare: list[Client] = []
    for _ in range(16):
        host = await Client(hall).guest()
        r = await host.post("/api/tables", {"ruleset": "jiaxing", "hands": 64, "bot": "greedy",
                                            "timing": {**FAST, "between_hands": 30.0},
                                            "stakes": "silver", "base": 1, "fee": 1})
        assert r.status_code == 201, r.text
        table_id = r.json()["table"]["id"]
        directory.flush()
        owner = directory.owner(table_id)
        assert owner is not None
        if owner in found:
            spare.append(host)
        else:
            found[owner] = (host, table_id)
        if len(found) == 2:
            break
    for c in spare:
        await c.close()
    assert set(found) == {"node-0", "node-1"}
    for host, table_id in found.values():
        host.on_message = auto_player
        await host.open(table_id)
        await until("the welcome", lambda h=host: bool(h.of_type("welcome")))
        await host.send({"type": "sit", "seat": 0})
        await until("the seat", lambda h=host: any(
            m["type"] == "table" and m["table"]["seats"][0]["kind"] == "person"
            for m in h.log))
        await host.send({"type": "add_bots"})
        await host.send({"type": "ready"})
    return list(found.values())


async def hands_go_on(players: list[tuple[Client, int]], what: str, more: int = 1) -> None:
    """Every table finishes ``more`` hands from now, and nobody's socket closes."""
    before = [len(h.of_type("hand_result")) for h, _ in players]
    try:
        await until(f"hands at every table ({what})", lambda: all(
            len(h.of_type("hand_result")) >= n + more
            for (h, _), n in zip(players, before, strict=True)), 90.0)
    except AssertionError:
        raise AssertionError(f"{what}: {[[m['type'] for m in h.log[-8:]] for h, _ in players]}"
                             ) from None
    for host, _ in players:
        assert not host.closed and not host.of_type("error"), (what, host.log[-3:])


async def lobby_sizes(hall: Any, rounds: int) -> tuple[list[int], list[int]]:
    """(the lobby's size, the status) of ``rounds`` lobby requests on fresh connections."""
    sizes, statuses = [], []
    for _ in range(rounds):
        r = await fresh(hall, "GET", "/api/tables")
        statuses.append(r.status_code)
        sizes.append(len(r.json()["tables"]) if r.status_code == 200 else -1)
    return sizes, statuses


async def ping_times(players: list[tuple[Client, int]], seconds: float) -> list[float]:
    times = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for host, _ in players:
            began = time.perf_counter()
            await host.barrier()
            times.append(time.perf_counter() - began)
        await asyncio.sleep(0.02)
    return times


async def test_play_goes_on_while_redis_hangs_dies_and_comes_back_empty(
    tmp_path: Path, private_redis: PrivateRedis
) -> None:
    data = tmp_path / "hall"
    data.mkdir()
    port = free_port()
    hall = hall_at(port)
    proc = start_hall(data, port, private_redis.url)
    directory = RedisDirectory(private_redis.url, "test", PREFIX)
    players: list[tuple[Client, int]] = []
    try:
        players = await tables_on_both_nodes(hall, directory)
        private = await Client(hall).guest()
        full = len((await fresh(hall, "GET", "/api/tables")).json()["tables"])
        assert full >= 24 + 2
        sizes, statuses = await lobby_sizes(hall, 4)
        assert sizes == [full] * 4 and statuses == [200] * 4
        assert await both_ready(hall)
        r = await private.post("/api/tables", {"ruleset": "wenling", "private": True,
                                               "stakes": "points", "hands": 1})
        code = r.json()["table"]["room_code"]
        await hands_go_on(players, "before")

        # hung: nothing waits for it long, play goes on, the lobby answers what is known
        private_redis.pause()
        try:
            pinging = asyncio.create_task(ping_times(players, 4.0))
            sizes, statuses = await lobby_sizes(hall, 12)
            pings = await pinging
            assert statuses == [200] * 12 and min(sizes) >= 2, sizes
            # before: p95 4.4 s. Now the first call that finds Redis hung waits for its
            # timeouts (a flush and a command: 2 * REDIS_SECONDS at most), once per node,
            # and nothing waits after that
            assert len(pings) >= 10 and statistics.median(pings) < 0.1, pings
            assert max(pings) < 2 * REDIS_SECONDS + 0.3, sorted(pings)
            ready = {(await fresh(hall, "GET", "/healthz/ready")).status_code
                     for _ in range(8)}
            assert ready == {503}  # a proxy stops sending new players here
            assert (await fresh(hall, "GET", "/healthz/live")).status_code == 200
            await hands_go_on(players, "Redis hung")
        finally:
            private_redis.resume()
        for _ in range(60):
            if await both_ready(hall):
                break
            await asyncio.sleep(0.25)
        assert await both_ready(hall)

        # gone: the same; and then back with nothing in it
        private_redis.stop()
        await hands_go_on(players, "Redis gone")
        # a new socket reaches each table, whichever node takes it: handed to the owner it
        # knows, or told to try again (1013), never that the table does not exist
        for _, table_id in players:
            for _ in range(20):
                watcher = await Client(hall).guest()
                await watcher.open(table_id)
                await until("an answer", lambda w=watcher: bool(w.log) or w.closed)
                await watcher.close()
                assert not watcher.of_type("error") or watcher.of_type("error")[0][
                    "code"] == "try_again", watcher.log
                if watcher.of_type("welcome"):
                    break
            else:
                raise AssertionError(f"no new socket reached table {table_id}")
        sizes, statuses = await lobby_sizes(hall, 8)
        assert statuses == [200] * 8 and min(sizes) >= 2
        private_redis.start()
        for _ in range(60):
            if await both_ready(hall):
                break
            await asyncio.sleep(0.25)
        assert await both_ready(hall)
        sizes, statuses = await lobby_sizes(hall, 8)  # every node's tables, from either
        assert sizes == [full] * 8 and statuses == [200] * 8
        await hands_go_on(players, "Redis back empty")
        # what was in Redis is back: the room code from either node, each table's socket
        # reaching its owner
        for _ in range(4):
            r = await fresh(hall, "POST", "/api/rooms", private, {"code": code})
            assert r.status_code == 200, r.text
        for _, table_id in players:
            watcher = await Client(hall).guest()
            await watcher.open(table_id)
            await until("a new socket's welcome", lambda w=watcher: bool(w.of_type("welcome")))
            await watcher.close()
        await private.close()
    finally:
        for host, _ in players:
            await host.close()
        assert stop(proc) == 0
        directory.close()
    with Store(str(data / "hall.db")) as store:
        assert store.ledger.check().ok


async def seated_twice(hall: Any) -> tuple[Client, list[Client]]:
    """A host seated at two tables of its own (one socket each), which no request of its
    may close to make room."""
    host = await Client(hall).guest()
    sockets = []
    for _ in range(2):
        r = await host.post("/api/tables", {"ruleset": "jiaxing"})
        assert r.status_code == 201, r.text
        socket = Client(hall, me=host.me)
        socket.http.cookies = host.http.cookies
        await socket.open(r.json()["table"]["id"])
        await until("the welcome", lambda s=socket: bool(s.of_type("welcome")))
        await socket.send({"type": "sit", "seat": 0})
        await until("the seat", lambda s=socket: any(
            m["type"] == "table" and m["table"]["seats"][0]["kind"] == "person"
            for m in s.log))
        sockets.append(socket)
    return host, sockets


@contextlib.asynccontextmanager
async def on_each_node(hall: Any, per_node: int, client: Client | None = None
                       ) -> AsyncIterator[list[httpx.AsyncClient]]:
    """``per_node`` HTTP clients (``client``'s account) kept on a connection to each node
    (which node took a connection is its first answer's), alternating between the nodes:
    requests sent on them at once reach both nodes at once."""
    by_node: dict[str, list[httpx.AsyncClient]] = {"node-0": [], "node-1": []}
    spare: list[httpx.AsyncClient] = []
    try:
        for _ in range(40 * per_node):
            if all(len(v) >= per_node for v in by_node.values()):
                break
            http = httpx.AsyncClient(
                base_url=hall.base, timeout=20, limits=httpx.Limits(max_connections=1),
                cookies=client.http.cookies if client is not None else None,
                headers=client.headers() if client is not None else None)
            node = (await http.get("/healthz/ready")).json()["node"]
            (by_node[node] if len(by_node[node]) < per_node else spare).append(http)
        assert all(len(v) == per_node for v in by_node.values()), by_node
        yield [c for pair in zip(*by_node.values(), strict=True) for c in pair]
    finally:
        for http in [*spare, *(c for v in by_node.values() for c in v)]:
            await http.aclose()


async def test_requests_sent_at_once_to_both_nodes_are_taken_one_at_a_time(
    tmp_path: Path, private_redis: PrivateRedis
) -> None:
    """A host's table requests and the sign-ins of one name, sent at once to both nodes, are
    taken one at a time in the whole hall (a lock in Redis): counted per node, a host seated
    at two tables held four when two creates met, and 11 wrong passwords of a name were
    checked where 10 may be."""
    data = tmp_path / "hall"
    data.mkdir()
    port = free_port()
    hall = hall_at(port)
    proc = start_hall(data, port, private_redis.url)
    try:
        with Store(str(data / "hall.db")) as store:
            for _ in range(4):
                host, sockets = await seated_twice(hall)
                async with on_each_node(hall, 3, host) as https:
                    answers = await asyncio.gather(*(http.post(
                        "/api/tables", json={"ruleset": "jiaxing"}) for http in https))
                assert all(r.status_code == 201 or r.json()["code"] == "host_limit"
                           for r in answers), [r.text for r in answers]
                hosted = [t.id for t in store.tables.list()
                          if t.config.get("host") == host.me["id"]]
                assert len(hosted) == 3, hosted
                for socket in sockets:
                    await socket.close()
                await host.close()
            # a host's three tables nobody sits at, all at node-0, and a fourth asked of
            # node-1: node-0 closes the oldest to make room (only a node's own were closed)
            host = await Client(hall).guest()
            async with on_each_node(hall, 1, host) as (at0, at1):
                made = []
                for _ in range(3):
                    r = await at0.post("/api/tables", json={"ruleset": "jiaxing"})
                    assert r.status_code == 201, r.text
                    made.append(r.json()["table"]["id"])
                r = await at1.post("/api/tables", json={"ruleset": "jiaxing"})
                assert r.status_code == 201, r.text
            hosted = [t.id for t in store.tables.list() if t.config.get("host") == host.me["id"]]
            assert hosted == [*made[1:], r.json()["table"]["id"]]
            await host.close()
        owner = await Client(hall).guest()
        r = await owner.post("/api/register", {"name": "owner-of-it", "password": "right-one-1"})
        assert r.status_code in (200, 201), r.text
        async with on_each_node(hall, 15) as https:
            answers = await asyncio.gather(*(http.post("/api/login", json={
                "name": "owner-of-it", "password": f"wrong-{i}"})
                for i, http in enumerate(https)))
        codes = sorted(r.status_code for r in answers)
        assert codes == [401] * NAME_FAILURES + [429] * (30 - NAME_FAILURES), codes
        await owner.close()
    finally:
        assert stop(proc) == 0


async def test_a_node_dies_alone_and_the_nodes_die_with_their_supervisor(
    tmp_path: Path, private_redis: PrivateRedis
) -> None:
    data = tmp_path / "hall"
    data.mkdir()
    port = free_port()
    hall = hall_at(port)
    proc = start_hall(data, port, private_redis.url)
    directory = RedisDirectory(private_redis.url, "test", PREFIX)
    players: list[tuple[Client, int]] = []
    try:
        # the limits count at every node: 10 wrong room codes, then 429 at either node
        guesser = await Client(hall).guest()
        for i in range(ROOM_FAILURES):
            r = await fresh(hall, "POST", "/api/rooms", guesser, {"code": f"ZZZZ{i:02d}"})
            assert r.status_code == 404, r.text
        for _ in range(6):
            r = await fresh(hall, "POST", "/api/rooms", guesser, {"code": "ZZZZZZ"})
            assert r.status_code == 429, r.text
        # ... failed sign-ins too
        for _ in range(NAME_FAILURES):
            r = await fresh(hall, "POST", "/api/login", None, {"name": "nobody-here",
                                                               "password": "wrong"})
            assert r.status_code == 401, r.text
        for _ in range(6):
            r = await fresh(hall, "POST", "/api/login", None, {"name": "nobody-here",
                                                               "password": "wrong"})
            assert r.status_code == 429, r.text
        # ... and a host's tables at every node: never more than 3 open at once (a node may
        # close one of its own that nobody sits at to make room, or refuse: host_limit)
        host = await Client(hall).guest()
        made = []
        for _ in range(6):
            r = await fresh(hall, "POST", "/api/tables", host, {"ruleset": "jiaxing"})
            assert r.status_code == 201 or r.json()["code"] == "host_limit", r.text
            made.append(r.status_code)
            hosted = [t for t in (await fresh(hall, "GET", "/api/tables")).json()["tables"]
                      if t["host"] == host.me["id"]]
            assert len(hosted) <= 3, hosted
        assert made[:3] == [201] * 3
        await guesser.close()
        await host.close()

        players = await tables_on_both_nodes(hall, directory)
        full = len((await fresh(hall, "GET", "/api/tables")).json()["tables"])
        await hands_go_on(players, "before")
        nodes = node_processes(proc)
        assert len(nodes) == 2
        victim = next(p for p in nodes if "--node-index\x001\x00" in
                      Path(f"/proc/{p}/cmdline").read_text())
        os.kill(victim, signal.SIGKILL)
        survivor = next(h for h, t in players if directory.owner(t) == "node-0")
        await hands_go_on([(survivor, 0)], "node-1 dead")
        assert proc.poll() is None  # the supervisor keeps the hall
        await until("node-1 started again", lambda: len(node_processes(proc)) == 2
                    and victim not in node_processes(proc), 60.0)
        for _ in range(120):
            if await both_ready(hall):
                break
            await asyncio.sleep(0.25)
        assert await both_ready(hall)
        assert not survivor.closed  # the other node's players never noticed
        # node-1's table is back: its match resumes, a new socket reaches it
        moved = next((h, t) for h, t in players if h is not survivor)
        await moved[0].close()
        again = await Client(hall).guest()
        # as the page does, a socket turned away while the table is still being resumed
        # (4404 or 1013: it is away for a moment) is opened again
        deadline = time.monotonic() + 30.0
        while True:
            await again.open(moved[1])
            await until("an answer", lambda: again.closed or bool(again.of_type("welcome")))
            if again.of_type("welcome"):
                break
            assert time.monotonic() < deadline, f"node-1's table never answered: {again.log}"
            await asyncio.sleep(0.5)
        await again.close()
        sizes, statuses = await lobby_sizes(hall, 6)
        assert statuses == [200] * 6 and sizes == [full] * 6

        # the supervisor killed: its nodes exit; a new hall starts on the same port
        nodes = node_processes(proc)
        proc.kill()
        proc.wait()
        began = time.monotonic()
        proc = start_hall(data, port, private_redis.url)
        started = time.monotonic() - began
        for pid in nodes:
            assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(
                f"/proc/{pid}/status").read_text()
        assert len(node_processes(proc)) == 2
        sizes, statuses = await lobby_sizes(hall, 4)
        assert statuses == [200] * 4 and sizes == [full] * 4
        assert started < 90
    finally:
        for h, _ in players:
            await h.close()
        assert stop(proc) == 0
        directory.close()
    with Store(str(data / "hall.db")) as store:
        assert store.ledger.check().ok
