"""Per-decision latency of a bot in a long-lived process, as in a hall's bot worker.

A hall's bot worker warms the evaluator tables, then makes decision after decision for days;
its caches grow, and a garbage-collector pass that lands in the middle of a decision walks
every object the collector still tracks. This plays ``--hands`` hands of four copies of a bot
in one fresh process per mode (after the same warm-up as a worker) and times every decision:
``gc on`` is how the worker runs, ``gc off`` (the collector disabled after the warm-up) is the
floor, so the gap between the two rows is what collection costs.

    python -m bench.decision_latency --bot tuoguan --ruleset jiaxing --hands 250
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import resource
import sys
import time
from dataclasses import asdict, dataclass

from rich.console import Console
from rich.table import Table

from baida.bots.stats import percentile


@dataclass
class Latency:
    """One bot's decisions in one process: wall-clock milliseconds and the peak memory."""

    bot: str
    ruleset: str
    gc_on: bool
    decisions: int
    median_ms: float
    p99_ms: float
    p999_ms: float
    worst_ms: float
    total_s: float
    peak_rss_mb: int


def measure(bot: str, ruleset: str, hands: int, seed_start: int, gc_on: bool) -> Latency:
    """Warm up, then time every decision of ``hands`` self-played hands (in this process)."""
    from baida.bots.policy import make_bot
    from baida.engine import Round
    from baida.warmup import warm_tables

    warm_tables()
    if not gc_on:
        gc.collect()
        gc.disable()
    times: list[float] = []
    for index in range(seed_start, seed_start + hands):
        rnd = Round.from_seed(ruleset, index.to_bytes(8, "big"))
        bots = [make_bot(bot, seed=4 * index + seat) for seat in range(4)]
        while not rnd.ended:
            seat = rnd.to_act[0]
            view, legal = rnd.view(seat), rnd.legal_actions(seat)
            began = time.perf_counter()
            action = bots[seat].choose(view, legal)
            times.append((time.perf_counter() - began) * 1000)
            rnd.apply(action)
    gc.enable()
    return Latency(
        bot=bot, ruleset=ruleset, gc_on=gc_on, decisions=len(times),
        median_ms=percentile(times, 50), p99_ms=percentile(times, 99),
        p999_ms=percentile(times, 99.9), worst_ms=max(times), total_s=sum(times) / 1000,
        peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    )


def _in_fresh_process(bot: str, ruleset: str, hands: int, seed_start: int, gc_on: bool) -> Latency:
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        return pool.apply(measure, (bot, ruleset, hands, seed_start, gc_on))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.decision_latency", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="tuoguan")
    parser.add_argument("--ruleset", choices=("jiaxing", "wenling", "both"), default="both")
    parser.add_argument("--hands", type=int, default=250)
    parser.add_argument("--seed-start", type=int, default=971000)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON lines")
    args = parser.parse_args(argv)
    rulesets = ("jiaxing", "wenling") if args.ruleset == "both" else (args.ruleset,)
    rows = [_in_fresh_process(args.bot, ruleset, args.hands, args.seed_start, gc_on)
            for ruleset in rulesets for gc_on in (True, False)]
    if args.json:
        import json

        for row in rows:
            print(json.dumps(asdict(row)))
        return 0
    table = Table(title=f"{args.bot}: per-decision wall clock, {args.hands} hands from seed "
                        f"{args.seed_start}, one process per row")
    for column in ("ruleset", "gc", "decisions", "median ms", "p99 ms", "p99.9 ms", "worst ms",
                   "total s", "peak RSS MB"):
        table.add_column(column, justify="left" if column in ("ruleset", "gc") else "right")
    for row in rows:
        table.add_row(row.ruleset, "on" if row.gc_on else "off (floor)", f"{row.decisions:,}",
                      f"{row.median_ms:.2f}", f"{row.p99_ms:.1f}", f"{row.p999_ms:.1f}",
                      f"{row.worst_ms:.1f}", f"{row.total_s:.1f}", str(row.peak_rss_mb))
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
