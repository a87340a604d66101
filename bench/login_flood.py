"""Does a login flood slow play? A fresh ``baida serve`` (real argon2 parameters), one table
socket pinging the hall, first quietly, then while clients in another process sign in with a
valid password as fast as the hall answers them. Prints the ping's p50/p99 both ways (and
``GET /api/session``'s, a lobby request), the ratio, and the sign-ins a second.

    .venv/bin/python -m bench.login_flood --clients 24 --pings 500
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

NAME, PASSWORD = "floodtest", "a valid password 1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_hall(port: int, data: Path, password_workers: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "baida.cli", "serve", "--port", str(port), "--data", str(data),
           "--bot-workers", "0", "--no-warm-up", "--log-level", "warning",
           "--client-rate", "1000", "--client-burst", "1000",
           "--password-workers", str(password_workers),
           # the flood is of valid sign-ins from one address: the per-address limit would
           # refuse it before hashing; what is measured is the hashing kept off the loop
           "--signins-per-address", "0", "--guests-per-hour", "0"]
    log = (data / "hall.log").open("wb")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None or "baida hall:" in (data / "hall.log").read_text():
            break
        time.sleep(0.05)
    if proc.poll() is not None:
        raise RuntimeError((data / "hall.log").read_text()[-2000:])
    return proc


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _sign_in_loop(base: str, stop: Any, count: Any) -> None:
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while not stop.is_set():
            r = await http.post("/api/login", json={"name": NAME, "password": PASSWORD})
            http.cookies.clear()
            if r.status_code == 200:
                with count.get_lock():
                    count.value += 1
            else:
                await asyncio.sleep(0.05)


def flood(base: str, clients: int, stop: Any, count: Any) -> None:
    """``clients`` sign-in loops (one process, asyncio) until ``stop`` is set."""

    async def run() -> None:
        await asyncio.gather(*(_sign_in_loop(base, stop, count) for _ in range(clients)))

    asyncio.run(run())


async def _measure(ws: Any, http: Any, pings: int, gap: float) -> dict[str, list[float]]:
    """Round trips (ms) of ``pings`` table-socket pings, and of a lobby request every tenth."""
    rtt: list[float] = []
    lobby: list[float] = []
    for i in range(pings):
        began = time.perf_counter()
        await ws.send(json.dumps({"type": "ping", "id": f"p{i}"}))
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") == "pong" and message.get("id") == f"p{i}":
                break
        rtt.append((time.perf_counter() - began) * 1000)
        if i % 10 == 0:
            began = time.perf_counter()
            await http.get("/api/session")
            lobby.append((time.perf_counter() - began) * 1000)
        await asyncio.sleep(gap)
    return {"ping": rtt, "lobby": lobby}


async def bench(base: str, clients: int, pings: int, gap: float) -> dict[str, Any]:
    import httpx
    from websockets.asyncio.client import connect

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        r = await http.post("/api/register", json={"name": NAME, "password": PASSWORD})
        assert r.status_code == 201, r.text
        http.cookies.clear()
        assert (await http.post("/api/guest")).status_code == 201
        table = (await http.get("/api/tables")).json()["tables"][0]["id"]
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        ws_base = base.replace("http://", "ws://")
        async with connect(f"{ws_base}/ws/tables/{table}",
                           additional_headers={"Cookie": cookie}) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1}))
            await ws.recv()
            await _measure(ws, http, 20, gap)  # warm
            quiet = await _measure(ws, http, pings, gap)
            context = multiprocessing.get_context("spawn")
            stop = context.Event()
            count = context.Value("l", 0)
            proc = context.Process(
                target=flood, args=(base, clients, stop, count))
            proc.start()
            try:
                while count.value < 1:  # the flood has reached the hall
                    await asyncio.sleep(0.05)
                began, before = time.perf_counter(), count.value
                flooded = await _measure(ws, http, pings, gap)
                logins = (count.value - before) / (time.perf_counter() - began)
            finally:
                stop.set()
                proc.join(60)
                if proc.is_alive():
                    proc.kill()
    out: dict[str, Any] = {"clients": clients, "pings": pings, "logins_per_s": round(logins, 1)}
    for label, data in (("quiet", quiet), ("flood", flooded)):
        for kind, values in data.items():
            out[f"{label}_{kind}_p50_ms"] = round(statistics.median(values), 2)
            out[f"{label}_{kind}_p99_ms"] = round(percentile(values, 0.99), 2)
    out["ping_p99_ratio"] = round(out["flood_ping_p99_ms"] / out["quiet_ping_p99_ms"], 2)
    return out


def run(clients: int = 24, pings: int = 500, gap: float = 0.01, password_workers: int = 1
        ) -> dict[str, Any]:
    """Start a hall, measure, stop it; the figures."""
    with tempfile.TemporaryDirectory(prefix="baida-flood-") as tmp:
        port = free_port()
        hall = start_hall(port, Path(tmp), password_workers)
        try:
            return asyncio.run(bench(f"http://127.0.0.1:{port}", clients, pings, gap))
        finally:
            hall.terminate()
            try:
                hall.wait(30)
            except subprocess.TimeoutExpired:
                hall.kill()
                hall.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.login_flood", description=__doc__)
    parser.add_argument("--clients", type=int, default=24, help="sign-in loops (default 24)")
    parser.add_argument("--pings", type=int, default=500, help="pings per phase (default 500)")
    parser.add_argument("--gap", type=float, default=0.01, help="seconds between pings")
    parser.add_argument("--password-workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    out = run(args.clients, args.pings, args.gap, args.password_workers)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{args.clients} clients signing in: {out['logins_per_s']} sign-ins/s")
    print("                      quiet p50 / p99 ms    flood p50 / p99 ms")
    for kind, label in (("ping", "table socket ping"), ("lobby", "GET /api/session")):
        print(f"{label:22}{out[f'quiet_{kind}_p50_ms']:>8} / {out[f'quiet_{kind}_p99_ms']:<10}"
              f"{out[f'flood_{kind}_p50_ms']:>10} / {out[f'flood_{kind}_p99_ms']}")
    print(f"ping p99 flood / quiet: {out['ping_p99_ratio']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
