"""Chaos on a hall of three machines: one node killed (-9) every ``--every`` seconds.

Three hosts (``bench/machines.py``: network namespaces, PostgreSQL, a Redis, HAProxy in
front), ``--tables`` 银子 tables each with one person (a client through the proxy, answering
every prompt after ``--pace`` seconds, reconnecting 0.3 s after a drop as the page does) and
three bots, playing long matches. After ``--warmup`` seconds the nodes are killed in turn,
each started again at once (a machine that reboots), for ``--duration`` seconds. Reported:

* **hands lost**: hands voided (none should be: a killed node's hands go on elsewhere);
* **银子 discrepancies**: ledger check failures, plus hands that ended without charging their
  person's fee exactly once;
* **added latency**: each person pings its table every second; the p50/p99 round trip
  before the chaos and during it (while connected), and the p99's increase;
* **time away**: from a person's connection dropping to its welcome from the table's new
  owner (median, p95, max), and how many drops there were.

    sudo .venv/bin/python -m bench.chaos --duration 600 --every 30      # the full run
    sudo .venv/bin/python -m bench.chaos --duration 90 --every 30       # a short one
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from .machines import Machines, machines_problem

TIMING = {"pause": 0.3, "claim": 8.0, "turn": 15.0, "bank": 0.0, "santan": 8.0,
          "bot_turn": 0.3, "bot_claim": 0.2, "between_hands": 2.0}


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Player:
    """One person at one table, through the proxy."""

    def __init__(self, base: str, pace: float) -> None:
        self.base = base
        self.pace = pace
        self.http = httpx.AsyncClient(base_url=base, timeout=10.0)
        self.me: dict[str, Any] = {}
        self.table = 0
        self.rtts: list[tuple[float, float]] = []  # (when, seconds)
        self.away: list[float] = []
        self.results = 0
        self._pings: dict[str, float] = {}
        self._ids = itertools.count()
        self.stopping = False

    async def sit_down(self) -> None:
        r = await self.http.post("/api/guest")
        self.me = r.json()["me"]
        r = await self.http.post("/api/tables", headers={"X-CSRF-Token": self.me["csrf"]},
                                 json={"ruleset": "jiaxing", "timing": TIMING, "hands": 64,
                                       "stakes": "silver", "base": 1, "fee": 1,
                                       "bot": "greedy"})
        if r.status_code != 201:
            raise RuntimeError(f"the hall refused the table: {r.text}")
        self.table = r.json()["table"]["id"]

    async def play(self) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        url = self.base.replace("http", "ws", 1) + f"/ws/tables/{self.table}"
        first = True
        self._dropped_at: float | None = None
        while not self.stopping:
            try:
                async with connect(url, additional_headers={"Cookie": cookie}) as ws:
                    await ws.send(json.dumps({"type": "hello", "protocol": 1}))
                    await self._session(ws, first)
                    first = False
            except Exception:
                pass
            if self.stopping:
                return
            if self._dropped_at is None:
                self._dropped_at = time.monotonic()
            await asyncio.sleep(0.3)

    async def _session(self, ws: Any, first: bool) -> None:
        pinger = None
        try:
            async for raw in ws:
                m = json.loads(raw)
                kind = m.get("type")
                if kind == "welcome":
                    if self._dropped_at is not None:  # back at the table after a drop
                        self.away.append(time.monotonic() - self._dropped_at)
                        self._dropped_at = None
                    if first:
                        await ws.send(json.dumps({"type": "sit", "seat": 0}))
                    pinger = asyncio.create_task(self._ping(ws))
                elif kind == "table":
                    await self._seat(ws, m["table"])
                elif kind == "pong" and m.get("id") in self._pings:
                    self.rtts.append((time.monotonic(),
                                      time.monotonic() - self._pings.pop(m["id"])))
                elif kind == "prompt":
                    asyncio.get_running_loop().call_later(
                        self.pace, lambda m=m: asyncio.ensure_future(self._act(ws, m)))
                elif kind == "hand_result":
                    self.results += 1
        finally:
            if pinger is not None:
                pinger.cancel()

    async def _seat(self, ws: Any, table: dict[str, Any]) -> None:
        """Seated: fill the table with bots, then be ready whenever the table waits."""
        seats = table["seats"]
        if seats[0]["kind"] != "person":
            return
        if any(s["kind"] == "empty" for s in seats):
            await ws.send(json.dumps({"type": "add_bots"}))
        elif not seats[0]["ready"] and table.get("status") != "playing":
            await ws.send(json.dumps({"type": "ready"}))

    async def _act(self, ws: Any, m: dict[str, Any]) -> None:
        acts = m["actions"]
        choice = next((a for a in acts if a["type"] in ("win", "pass", "continue")), acts[-1])
        try:
            await ws.send(json.dumps({"type": "act", "seq": m["seq"], "action": choice}))
        except Exception:
            pass

    async def _ping(self, ws: Any) -> None:
        while True:
            await asyncio.sleep(1.0)
            key = f"p{next(self._ids)}"
            self._pings = {key: time.monotonic()}  # an unanswered one is dropped
            await ws.send(json.dumps({"type": "ping", "id": key}))


def ledger_report(database: str, players: list[Player]) -> dict[str, Any]:
    from sqlalchemy import select

    from baida.server.store import Store
    from baida.server.store.models import HandRow, HandSeat, MatchRow

    with Store(database) as store:
        check = store.ledger.check()
        problems = len(check.unbalanced) + len(check.cache_mismatches) + len(check.negative)
        with store.engine.connect() as c:
            statuses = [s for (s,) in c.execute(select(HandRow.status))]
            voided = c.execute(select(HandRow.id, HandRow.void_reason)
                               .where(HandRow.status == "voided")).all()
            playing = c.execute(select(MatchRow.table_id, MatchRow.status, HandRow.id)
                                .join(HandRow, HandRow.match_id == MatchRow.id)
                                .where(HandRow.status == "playing")).all()
            mine = {p.me["id"]: p for p in players}
            ended = c.execute(select(HandSeat.user_id, HandRow.id)
                              .join(HandRow, HandRow.id == HandSeat.hand_id)
                              .where(HandRow.status == "ended")).all()
        for uid in mine:
            fees = [e.hand_id for e in store.ledger.history(uid, limit=100_000)
                    if e.kind == "fee"]
            hands = sorted(h for u, h in ended if u == uid)
            problems += sum(abs(fees.count(h) - 1) for h in hands)
            problems += len(set(fees) - set(hands))
    tables_in_play = {t for t, _, _ in playing}
    return {"hands_ended": statuses.count("ended"), "hands_lost": statuses.count("voided"),
            "lost_reasons": sorted({reason or "" for _, reason in voided}),
            "hands_in_play": statuses.count("playing"), "silver_discrepancies": problems,
            # a table with two hands in play, or a hand in play in a finished match
            "stray_hands": [(t, ms, h) for t, ms, h in playing
                            if ms != "playing" or sum(x == t for x, _, _ in playing) > 1],
            "tables_in_play": len(tables_in_play)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="baida-chaos-") as tmp:
        with Machines(Path(tmp)) as m:
            players = [Player(m.proxy_base, args.pace) for _ in range(args.tables)]
            for p in players:
                await p.sit_down()
            tasks = [asyncio.create_task(p.play()) for p in players]
            await asyncio.sleep(args.warmup)
            chaos_from = time.monotonic()
            kills = int(args.duration // args.every)
            for k in range(kills):
                await asyncio.sleep(max(0.0, chaos_from + (k + 1) * args.every
                                        - time.monotonic()))
                victim = m.nodes[k % len(m.nodes)]
                m.kill(victim)
                await asyncio.get_running_loop().run_in_executor(None, m.start, victim)
            await asyncio.sleep(max(0.0, args.duration - (time.monotonic() - chaos_from)))
            await asyncio.sleep(args.settle)
            for p in players:
                p.stopping = True
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for p in players:
                await p.http.aclose()
            ledger = ledger_report(m.database, players)
            if args.logs is not None:  # the nodes' and the proxy's logs, kept for reading
                args.logs.mkdir(parents=True, exist_ok=True)
                for path in Path(tmp).rglob("*.log"):
                    shutil.copy(path, args.logs / "-".join(path.relative_to(tmp).parts))
    before = [r for p in players for when, r in p.rtts if when < chaos_from]
    during = [r for p in players for when, r in p.rtts if when >= chaos_from]
    away = [a for p in players for a in p.away]
    ms = (lambda v: None if v is None else round(v * 1000, 1))  # noqa: E731
    p99_before, p99_during = pct(before, 0.99), pct(during, 0.99)
    return {
        "tables": args.tables, "duration_s": args.duration, "every_s": args.every,
        "kills": kills, **ledger,
        "hand_results_seen": sum(p.results for p in players),
        "rtt_ms_before_p50_p99": [ms(pct(before, 0.5)), ms(p99_before)],
        "rtt_ms_during_p50_p99": [ms(pct(during, 0.5)), ms(p99_during)],
        "p99_added_ms": None if p99_before is None or p99_during is None
        else ms(p99_during - p99_before),
        "drops": len(away),
        "away_s_median_p95_max": [round(statistics.median(away), 2) if away else None,
                                  round(pct(away, 0.95) or 0, 2) if away else None,
                                  round(max(away), 2) if away else None],
    }


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__)
    parser.add_argument("--duration", type=float, default=600.0, help="seconds of chaos")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between kills")
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--pace", type=float, default=0.4, help="a person's answer time")
    parser.add_argument("--logs", type=Path, help="keep the nodes' and the proxy's logs here")
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument("--settle", type=float, default=20.0,
                        help="seconds after the chaos before the ledger is read")
    args = parser.parse_args()
    problem = machines_problem()
    if problem is not None:
        print(f"bench.chaos: {problem}")
        return 2
    print(json.dumps(asyncio.run(run(args)), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
