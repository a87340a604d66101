"""What the pace after a discard says under ``timing.uniform_window``, measured on the wire.

A real hall (``baida serve`` in its own process, SQLite) and four people per table, each in a
process of its own, all passing every claim after a random delay (``--answer``, seconds) and
discarding after ``--think``. From the frames each seat receives, for every discard it did
not make and was not asked about: the time from the frame holding the discard to the next
frame. Two groups: "window, all passed" (another seat was asked and passed) and "no window"
(nobody could claim). With the uniform window both should be the claim window, whatever the
others could do; the two-sample Kolmogorov-Smirnov statistic says how far apart the two
distributions are, with two p-values: the asymptotic one (as if every delay were independent)
and one from shuffling the groups between whole discards (a discard's observers share its
moment), which is the honest one.

    python -m bench.window_timing                       # 2 tables, 240 s, window 1 s
    python -m bench.window_timing --tables 2 --seconds 300 --claim 2 --answer 0.3 1.7

(A window's prompt has the window less 0.25 s, or less a quarter of a shorter window, to
answer: answers drawn past that run out, and are passed by the hall.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing as mp
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.hall_load import free_port, start_hall

Record = tuple[float, dict[str, Any]]  # (monotonic seconds on receipt, message)


# ---------------------------------------------------------------- one seat, one process


async def _seat(base: str, table_id: int, seat: int, args: dict[str, Any]) -> list[Record]:
    import httpx
    from websockets.asyncio.client import connect

    rng = random.Random(f"{table_id}:{seat}")
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post("/api/guest")
        r.raise_for_status()
        me = r.json()["me"]["id"]
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    ws_url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    log: list[Record] = []
    deadline = time.monotonic() + args["seconds"]
    async with connect(ws_url, additional_headers={"Cookie": cookie}, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1}))
        await ws.send(json.dumps({"type": "sit", "seat": seat}))

        async def answer(message: dict[str, Any]) -> None:
            offered = message["actions"]
            if message["kind"] == "turn":
                await asyncio.sleep(rng.uniform(*args["think"]))
                pick = next(a for a in offered if a["type"] == "discard")
            else:
                await asyncio.sleep(rng.uniform(*args["answer"]))
                pick = next((a for a in offered if a["type"] in ("pass", "continue")),
                            offered[0])
            await ws.send(json.dumps({"type": "act", "seq": message["seq"], "action": pick}))

        tasks: dict[int, asyncio.Task[None]] = {}  # by prompt number
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
            except TimeoutError:
                break
            now = time.monotonic()
            message = json.loads(raw)
            kind = message.get("type")
            if kind in ("events", "prompt", "refused", "error"):
                log.append((now, message))
            if kind == "prompt":
                tasks[message["seq"]] = asyncio.create_task(answer(message))
            elif kind in ("ack", "prompt_closed"):  # a window that ran out: no late answer
                late = tasks.pop(message["seq"], None)
                if late is not None and kind == "prompt_closed":
                    late.cancel()
            elif kind == "table" and message["table"]["status"] == "waiting":
                mine = message["table"]["seats"][seat]
                if mine["user"] == me and not mine["ready"]:  # seated: ready
                    await ws.send(json.dumps({"type": "ready"}))
            elif kind == "hand_result" and not message["match_over"]:
                await ws.send(json.dumps({"type": "ready"}))
    return log


def seat_process(base: str, table_id: int, seat: int, args: dict[str, Any], out: str) -> None:
    log = asyncio.run(_seat(base, table_id, seat, args))
    Path(out).write_text(json.dumps(log))


# ---------------------------------------------------------------- the measurement


def _game_frames(log: list[Record]) -> list[tuple[float, int, dict[str, Any]]]:
    """(time, hand number, message) of one seat, hands counted by their hand_start."""
    hand = 0
    out = []
    for t, m in log:
        if m["type"] not in ("events", "prompt"):
            continue
        if m["type"] == "events" and any(e["type"] == "hand_start" for e in m["events"]):
            hand += 1
        out.append((t, hand, m))
    return out


Cluster = tuple[str, list[float]]  # a discard's group and its observers' delays


def delays(logs: list[list[Record]]) -> list[Cluster]:
    """The seconds from a discard's frame to the next frame, one cluster a discard, over one
    table's four seats (the discarder and the seats asked about the discard left out)."""
    frames = [_game_frames(log) for log in logs]
    asked: dict[tuple[int, int], set[int]] = {}  # (hand, discard index) -> seats asked
    for seat, seen in enumerate(frames):
        last: tuple[int, int] | None = None
        for _, hand, m in seen:
            if m["type"] == "events":
                last = (hand, m["index"] + len(m["events"]) - 1)
            elif m["kind"] in ("claim", "rob") and last is not None:
                asked.setdefault(last, set()).add(seat)
    clusters: dict[tuple[int, int], Cluster] = {}
    for seat, seen in enumerate(frames):
        for i, (t, hand, m) in enumerate(seen[:-1]):
            if m["type"] != "events" or m["events"][-1]["type"] != "discard":
                continue
            discard = m["events"][-1]
            key = (hand, m["index"] + len(m["events"]) - 1)
            if discard["seat"] == seat or seat in asked.get(key, ()):
                continue
            t_next, _, after = seen[i + 1]
            if after["type"] != "events" or after["events"][0]["type"] != "draw":
                continue  # claimed, won, or the hand ended: not the pace of a pass
            group = "window" if key in asked else "no_window"
            clusters.setdefault(key, (group, []))[1].append(t_next - t)
    return list(clusters.values())


def permutation_p(clusters: list[Cluster], observed: float, rounds: int = 2000) -> float:
    """How often the KS statistic is at least ``observed`` when the groups are shuffled
    between discards (a discard's observers share their group and their moment, so they are
    not independent samples: this p-value does not pretend they are)."""
    rng = random.Random(7)
    labels = [group for group, _ in clusters]
    hits = 0
    for _ in range(rounds):
        rng.shuffle(labels)
        a = [v for label, (_, vs) in zip(labels, clusters, strict=True) if label == "window"
             for v in vs]
        b = [v for label, (_, vs) in zip(labels, clusters, strict=True)
             if label == "no_window" for v in vs]
        hits += ks(a, b)[0] >= observed
    return (hits + 1) / (rounds + 1)


def ks(a: list[float], b: list[float]) -> tuple[float, float]:
    """The two-sample Kolmogorov-Smirnov statistic D and its asymptotic p-value."""
    if not a or not b:
        return float("nan"), float("nan")
    a, b = sorted(a), sorted(b)
    i = j = 0
    d = 0.0
    while i < len(a) and j < len(b):
        x = min(a[i], b[j])
        while i < len(a) and a[i] == x:
            i += 1
        while j < len(b) and b[j] == x:
            j += 1
        d = max(d, abs(i / len(a) - j / len(b)))
    n = len(a) * len(b) / (len(a) + len(b))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return d, min(1.0, max(0.0, p))


def summary(values: list[float]) -> dict[str, float]:
    ms = sorted(v * 1000 for v in values)
    if not ms:
        return {"n": 0, "median_ms": math.nan, "p5_ms": math.nan, "p95_ms": math.nan,
                "min_ms": math.nan, "max_ms": math.nan}
    q = statistics.quantiles(ms, n=20) if len(ms) > 1 else ms * 19
    return {"n": len(ms), "median_ms": round(statistics.median(ms), 1),
            "p5_ms": round(q[0], 1), "p95_ms": round(q[-1], 1),
            "min_ms": round(ms[0], 1), "max_ms": round(ms[-1], 1)}


def run(args: argparse.Namespace) -> dict[str, Any]:
    import httpx

    settings = {"seconds": args.seconds, "answer": args.answer, "think": args.think}
    timing = {"pause": 0.5, "claim": args.claim, "turn": 30.0, "bank": 30.0, "santan": 10.0,
              "bot_turn": 0.5, "bot_claim": 0.2, "between_hands": 5.0,
              "uniform_window": True}
    with tempfile.TemporaryDirectory(prefix="baida-window-") as tmp:
        data = Path(tmp)
        port = free_port()
        hall = start_hall(port, data)
        base = f"http://127.0.0.1:{port}"
        try:
            with httpx.Client(base_url=base) as http:
                me = http.post("/api/guest").json()["me"]
                headers = {"X-CSRF-Token": me["csrf"]}
                table_ids = []
                for _ in range(args.tables):
                    r = http.post("/api/tables", headers=headers, json={
                        "ruleset": args.ruleset, "hands": 64, "timing": timing})
                    r.raise_for_status()
                    table_ids.append(r.json()["table"]["id"])
            ctx = mp.get_context("spawn")
            procs = []
            for table_id in table_ids:
                for seat in range(4):
                    out = str(data / f"t{table_id}s{seat}.json")
                    p = ctx.Process(target=seat_process,
                                    args=(base, table_id, seat, settings, out))
                    p.start()
                    procs.append((p, table_id, seat, out))
            for p, *_ in procs:
                p.join(args.seconds + 120)
        finally:
            hall.terminate()
            hall.wait(30)
        clusters: list[Cluster] = []
        for table_id in table_ids:
            logs = [json.loads(Path(out).read_text()) for _, t, _, out in procs
                    if t == table_id]
            if args.logs:  # every seat's frames, to look at
                Path(args.logs).mkdir(parents=True, exist_ok=True)
                Path(args.logs, f"table{table_id}.json").write_text(json.dumps(logs))
            clusters.extend(delays(logs))
    groups: dict[str, list[float]] = {"window": [], "no_window": []}
    for group, values in clusters:
        groups[group].extend(values)
    d, p = ks(groups["window"], groups["no_window"])
    p_shuffled = permutation_p(clusters, d) if groups["window"] and groups["no_window"] else 1.0
    return {"claim_s": args.claim, "answer_s": args.answer, "think_s": args.think,
            "tables": args.tables, "seconds": args.seconds,
            "window_all_passed": summary(groups["window"]),
            "no_window": summary(groups["no_window"]), "ks_d": round(d, 3),
            "ks_p": round(p, 4), "ks_p_shuffled_discards": round(p_shuffled, 4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=240.0)
    parser.add_argument("--claim", type=float, default=1.0, help="the claim window, seconds")
    parser.add_argument("--answer", type=float, nargs=2, default=[0.1, 0.7],
                        help="a pass comes after a uniform delay in this range")
    parser.add_argument("--think", type=float, nargs=2, default=[0.05, 0.25],
                        help="a discard comes after a uniform delay in this range")
    parser.add_argument("--ruleset", default="jiaxing")
    parser.add_argument("--logs", help="keep every seat's frames in this folder")
    result = run(parser.parse_args(argv))
    print(json.dumps(result, indent=2, ensure_ascii=False))
    w, n = result["window_all_passed"], result["no_window"]
    print(f"\nwindow, all passed: n={w['n']} median {w['median_ms']} ms "
          f"(p5 {w['p5_ms']}, p95 {w['p95_ms']}, {w['min_ms']}–{w['max_ms']})\n"
          f"no window:          n={n['n']} median {n['median_ms']} ms "
          f"(p5 {n['p5_ms']}, p95 {n['p95_ms']}, {n['min_ms']}–{n['max_ms']})\n"
          f"KS D = {result['ks_d']} (p = {result['ks_p']} as independent samples, "
          f"{result['ks_p_shuffled_discards']} shuffling whole discards)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
