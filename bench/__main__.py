"""``python -m bench``: every benchmark, ours beside the anchors, in one run.

Sections: ``evaluator`` (win test, shanten and waits against the mahjong, xiangting, riichienv and
cmajiang packages), ``scoring`` (full Jiaxing and Wenling scores), ``engine`` (self-played
hands per second). ``--markdown`` prints the table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from .timing import Timing

SECTIONS = ("evaluator", "scoring", "engine")


def _engine(hands: int) -> list[Timing]:
    from .engine_throughput import run_both

    out = []
    for ruleset, target in (("jiaxing", 300.0), ("wenling", 150.0)):
        rate, cpu = run_both(ruleset, hands)
        out.append(Timing(f"{ruleset} hands/s (random-legal bots, one core)", rate, rate, rate,
                          hands, target_us=target, note="hands per second, higher is better",
                          cpu_us=cpu))
    return out


def _fmt(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:.3g}" if value < 100 else f"{value:,.0f}"


def _worst(r: Timing) -> str:
    if r.worst_us is None:
        return ""
    return f"{_fmt(r.worst_us)} / {_fmt(r.worst_cpu_us)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=SECTIONS, action="append", help="run only these")
    parser.add_argument("-n", type=int, default=10_000, help="inputs per measurement")
    parser.add_argument("--hands", type=int, default=300, help="hands per engine run")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--json", type=Path, help="write the results as JSON here")
    args = parser.parse_args(argv)
    sections = args.only or list(SECTIONS)
    results: list[Timing] = []
    console = Console(stderr=args.markdown)
    for section in sections:
        console.print(f"[bold]running {section}...[/bold]")
        if section == "evaluator":
            from .evaluator_bench import run
            results += run(args.n)
        elif section == "scoring":
            from .scoring_bench import run
            results += run(args.n)
        else:
            results += _engine(args.hands)
    table = Table(title=f"baida benchmarks (Python {platform.python_version()}, "
                        f"{platform.machine()}, one process)")
    for col in ("measurement", "median µs", "median CPU µs", "range / p99",
                "worst µs (wall / CPU)", "target", "calls"):
        table.add_column(col)
    for r in results:
        spread = f"{_fmt(r.low_us)}–{_fmt(r.high_us)}"
        table.add_row(r.name, _fmt(r.median_us), _fmt(r.cpu_us), spread, _worst(r),
                      _fmt(r.target_us), str(r.calls))
    console.print(table)
    if args.markdown:
        print("| measurement | median | median CPU | batch range (min–p99 for per-call) |"
              " worst wall / CPU | target |")
        print("|---|---|---|---|---|---|")
        for r in results:
            print(f"| {r.name.strip()} | {_fmt(r.median_us)} | {_fmt(r.cpu_us)} |"
                  f" {_fmt(r.low_us)}–{_fmt(r.high_us)} | {_worst(r)} | {_fmt(r.target_us)} |")
    if args.json:
        args.json.write_text(json.dumps([r.as_dict() for r in results], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
