"""``python -m bench.hall_faults``: a hall of two nodes (``baida serve --nodes 2``) whose parts
fail, measured from outside: the round trip of pings at tables (spectators' sockets at every
standing table) before and while its Redis hangs (SIGSTOP) and is gone, how long after Redis
comes back empty the lobby is whole and both nodes ready, how long a killed node takes to be
back, and how long a new hall takes to start after its supervisor was killed. Redis is a
redis-server of the benchmark's own, on a free port."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--save", "",
                                      "--appendonly", "no", "--dir", str(self.folder)],
                                     stdout=subprocess.DEVNULL)
        time.sleep(0.3)

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        assert self.proc is not None
        self.signal(signal.SIGCONT)
        self.proc.kill()
        self.proc.wait()


def start_hall(data: Path, port: int, redis_port: int) -> tuple[subprocess.Popen[bytes], float]:
    log = data / f"hall-{len(list(data.glob('hall-*.log')))}.log"
    began = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "baida.cli", "serve", "--nodes", "2", "--port", str(port),
         "--data", str(data), "--bot-workers", "0", "--no-warm-up", "--log-level", "warning",
         "--redis", f"redis://127.0.0.1:{redis_port}/0", "--client-rate", "1000",
         "--client-burst", "1000",  # every client on this one address, with one account:
         "--max-connections-per-address", "100000", "--max-sockets-per-address", "100000",
         "--max-sockets-per-account", "100000", "--guests-per-hour", "0",
         "--signins-per-address", "0"], stdout=log.open("wb"), stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    while "baida hall:" not in log.read_text(errors="replace"):
        if proc.poll() is not None or time.monotonic() - began > 180:
            raise SystemExit(f"the hall did not start: {log.read_text()[-2000:]}")
        time.sleep(0.05)
    return proc, time.monotonic() - began


async def fresh(base: str, path: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        return await http.get(path, headers={"Connection": "close"})


async def ready_and_lobby(base: str, lobby: int) -> bool:
    nodes: dict[str, int] = {}
    for _ in range(30):
        r = await fresh(base, "/healthz/ready")
        nodes[r.json()["node"]] = r.status_code
        if len(nodes) == 2:
            break
    if nodes != {"node-0": 200, "node-1": 200}:
        return False
    sizes = [len((await fresh(base, "/api/tables")).json()["tables"]) for _ in range(4)]
    return sizes == [lobby] * 4


async def wait_back(base: str, lobby: int, began: float, limit: float = 120.0) -> float:
    while not await ready_and_lobby(base, lobby):
        if time.monotonic() - began > limit:
            raise SystemExit("the hall did not come back")
        await asyncio.sleep(0.1)
    return time.monotonic() - began


class Pinger:
    """Spectators at every standing table, pinging each socket five times a second."""

    def __init__(self, ws_base: str, cookie: str, tables: list[int]) -> None:
        self.ws_base, self.cookie, self.tables = ws_base, cookie, tables
        self.samples: list[tuple[float, float]] = []  # (sent at, round trip)
        self.lost = 0
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        for t in self.tables:
            ws = await connect(f"{self.ws_base}/ws/tables/{t}",
                               additional_headers={"Cookie": self.cookie}, max_size=2**22)
            await ws.send(json.dumps({"type": "hello", "protocol": 1}))
            self._tasks.append(asyncio.create_task(self._run(ws)))

    async def _run(self, ws: ClientConnection) -> None:
        n = 0
        pending: dict[str, float] = {}

        async def read() -> None:
            async for raw in ws:
                m = json.loads(raw)
                if m.get("type") == "pong" and m.get("id") in pending:
                    sent = pending.pop(m["id"])
                    self.samples.append((sent, time.monotonic() - sent))

        reader = asyncio.create_task(read())
        try:
            while True:
                n += 1
                pending[f"p{n}"] = time.monotonic()
                await ws.send(json.dumps({"type": "ping", "id": f"p{n}"}))
                await asyncio.sleep(0.2)
        except Exception:
            self.lost += 1
        finally:
            reader.cancel()

    def between(self, t0: float, t1: float) -> list[float]:
        return [rtt for sent, rtt in self.samples if t0 <= sent < t1]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def summary(rtts: list[float]) -> dict[str, Any]:
    if len(rtts) < 20:
        return {"n": len(rtts)}
    q = statistics.quantiles(rtts, n=100)
    return {"n": len(rtts), "p50_ms": round(q[49] * 1000, 1), "p95_ms": round(q[94] * 1000, 1),
            "p99_ms": round(q[98] * 1000, 1), "max_ms": round(max(rtts) * 1000, 1)}


def node_pids(proc: subprocess.Popen[bytes]) -> dict[int, int]:
    """node index -> pid of the supervisor's node processes."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            args = Path(f"/proc/{entry}/cmdline").read_text().split("\0")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == proc.pid and "--node-index" in args:
            found[int(args[args.index("--node-index") + 1])] = int(entry)
    return found


async def run(phase_seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="baida-faults-") as tmp:
        data = Path(tmp) / "hall"
        data.mkdir()
        redis = Redis(Path(tmp))
        redis.start()
        port = free_port()
        base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        proc, out["first_start_s"] = start_hall(data, port, redis.port)
        try:
            async with httpx.AsyncClient(base_url=base) as http:
                r = await http.post("/api/guest")
                cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
            assert r.status_code == 201
            lobby = (await fresh(base, "/api/tables")).json()["tables"]
            pinger = Pinger(ws_base, cookie, [t["id"] for t in lobby])
            await pinger.start()
            five = 0

            async def lobby_traffic(seconds: float) -> None:
                nonlocal five
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    r = await fresh(base, "/api/tables")
                    five += r.status_code >= 500
                    await asyncio.sleep(0.1)

            t0 = time.monotonic()
            await lobby_traffic(phase_seconds)
            t1 = time.monotonic()
            redis.signal(signal.SIGSTOP)
            await lobby_traffic(phase_seconds)
            t2 = time.monotonic()
            redis.kill()
            await lobby_traffic(phase_seconds)
            t3 = time.monotonic()
            redis.start()
            out["redis_back_empty_to_whole_s"] = round(
                await wait_back(base, len(lobby), time.monotonic()), 2)
            out["pings_ms"] = {"before": summary(pinger.between(t0, t1)),
                               "redis_hung": summary(pinger.between(t1, t2)),
                               "redis_gone": summary(pinger.between(t2, t3))}
            out["lobby_5xx"] = five
            out["sockets_lost_to_redis"] = pinger.lost
            await pinger.stop()

            pids = node_pids(proc)
            os.kill(pids[1], signal.SIGKILL)
            began = time.monotonic()
            out["node_killed_to_back_s"] = round(await wait_back(base, len(lobby), began), 2)
            out["supervisor_alive"] = proc.poll() is None

            proc.kill()
            proc.wait()
            proc, out["supervisor_killed_to_new_hall_s"] = start_hall(data, port, redis.port)
            out["after_supervisor_kill_whole"] = await ready_and_lobby(base, len(lobby))
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
            redis.kill()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--phase", type=float, default=10.0, help="seconds of each Redis phase")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.phase)), indent=1))


if __name__ == "__main__":
    main()
