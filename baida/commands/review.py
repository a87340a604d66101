"""``baida review RECORD``: the ``expert`` bot's value of every decision in a finished hand.

Prints the review JSON (docs/bots.md, "Review"). Exit status: 0 on success; 2 when the file is
not a readable record of a finished hand, 3 on an internal error, each with a one-line JSON
error on standard output.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..jsonin import JsonInputError, error_line, load, read_input


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "record", metavar="RECORD", help="a game record (docs/records.md); - for stdin"
    )
    parser.add_argument(
        "--seat",
        type=int,
        action="append",
        choices=range(4),
        help="review only this seat (repeatable)",
    )
    parser.add_argument(
        "--budget-ms", type=float, default=None, help="the bot's time budget (default: its own)"
    )


def load_record(path: str) -> Any:
    """The record's JSON; ``JsonInputError`` (a ``ValueError``) with a one-line reason when it
    cannot be read: the same reading as ``baida score`` and ``baida replay``."""
    return load(read_input(path))


def review_or_error(
    record: Any, seats: set[int] | None, budget_ms: float | None
) -> tuple[int, Any]:
    """(exit status, JSON to print): the review, or ``{"error": ...}`` with status 2."""
    from ..bots.review import review_record
    from ..engine.errors import EngineError

    try:
        return 0, review_record(record, seats, budget_ms)
    except (EngineError, ValueError) as exc:
        return 2, {"error": f"not a reviewable record: {exc}"}
    except Exception as exc:  # a bug of ours: still one line, never a traceback
        return 3, {"error": f"internal error while reviewing: {exc!r}"}


def run(args: argparse.Namespace) -> int:
    if args.budget_ms is not None and args.budget_ms <= 0:
        print(json.dumps({"error": "--budget-ms must be positive"}))
        return 2
    try:
        record = load_record(args.record)
    except JsonInputError as exc:
        print(error_line(str(exc)))
        return 2
    status, out = review_or_error(record, set(args.seat) if args.seat else None, args.budget_ms)
    if status:
        print(error_line(out["error"]))
    else:
        print(json.dumps(out, ensure_ascii=False, indent=1))
    return status
