"""The hall's bounds against a real ``baida serve`` process: a 300 MB body streamed at it
leaves its memory where it was, 500 connections sending their headers a byte at a time
leave ``/healthz`` answering (and are cut off at the request deadline), and a hall killed
with ``kill -9`` leaves none of its children (bot worker, database process,
multiprocessing's resource tracker), nor a killed supervisor of ``--nodes`` its nodes."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest
from bounds_support import declared_body, stream_body
from test_server_kill import free_port, start
from test_server_nodes import REDIS

from baida.server.directory.in_redis import DirectoryUnavailable, RedisDirectory

pytestmark = pytest.mark.anyio
MB = 1024 * 1024


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def rss(pid: int) -> int:
    """The resident memory of process ``pid``, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


def children(pid: int) -> set[int]:
    """Every living descendant of ``pid``."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def test_a_300_mb_body_leaves_the_halls_memory_where_it_was(tmp_path: Path) -> None:
    port = free_port()
    hall = start(tmp_path, port)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            for _ in range(3):  # the paths a request takes, warmed
                await http.post("/api/register", json={"name": "x", "password": "y"})
            before = rss(hall.pid)
            # declared: refused before a byte of it is read
            assert await declared_body("127.0.0.1", port, "/api/register", 300 * MB) == 413
            # streamed (chunked): refused once past the limit, one and four at once
            status, _ = await stream_body("127.0.0.1", port, "/api/register", 300 * MB)
            assert status == 413
            results = await asyncio.gather(*(
                stream_body("127.0.0.1", port, path, 300 * MB)
                for path in ("/api/register", "/api/login", "/api/verify", "/api/waits")))
            assert [status for status, _ in results] == [413] * 4
            after = rss(hall.pid)
            assert after - before < 20 * MB, (before, after)
            assert (await http.get("/healthz")).status_code == 200
    finally:
        hall.kill()
        hall.wait()


async def _slow_client(port: int, source: str, gap: float, until: float) -> str:
    """Send a request's first line a byte every ``gap`` seconds from ``source``; what the hall
    did: "refused" (429), "timed out" (408), "closed", or "open" at ``until``."""
    loop = asyncio.get_running_loop()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                       local_addr=(source, 0))
    except OSError:
        return "refused"
    line = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    try:
        for byte in line:
            writer.write(bytes([byte]))
            with contextlib.suppress(ConnectionError):
                await writer.drain()
            try:
                answer = await asyncio.wait_for(reader.read(200), min(gap, until - loop.time()))
            except TimeoutError:
                if loop.time() >= until:
                    return "open"
                continue
            if b" 429 " in answer:
                return "refused"
            if b" 408 " in answer:
                return "timed out"
            return "closed"
        return "open"
    except ConnectionError:
        return "closed"
    finally:
        writer.close()


async def test_slow_headers_do_not_hold_the_hall(tmp_path: Path) -> None:
    port = free_port()
    hall = start(tmp_path, port, "--request-timeout", "3")
    try:
        loop = asyncio.get_running_loop()
        until = loop.time() + 9
        # 500 slow clients: 300 from one address (most over its 64), 200 from four more
        sources = ["127.0.0.2"] * 300 + [f"127.0.0.{3 + i % 4}" for i in range(200)]
        attack = [asyncio.create_task(_slow_client(port, source, 2.0, until))
                  for source in sources]
        answered = []
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=3) as http:
            while loop.time() < until - 0.5:
                began = loop.time()
                r = await http.get("/healthz")
                answered.append((r.status_code, loop.time() - began))
                await asyncio.sleep(0.3)
        outcomes = await asyncio.gather(*attack)
        assert all(status == 200 and seconds < 2.0 for status, seconds in answered), answered
        assert len(answered) >= 10
        counts = {kind: outcomes.count(kind) for kind in set(outcomes)}
        # nobody keeps a connection past the deadline; one address gets at most its share
        assert counts.get("open", 0) == 0, counts
        assert outcomes[:300].count("refused") >= 300 - 64, counts
        assert counts.get("timed out", 0) >= 200, counts
    finally:
        hall.kill()
        hall.wait()


async def _killed_leaves_nothing(hall: Any, wanted: Callable[[dict[int, bytes]], bool]) -> None:
    """Wait until ``wanted`` holds of the hall's descendants (pid -> command line), kill -9 the
    hall, and check that every one of them ends within 15 s."""
    names: dict[int, bytes] = {}
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            names = {}
            for pid in children(hall.pid):
                with contextlib.suppress(OSError):
                    names[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            if wanted(names):
                break
            await asyncio.sleep(0.1)
        assert wanted(names), names
    finally:
        os.kill(hall.pid, signal.SIGKILL)
        hall.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(alive(pid) for pid in names):
        await asyncio.sleep(0.1)
    left = {pid: names[pid] for pid in names if alive(pid)}
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"still running after the hall was killed: {left}"


async def test_a_killed_hall_leaves_no_process_behind(tmp_path: Path) -> None:
    hall = start(tmp_path, free_port(), "--bot-workers", "2")

    def all_there(names: dict[int, bytes]) -> bool:
        return (any(b"resource_tracker" in n for n in names.values())
                and any(b"db_process_worker" in n for n in names.values())
                and sum(b"spawn_main" in n for n in names.values()) == 2)

    await _killed_leaves_nothing(hall, all_there)


async def test_a_killed_supervisor_leaves_no_node_behind(tmp_path: Path) -> None:
    try:
        RedisDirectory(REDIS, "probe", f"baida-test-{uuid4().hex}").close()
    except DirectoryUnavailable as exc:
        pytest.skip(f"no Redis for a hall of nodes: {exc}")
    hall = start(tmp_path, free_port(), "--nodes", "2", "--bot-workers", "1", "--redis", REDIS,
                 "--redis-prefix", f"baida-test-{uuid4().hex}", within=120)

    def all_there(names: dict[int, bytes]) -> bool:
        return (sum(b"--node-index" in n for n in names.values()) == 2
                and sum(b"spawn_main" in n for n in names.values()) == 2)

    await _killed_leaves_nothing(hall, all_there)
