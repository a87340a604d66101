"""Load on a real hall: paced clients over the real protocol, in separate processes on loopback.

Shaped like the measurement of kobalab's majiang-server made on this kind of machine: every
seat of every table is a client that answers a prompt after ``--pace`` seconds (plus
``--claim-extra`` before a claim or a win). For each number of tables the hall is started
afresh (``baida serve`` in its own process, SQLite, bots off the loop), the tables are filled,
then after ``--warmup`` seconds the run is measured for ``--measure`` seconds:

* **added latency**: from a client sending a discard to the last of the table's four seats
  receiving it, i.e. the time beyond the pace (p50, p99);
* **pace**: the ideal turn (the client's pace plus the hall's pause after a discard) over the
  measured one, for the turns inside a hand without claims;
* **server CPU** (share of one core) and **memory per table** (resident memory of the hall
  process with the tables playing, less the idle hall's, divided by the tables);
* **client loop lag**: how late the client processes' own event loops ran a callback (p99);
  the latencies include it, so a large one means the clients, not the hall, were slow.

Capacity = the most tables with pace >= 95%, p99 added latency <= 50 ms and server CPU < 90%
(of one core per hall, and of the machine's cores). ``--unpaced`` measures throughput instead:
clients answer at once, the hall has no pause. ``--halls N`` starts N independent halls side
by side and splits the tables (and the client processes) between them: what hall nodes that
each own their tables' sockets would carry, less the cost of routing a socket to its node.
``--nodes N`` starts one hall of N nodes (``baida serve --nodes N``, Redis at ``--redis``):
the real thing, sockets handed to their tables' nodes; the hall's own latency histogram is
then the sum of the nodes' (another node's as of its last publication, at most 5 s old).

    python -m bench.hall_load --tables 100 400 800 1200 1600
    python -m bench.hall_load --unpaced --tables 100
    python -m bench.hall_load --halls 2 --tables 1200 1600
    python -m bench.hall_load --nodes 2 --tables 1200 1600
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from picows import WSFrame, WSListener, WSMsgType, WSTransport, ws_connect

PAUSE = 0.4  # the hall's pause after a discard in this run (every seat waits it)
SETUP_SECONDS = 600.0  # a table that has not started by then is reported, not waited for


# ---------------------------------------------------------------- the hall under test


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_hall(port: int, data: Path, unpaced: bool = False, nodes: int = 1,
               redis: str = "", extra: tuple[str, ...] = ()) -> subprocess.Popen[bytes]:
    """``baida serve`` in its own process; its output goes to ``data/hall.log``. Unpaced
    clients answer at once, faster than a person's connection may send by default, so that
    run raises the limit. ``extra``: more flags (the last of a flag given twice counts)."""
    cmd = [sys.executable, "-m", "baida.cli", "serve", "--port", str(port), "--data", str(data),
           "--bot-workers", "0", "--log-level", "warning", "--starting-balance", "1000",
           # every client is a guest on this one address
           "--guests-per-hour", "0",
           "--max-connections-per-address", "100000", "--max-sockets-per-address", "100000"]
    if unpaced:
        cmd += ["--client-rate", "10000", "--client-burst", "10000"]
    if nodes > 1:
        cmd += ["--nodes", str(nodes), "--redis", redis, "--redis-prefix", f"baida-load-{port}"]
    cmd += extra
    log = (data / "hall.log").open("wb")
    env = dict(os.environ)
    if os.environ.get("BAIDA_LOAD_DEBUG"):  # the hall logs every stall of its loop > 30 ms
        env["BAIDA_STALL_MS"] = os.environ.get("BAIDA_LOAD_STALL_MS", "30")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.time() + 120
    while time.time() < deadline:
        text = (data / "hall.log").read_text(errors="replace")
        if "baida hall:" in text:
            return proc
        if proc.poll() is not None:
            raise RuntimeError(f"the hall did not start: {text[-2000:]}")
        time.sleep(0.2)
    raise RuntimeError("the hall did not start in time")


def _stat(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def _children() -> dict[int, list[int]]:
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents.setdefault(int(_stat(int(entry))[1]), []).append(int(entry))
            except OSError:
                continue
    return parents


def hall_processes(proc: subprocess.Popen[bytes], nodes: int) -> list[int]:
    """The hall's event-loop processes: the one ``baida serve``, or its nodes."""
    return [proc.pid] if nodes <= 1 else sorted(_children().get(proc.pid, []))


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process below it (the hall's action log worker, its bot workers)."""
    parents = _children()
    tree, todo = [], [pid]
    while todo:
        p = todo.pop()
        tree.append(p)
        todo += parents.get(p, [])
    return tree


def cpu_seconds(pid: int) -> float:
    """CPU time of the hall: its own process and the processes it started."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for p in process_tree(pid):
        try:
            fields = _stat(p)
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def main_cpu_seconds(pid: int) -> float:
    """CPU time of the hall's own process (its event loop and threads) alone."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


# ---------------------------------------------------------------- the clients


@dataclass
class TableStats:
    latencies: list[float] = field(default_factory=list)
    cycles: list[tuple[float, float]] = field(default_factory=list)  # (ideal, actual)
    actions: int = 0
    messages: int = 0
    errors: list[str] = field(default_factory=list)
    auto: set[str] = field(default_factory=set)  # seats this table saw go to 托管, and why


class LoadTable:
    """Four clients at one table, and what the table measures."""

    def __init__(self, stats: TableStats, pace: float, claim_extra: float, unpaced: bool,
                 measuring: list[bool]) -> None:
        self.stats = stats
        self.pace = 0.0 if unpaced else pace
        self.claim_extra = 0.0 if unpaced else claim_extra
        self.measuring = measuring
        self.outstanding: dict[int, list[float]] = {}  # seat -> [sent, arrivals, latest]
        self.last_discard: float | None = None
        self.clean = True  # no claim or hand boundary since the last discard

    def sent_discard(self, seat: int, now: float) -> None:
        if self.last_discard is not None and self.clean and self.measuring[0]:
            self.stats.cycles.append((self.pace + PAUSE, now - self.last_discard))
        self.last_discard = now
        self.clean = True
        self.outstanding[seat] = [now, 0, 0.0]

    def heard(self, event: dict[str, Any], now: float) -> None:
        kind = event["type"]
        if kind == "discard":
            entry = self.outstanding.get(event["seat"])
            if entry is not None:
                entry[1] += 1
                entry[2] = now
                if entry[1] == 4:
                    if self.measuring[0]:
                        self.stats.latencies.append(entry[2] - entry[0])
                    del self.outstanding[event["seat"]]
        elif kind in ("chi", "pon", "mkong", "bukong", "akong", "hand_end", "win", "santan"):
            self.clean = False


class SeatClient(WSListener):
    """One seat's client (picows: framing in C, a callback per frame, no task per message)."""

    def __init__(self, table: LoadTable, seat: int, ready: asyncio.Event) -> None:
        self.table = table
        self.seat = seat
        self.ready = ready
        self.sent_ready = False
        self.transport: WSTransport | None = None
        self.loop = asyncio.get_running_loop()

    def send(self, text: bytes) -> None:
        if self.transport is not None:
            self.transport.send(WSMsgType.TEXT, text)

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport
        self.send(b'{"type":"hello","protocol":1,"batch":true}')
        self.send(orjson.dumps({"type": "sit", "seat": self.seat}))

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        self.transport = None

    def answer(self, seq: int, action: dict[str, Any]) -> None:
        table = self.table
        if action["type"] == "discard":
            table.sent_discard(self.seat, self.loop.time())
        if table.measuring[0]:
            table.stats.actions += 1
        self.send(orjson.dumps({"type": "act", "seq": seq, "action": action}))

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type != WSMsgType.TEXT:
            if frame.msg_type == WSMsgType.CLOSE:
                transport.send_close(frame.get_close_code())
                transport.disconnect()
            return
        now = self.loop.time()
        table = self.table
        stats = table.stats
        data = orjson.loads(frame.get_payload_as_bytes())
        batch = data if isinstance(data, list) else (data,)
        if table.measuring[0]:
            stats.messages += len(batch)
        for message in batch:
            kind = message["type"]
            if kind == "events":
                for event in message["events"]:
                    table.heard(event, now)
            elif kind == "prompt":
                actions = message["actions"]
                by = {a["type"]: a for a in actions}
                if "win" in by:
                    choice, delay = by["win"], table.pace + table.claim_extra
                elif "pass" in by:
                    choice, delay = by["pass"], table.pace
                elif "continue" in by:
                    choice, delay = by["continue"], table.pace
                else:
                    discards = [a for a in actions if a["type"] == "discard"]
                    choice, delay = (discards[-1] if discards else actions[0]), table.pace
                if delay:
                    self.loop.call_later(delay, self.answer, message["seq"], choice)
                else:
                    self.answer(message["seq"], choice)
            elif kind == "table" and not self.sent_ready:
                seats = message["table"]["seats"]
                if all(s["kind"] != "empty" for s in seats):
                    self.sent_ready = True
                    self.send(b'{"type":"ready"}')
                    self.ready.set()
            elif kind == "hand_result":
                self.send(b'{"type":"ready"}')
            elif kind == "seat_mode" and message["mode"] != "player":
                stats.auto.add(f"seat {message['seat']}: {message['reason']}")
            elif kind in ("refused", "error"):
                if len(stats.errors) < 5:
                    stats.errors.append(json.dumps(message)[:200])


async def client(base: str, ws_base: str, table: LoadTable, table_id: int, seat: int,
                 cookie: str, ready: asyncio.Event) -> None:
    """Connect one seat and keep it until the hall closes the connection."""
    transport, _ = await ws_connect(
        lambda: SeatClient(table, seat, ready), f"{ws_base}/ws/tables/{table_id}",
        extra_headers={"Cookie": cookie}, websocket_handshake_timeout=60,
        max_frame_size=2**22)
    await transport.wait_disconnected()


async def post(http: Any, path: str, **kwargs: Any) -> Any:
    """POST, once more on a fresh connection if the hall closed the kept-alive one first (it
    closes idle connections after a few seconds; a busy client can be that slow)."""
    import httpx

    for attempt in (1, 2, 3):
        try:
            return await http.post(path, **kwargs)
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.ConnectError):
            if attempt == 3:
                raise
    raise AssertionError("unreachable")


async def guest(http: Any) -> tuple[str, str]:
    """A new guest session (the client keeps no cookie between guests)."""
    http.cookies.clear()
    r = await post(http, "/api/guest")
    r.raise_for_status()
    cookie = "; ".join(f"{k}={v}" for k, v in r.cookies.items())
    http.cookies.clear()
    return cookie, r.json()["me"]["csrf"]


async def play_tables(base: str, tables: int, args: dict[str, Any], conn: Any) -> None:
    """Fill ``tables`` tables with four clients each; measure between the parent's
    ``measure`` and ``stop`` commands; send back what was measured."""
    import httpx

    loop = asyncio.get_running_loop()
    ws_base = base.replace("http://", "ws://")
    measuring = [False]
    stats = [TableStats() for _ in range(tables)]
    timing = {"pause": 0.0 if args["unpaced"] else PAUSE, "claim": 5.0, "turn": 30.0,
              "bank": 30.0, "santan": 10.0, "bot_turn": 0.5, "bot_claim": 0.2,
              "between_hands": 5.0}
    tasks = []
    sem = asyncio.Semaphore(40)

    async def one_table(i: int) -> None:
        async with sem, httpx.AsyncClient(base_url=base, timeout=120) as http:
            cookies = [await guest(http) for _ in range(4)]
            r = await post(http, "/api/tables", json={
                "ruleset": args["ruleset"], "hands": 64, "timing": timing,
            }, headers={"Cookie": cookies[0][0], "X-CSRF-Token": cookies[0][1]})
            r.raise_for_status()
            table_id = r.json()["table"]["id"]
        table = LoadTable(stats[i], args["pace"], args["claim_extra"], args["unpaced"],
                          measuring)
        ready = asyncio.Event()
        for seat in range(4):
            task = asyncio.create_task(
                client(base, ws_base, table, table_id, seat, cookies[seat][0], ready))
            task.add_done_callback(lambda t, s=stats[i]: _report(t, s))
            tasks.append(task)
        try:
            await asyncio.wait_for(ready.wait(), SETUP_SECONDS)
        except TimeoutError:
            stats[i].errors.append(f"table {table_id} did not start in {SETUP_SECONDS} s")

    await asyncio.gather(*(one_table(i) for i in range(tables)))
    conn.send(("ready", None))
    await loop.run_in_executor(None, conn.recv)  # "measure"
    start_cpu = time.process_time()
    measuring[0] = True
    probe = LagProbe(loop)
    await loop.run_in_executor(None, conn.recv)  # "stop"
    measuring[0] = False
    lags = probe.stop()
    conn.send(("done", {
        "latencies": [x for s in stats for x in s.latencies],
        "cycles": [c for s in stats for c in s.cycles],
        "actions": sum(s.actions for s in stats),
        "messages": sum(s.messages for s in stats),
        "errors": [e for s in stats for e in s.errors],
        "auto": [a for s in stats for a in sorted(s.auto)],
        "cpu": time.process_time() - start_cpu,
        "loop_lags": lags,
    }))
    for task in tasks:
        task.cancel()


class LagProbe:
    """How late this client process's event loop runs a callback, every ``tick`` seconds:
    a late client delays the arrivals it records, and the latencies then include it."""

    def __init__(self, loop: asyncio.AbstractEventLoop, tick: float = 0.005) -> None:
        self.loop = loop
        self.tick = tick
        self.lags: list[float] = []
        due = loop.time() + tick
        self._handle = loop.call_at(due, self._run, due)

    def _run(self, due: float) -> None:
        now = self.loop.time()
        self.lags.append(now - due)
        self._handle = self.loop.call_at(now + self.tick, self._run, now + self.tick)

    def stop(self) -> list[float]:
        self._handle.cancel()
        return self.lags


def _report(task: asyncio.Task[None], stats: TableStats) -> None:
    """A client that ended with an error says so in the results."""
    if not task.cancelled() and task.exception() is not None and len(stats.errors) < 5:
        exc = task.exception()
        where = ""
        if exc.__traceback__ is not None:
            frame = exc.__traceback__
            while frame.tb_next is not None:
                frame = frame.tb_next
            where = f" at {Path(frame.tb_frame.f_code.co_filename).name}:{frame.tb_lineno}"
        stats.errors.append(f"client: {type(exc).__name__}{where}: {exc}")


def worker(base: str, tables: int, args: dict[str, Any], conn: Any) -> None:
    """A client process (uvloop when available, as the hall uses)."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(play_tables(base, tables, args, conn))


# ---------------------------------------------------------------- one run


def latency_buckets(base: str) -> dict[float, float]:
    """The hall's own action-latency histogram (``/metrics``): cumulative count per bucket,
    summed over the nodes of a hall of several (each labelled with its ``node``)."""
    import urllib.request

    text = urllib.request.urlopen(f"{base}/metrics", timeout=30).read().decode()
    out: dict[float, float] = {}
    for line in text.splitlines():
        if line.startswith("baida_action_latency_seconds_bucket{"):
            le = line.split('le="', 1)[1].split('"', 1)[0]
            bound = float("inf") if le == "+Inf" else float(le)
            out[bound] = out.get(bound, 0.0) + float(line.rsplit(" ", 1)[1])
    return out


def bucket_percentile(before: dict[float, float], after: dict[float, float], q: float) -> float:
    """The upper bound (ms) of the bucket holding the ``q`` quantile of what was observed
    between two scrapes."""
    bounds = sorted(after)
    counts = [after[b] - before.get(b, 0.0) for b in bounds]
    total = counts[-1] if counts else 0.0
    for bound, count in zip(bounds, counts, strict=True):
        if total and count >= q * total:
            return bound * 1000
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _split(total: int, parts: int) -> list[int]:
    """``total`` in ``parts`` shares that differ by at most one."""
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def run_level(tables: int, args: argparse.Namespace) -> dict[str, Any]:
    """One level: ``args.halls`` fresh halls side by side (one unless asked), the tables split
    between them, each hall's share played by its own client processes."""
    halls = max(1, min(args.halls, tables))
    nodes = args.nodes if halls == 1 else 1
    with contextlib.ExitStack() as stack:
        datas = [Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="baida-load-")))
                 for _ in range(halls)]
        procs_hall, bases = [], []
        try:
            for data in datas:
                port = free_port()
                procs_hall.append(start_hall(port, data, args.unpaced, nodes, args.redis))
                bases.append(f"http://127.0.0.1:{port}")
            units = [pid for h in procs_hall for pid in hall_processes(h, nodes)]
            idle_rss = sum(rss_mb(pid) for pid in units)
            ctx = mp.get_context("spawn")
            pipes, procs = [], []
            options = {"pace": args.pace, "claim_extra": args.claim_extra,
                       "unpaced": args.unpaced, "ruleset": args.ruleset}
            workers = max(1, min(args.workers, tables))
            for base, share in zip(bases, _split(tables, halls), strict=True):
                for part in _split(share, max(1, workers // halls)):
                    parent, child = ctx.Pipe()
                    proc = ctx.Process(target=worker, args=(base, part, options, child))
                    proc.start()
                    pipes.append(parent)
                    procs.append(proc)
            for p in pipes:
                kind, _ = p.recv()
                assert kind == "ready"
            time.sleep(args.warmup)
            rss = sum(rss_mb(pid) for pid in units)
            hist0 = [latency_buckets(b) for b in bases]
            cpu0, t0 = [cpu_seconds(pid) for pid in units], time.time()
            main0 = [main_cpu_seconds(pid) for pid in units]
            for p in pipes:
                p.send("measure")
            time.sleep(args.measure)
            for p in pipes:
                p.send("stop")
            cpu1, t1 = [cpu_seconds(pid) for pid in units], time.time()
            hist1 = [latency_buckets(b) for b in bases]
            main1 = [main_cpu_seconds(pid) for pid in units]
            rss = max(rss, sum(rss_mb(pid) for pid in units))
            parts = [p.recv()[1] for p in pipes]
            for proc in procs:
                proc.join(timeout=30)
                if proc.is_alive():
                    proc.kill()
        finally:
            if os.environ.get("BAIDA_LOAD_DEBUG"):
                for data in datas:
                    print((data / "hall.log").read_text()[-12000:], file=sys.stderr)
            for hall in procs_hall:
                hall.send_signal(signal.SIGINT)
            for hall in procs_hall:
                try:
                    hall.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    hall.kill()
    seconds = t1 - t0
    latencies = [x for p in parts for x in p["latencies"]]
    cycles = [c for p in parts for c in p["cycles"]]
    ideal = sum(i for i, _ in cycles)
    actual = sum(a for _, a in cycles)
    actions = max(1, sum(p["actions"] for p in parts))
    per_hall = [round((b - a) / seconds, 3) for a, b in zip(cpu0, cpu1, strict=True)]
    hist_before = {k: sum(h.get(k, 0.0) for h in hist0) for k in hist1[0]}
    hist_after = {k: sum(h.get(k, 0.0) for h in hist1) for k in hist1[0]}
    return {
        "tables": tables,
        "halls": halls,
        "nodes": nodes,
        "seconds": round(seconds, 1),
        "server_cpu": round(sum(per_hall), 3),
        "server_cpu_per_hall": per_hall,
        "server_main_cpu": round(sum(b - a for a, b in zip(main0, main1, strict=True))
                                 / seconds, 3),
        "client_cpu": [round(p["cpu"] / seconds, 3) for p in parts],
        "latency_p50_ms": round(percentile(latencies, 0.5) * 1000, 1),
        "latency_p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "pace": round(ideal / actual, 3) if actual else None,
        # inside the hall: an action's arrival to its messages queued (durable first), as
        # the upper bounds of the histogram's buckets
        "hall_latency_p50_ms_le": bucket_percentile(hist_before, hist_after, 0.5),
        "hall_latency_p99_ms_le": bucket_percentile(hist_before, hist_after, 0.99),
        "actions_per_s": round(sum(p["actions"] for p in parts) / seconds, 1),
        "server_cpu_us_per_action": round(sum(c1 - c0 for c0, c1 in zip(cpu0, cpu1, strict=True))
                                          * 1e6 / actions),
        "client_cpu_us_per_action": round(sum(p["cpu"] for p in parts) * 1e6 / actions),
        # how late the clients' own event loops ran (their delays are inside the latencies)
        "client_loop_lag_p99_ms": round(percentile(
            [x for p in parts for x in p["loop_lags"]], 0.99) * 1000, 1),
        "messages_per_s": round(sum(p["messages"] for p in parts) / seconds, 1),
        "rss_mb": round(rss, 1),
        "mb_per_table": round((rss - idle_rss) / tables, 3),
        "samples": len(latencies),
        "errors": _error_counts([e for p in parts for e in p["errors"]]),
        "seats_left_to_tuoguan": sum(len(p["auto"]) for p in parts),
        "tuoguan_reasons": sorted({a.split(": ", 1)[1] for p in parts for a in p["auto"]}),
    }


def _error_counts(errors: list[str]) -> dict[str, int]:
    """How often each kind of error was seen (its text up to the first digit or quote)."""
    counts: dict[str, int] = {}
    for error in errors:
        key = error[:90]
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1])[:8])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hall_load",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 400, 800, 1200, 1600])
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument("--measure", type=float, default=120.0)
    parser.add_argument("--pace", type=float, default=0.4)
    parser.add_argument("--claim-extra", type=float, default=0.5)
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--halls", type=int, default=1,
                        help="independent halls side by side, the tables split between them "
                        "(what hall nodes that each own their tables' sockets would give, "
                        "without the routing)")
    parser.add_argument("--nodes", type=int, default=1,
                        help="one hall of N nodes (baida serve --nodes N)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0",
                        help="the Redis the nodes share (with --nodes)")
    parser.add_argument("--ruleset", default="jiaxing")
    parser.add_argument("--unpaced", action="store_true")
    parser.add_argument("--json", type=Path, help="append the results here, one per line")
    args = parser.parse_args(argv)
    for n in args.tables:
        result = run_level(n, args)
        result["unpaced"] = args.unpaced
        # each hall's processes below 90% of a core (one event loop each), and the machine
        # below 90% of its cores
        ok = (result["pace"] or 0) >= 0.95 and result["latency_p99_ms"] <= 50 and \
            max(result["server_cpu_per_hall"]) < 0.9 and \
            result["server_cpu"] < 0.9 * min(max(result["halls"], result["nodes"]),
                                             os.cpu_count() or 1)
        result["within_capacity"] = ok and not args.unpaced
        print(json.dumps(result), flush=True)
        if args.json:
            with args.json.open("a") as f:
                f.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
