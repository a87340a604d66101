"""What one stranger's fastest tables cost the hall.

A guest makes as many tables as the hall lets one account host (3), each with the fastest
timing the hall accepts from a player: every pause and claim window 0, and the bots, the own
turn and the 三摊 question at the hall's ``--min-bot-time`` (so 托管 plays the seat from its
first turn on). It sits at
each with three bots and keeps the sockets open (so the floor of a table nobody is at does not
apply), and starts a new match whenever one ends. For each floor a fresh ``baida serve``
(SQLite, one bot worker) is measured for ``--seconds`` after ``--warmup``: the hands played a
second and the CPU of the hall's whole process tree (its loop, its action log, its bot worker)
as a share of one core. A floor of 0 is the hall as it was before the floor: bots at once.

    python -m bench.stranger_tables                       # floors 0 and 0.5, 60 s each
    python -m bench.stranger_tables --floors 0 0.3 0.5 1 --seconds 120
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from .hall_load import cpu_seconds, free_port, start_hall

HOST_LIMIT = 3  # tables one account may host (``MAX_TABLES_PER_HOST``)


def fastest(floor: float) -> dict[str, Any]:
    """The fastest timing a hall with this floor takes from a player."""
    return {"pause": 0, "claim": 0, "turn": floor, "bank": 0, "santan": floor,
            "bot_turn": floor, "bot_claim": 0, "between_hands": 0}


class Seat:
    """The stranger at one table: seated, 托管 playing, the socket open."""

    def __init__(self, base: str, cookie: str, table: int) -> None:
        self.url = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
        self.cookie = cookie
        self.hands = 0

    async def run(self) -> None:
        async with connect(self.url, additional_headers={"Cookie": self.cookie},
                           max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1}))
            async for raw in ws:
                m = json.loads(raw)
                kind = m.get("type")
                if kind == "welcome":
                    await ws.send(json.dumps({"type": "sit", "seat": 0}))
                elif kind == "table":
                    seats = m["table"]["seats"]
                    if seats[0]["kind"] != "person":
                        continue
                    if any(s["kind"] == "empty" for s in seats):
                        await ws.send(json.dumps({"type": "add_bots"}))
                    elif not seats[0]["ready"] and m["table"].get("status") != "playing":
                        await ws.send(json.dumps({"type": "ready"}))
                elif kind == "hand_result":
                    self.hands += 1


async def measure(floor: float, args: argparse.Namespace) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="baida-stranger-"))
    port = free_port()
    proc = start_hall(port, data, extra=("--bot-workers", "1", "--min-bot-time", str(floor)))
    base = f"http://127.0.0.1:{port}"
    tasks: list[asyncio.Task[None]] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            me = (await http.post("/api/guest")).json()["me"]
            cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
            seats = []
            for _ in range(HOST_LIMIT):
                r = await http.post("/api/tables", headers={"X-CSRF-Token": me["csrf"]}, json={
                    "ruleset": args.ruleset, "hands": 64, "timing": fastest(floor)})
                if r.status_code != 201:
                    raise RuntimeError(f"the hall refused the table: {r.text}")
                seats.append(Seat(base, cookie, r.json()["table"]["id"]))
        tasks = [asyncio.create_task(s.run()) for s in seats]
        await asyncio.sleep(args.warmup)
        hands0, cpu0, t0 = sum(s.hands for s in seats), cpu_seconds(proc.pid), time.monotonic()
        await asyncio.sleep(args.seconds)
        hands1, cpu1, t1 = sum(s.hands for s in seats), cpu_seconds(proc.pid), time.monotonic()
        for t in tasks:
            if t.done() and t.exception() is not None:
                raise RuntimeError(f"a table's socket failed: {t.exception()!r}")
        return {"floor": floor, "tables": len(seats), "seconds": round(t1 - t0, 1),
                "hands_per_s": round((hands1 - hands0) / (t1 - t0), 3),
                "cpu_share": round((cpu1 - cpu0) / (t1 - t0), 3)}
    finally:
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        proc.terminate()
        with contextlib.suppress(Exception):
            proc.wait(timeout=30)
        shutil.rmtree(data, ignore_errors=True)


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    out = []
    for floor in args.floors:
        row = await measure(floor, args)
        out.append(row)
        print(f"--min-bot-time {floor:g}: {row['tables']} tables, {row['hands_per_s']:.3f} hands/s,"
              f" hall CPU {100 * row['cpu_share']:.1f}% of a core over {row['seconds']:g} s",
              flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floors", type=float, nargs="+", default=[0.0, 0.5],
                        help="the hall's --min-bot-time of each run (0: bots at once)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--ruleset", default="jiaxing")
    parser.add_argument("--json", type=Path, help="append the results here, one per line")
    args = parser.parse_args()
    rows = asyncio.run(run(args))
    if args.json:
        with args.json.open("a") as f:
            for row in rows:
                f.write(json.dumps({"bench": "stranger_tables", **row}) + "\n")


if __name__ == "__main__":
    main()
