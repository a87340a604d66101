"""A real hall for tests: uvicorn serving the app on a loopback port inside the test's event
loop, a manual clock, and scripted clients speaking the real protocol over real sockets."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from baida.server.tables.clock import ManualClock
from baida.server.tables.standing import StandingTables
from baida.server.web.app import create_app, server_config
from baida.server.web.runtime import Runtime
from baida.server.web.settings import HallSettings

INSTANT = {
    "pause": 0.0, "claim": None, "turn": None, "santan": None, "bot_turn": 0.0,
    "bot_claim": 0.0, "between_hands": None,
}


def postgres_url() -> str | None:
    return os.environ.get("BAIDA_TEST_POSTGRES_URL") or None


@dataclass
class Hall:
    """A running hall: its base URL, its runtime (server side), its clock."""

    base: str
    runtime: Runtime
    clock: ManualClock
    server: uvicorn.Server

    @property
    def ws_base(self) -> str:
        return self.base.replace("http://", "ws://")

    def actors(self) -> list[Any]:
        assert self.runtime.hall is not None
        return list(self.runtime.hall.tables.values())

    async def quiet(self, clients: list[Client] = (), limit: float = 20.0) -> None:
        """Wait until no table has work queued and every client has read what was sent to
        it (a ping answered after everything else), twice in a row with nothing new. A table
        may be waiting for the database process (another process: real time, however loaded
        the machine), so this gives up only after ``limit`` seconds of real time."""
        stable = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        spins = 0
        while loop.time() < deadline:
            spins += 1
            # turns of the loop first; then, while still busy, let other processes run
            await asyncio.sleep(0 if spins < 200 else 0.002)
            busy = any(not a.idle() for a in self.actors())
            before = sum(len(c.log) for c in clients)
            for c in clients:
                if c.ws is not None and not c.closed:
                    await c.barrier()
            busy = busy or any(not a.idle() for a in self.actors())
            busy = busy or self.runtime.hall.jobs_running
            after = sum(len(c.log) for c in clients)
            stable = stable + 1 if not busy and before == after else 0
            if stable >= 2:
                return
        raise AssertionError("the hall did not become quiet")

    async def advance(self, seconds: float, clients: list[Client] = ()) -> None:
        """Move the clock in steps, letting the tables work at every timer."""
        target = self.clock.now() + seconds
        await self.quiet(clients)
        while True:
            nxt = self.clock.next_timer()
            if nxt is None or nxt > target:
                break
            self.clock.advance(max(0.0, nxt - self.clock.now()))
            await self.quiet(clients)
        self.clock.advance(max(0.0, target - self.clock.now()))
        await self.quiet(clients)


@contextlib.asynccontextmanager
async def running_hall(
    tmp: Path,
    *,
    standing: tuple[StandingTables, ...] = (),
    database: str | None = None,
    starting_balance: int = 1000,
    client_rate: float = 10_000.0,
    guests_per_hour: int = 0,  # the tests make many guests from 127.0.0.1: no limit
    signins_per_address: int = 0,
    min_bot_time: float = 0.0,  # the tests' tables answer at once (test_server_pace: the floor)
    **more: Any,
) -> AsyncIterator[Hall]:
    """A hall on a free loopback port; ``more`` are further ``HallSettings``."""
    clock = ManualClock()
    settings = HallSettings(
        host="127.0.0.1", port=0, data_dir=tmp, database=database, bot_workers=0,
        warm_up=False, argon2_fast=True, standing=standing, starting_balance=starting_balance,
        client_rate=client_rate, client_burst=client_rate, guests_per_hour=guests_per_hour,
        signins_per_address=signins_per_address, min_bot_time=min_bot_time, **more,
    )
    app = create_app(settings, clock)
    config = server_config(app, "127.0.0.1", 0, log_config=None, lifespan="on",
                           ws_ping_interval=None)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)  # waiting for the socket to be bound, not for time to pass
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield Hall(f"http://127.0.0.1:{port}", app.state.runtime, clock, server)
    finally:
        server.should_exit = True
        await task


_ids = itertools.count(1)


@dataclass
class Client:
    """A scripted player: HTTP for the lobby, one WebSocket at a table, every message kept."""

    hall: Hall
    http: httpx.AsyncClient = field(init=False)
    me: dict[str, Any] = field(default_factory=dict)
    ws: ClientConnection | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    closed: bool = False
    reader: asyncio.Task[None] | None = None
    on_message: Callable[[Client, dict[str, Any]], Any] | None = None
    _pongs: dict[str, asyncio.Future[None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.http = httpx.AsyncClient(base_url=self.hall.base)

    async def guest(self) -> Client:
        r = await self.http.post("/api/guest")
        assert r.status_code == 201, r.text
        self.me = r.json()["me"]
        return self

    def headers(self) -> dict[str, str]:
        return {"X-CSRF-Token": self.me.get("csrf", "")}

    async def post(self, path: str, payload: Any = None) -> httpx.Response:
        return await self.http.post(path, json=payload or {}, headers=self.headers())

    async def open(self, table_id: int, hello: bool = True) -> Client:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        self.ws = await connect(f"{self.hall.ws_base}/ws/tables/{table_id}",
                                additional_headers={"Cookie": cookie}, max_size=2**22)
        self.closed = False
        self.reader = asyncio.create_task(self._read())
        if hello:
            try:
                await self.send({"type": "hello", "protocol": 1})
            except ConnectionClosed:  # turned away before the hello: the reason is in the log
                pass
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                if message.get("type") == "pong" and message.get("id") in self._pongs:
                    self._pongs.pop(message["id"]).set_result(None)
                    continue
                self.log.append(message)
                if self.on_message is not None:
                    result = self.on_message(self, message)
                    if asyncio.iscoroutine(result):
                        await result
        except Exception:
            pass
        finally:
            self.closed = True
            for fut in self._pongs.values():
                if not fut.done():
                    fut.set_result(None)

    async def send(self, message: Any) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def barrier(self) -> None:
        """Everything the table sent before it handled a ping has arrived."""
        if self.ws is None or self.closed:
            return
        key = f"b{next(_ids)}"
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pongs[key] = fut
        try:
            await self.send({"type": "ping", "id": key})
        except Exception:
            return
        await asyncio.wait_for(fut, 30)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.log if m.get("type") == kind]

    def last(self, kind: str) -> dict[str, Any]:
        found = self.of_type(kind)
        assert found, f"no {kind} message in {[m.get('type') for m in self.log][-20:]}"
        return found[-1]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            if self.reader is not None:
                await asyncio.gather(self.reader, return_exceptions=True)
        await self.http.aclose()
