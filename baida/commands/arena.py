"""``baida arena``: duplicate matches between bots, with a report (JSON, PNG, text)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys

from ..bots.policy import UnknownBot, bot_names, make_bot
from ..rules.options import OptionError
from ..rulesets import names, ruleset


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", choices=names(), default="jiaxing")
    parser.add_argument(
        "--bots",
        default="strong,greedy,random",
        help=f"comma-separated bot names, rotated through the seats ({', '.join(bot_names())})",
    )
    parser.add_argument(
        "--hands",
        "--seeds",
        dest="hands",
        type=int,
        default=200,
        help="duplicate sets (seeds) to play; each is played once per seating rotation",
    )
    parser.add_argument("--seed-start", type=int, default=0, help="first seed of the range")
    parser.add_argument(
        "--workers",
        type=int,
        default=max(1, (os.cpu_count() or 1)),
        help="worker processes (each plays disjoint seed ranges)",
    )
    parser.add_argument("--options", default=None, help="rule options as a JSON object")
    parser.add_argument("--out", default=None, help="write the report as JSON here")
    parser.add_argument("--png", default=None, help="write a chart (PNG) here")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from ..bots.arena import run_arena
    from ..bots.report import build_report, text_table, write_json, write_png

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        print("error: --bots needs at least one bot name", file=sys.stderr)
        return 2
    try:
        for name in dict.fromkeys(bots):
            make_bot(name)
    except UnknownBot as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.hands < 1 or args.workers < 1:
        print("error: --hands and --workers must be at least 1", file=sys.stderr)
        return 2
    if args.png and importlib.util.find_spec("matplotlib") is None:
        print("error: --png needs matplotlib: pip install 'baida[arena]' "
              "(checked before playing, so no match is lost)", file=sys.stderr)
        return 2
    options = None
    if args.options:
        try:
            options = json.loads(args.options)
            if not isinstance(options, dict):
                raise ValueError("not a JSON object")
            ruleset(args.ruleset).make_options(options)
        except (ValueError, OptionError) as exc:
            print(f"error: --options: {exc}", file=sys.stderr)
            return 2

    def play(progress_cb):
        return run_arena(
            args.ruleset,
            bots,
            args.hands,
            seed_start=args.seed_start,
            workers=args.workers,
            options=options,
            progress=progress_cb,
        )

    if args.quiet:
        result = play(None)
    else:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        columns = (
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
        )
        with Progress(*columns, transient=False) as bar:
            task = bar.add_task(f"{args.ruleset} sets", total=args.hands)
            result = play(lambda n: bar.advance(task, n))

    report = build_report(result, args.ruleset, bots, args.seed_start, args.workers, options)
    print(text_table(report))
    if args.out:
        write_json(report, args.out)
        print(f"report written to {args.out}")
    if args.png:
        write_png(report, args.png)
        print(f"chart written to {args.png}")
    return 0 if report["illegal_actions_total"] == 0 else 1
