"""``baida replay FILE``: re-run a game record, print the hand, check its settlement.

Exit status: 0 when the record replays (and its settlement, if given, matches), 1 when the
settlement differs or an action may not be played, 2 when the file cannot be read as a
record (unreadable, not UTF-8, bad JSON, a field of the wrong type, a malformed action...).
Errors are one JSON line ``{"error": "..."}`` on standard error; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..engine.describe import describe_event, describe_settlement
from ..engine.errors import RecordError, ReplayError
from ..engine.records import Replay, play_record, read_record
from ..jsonin import JsonInputError, error_line, load, read_input


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", help="a game record (JSON, docs/records.md); - for stdin"
    )
    parser.add_argument(
        "--json", action="store_true", help="print every event and the settlement as JSON"
    )
    parser.add_argument(
        "--review",
        action="store_true",
        help="add the expert bot's value of every decision beside its best alternative",
    )


def _error(message: str, status: int) -> int:
    print(error_line(message), file=sys.stderr)
    return status


def _review(record: Any) -> dict[str, Any]:
    """The review of ``record`` (imported only when asked for), or ``{"error": ...}``."""
    from .review import review_or_error

    return review_or_error(record, None, None)[1]


def run(args: argparse.Namespace) -> int:
    try:
        record: Any = load(read_input(args.file))
    except JsonInputError as exc:
        return _error(str(exc), 2)
    try:
        dealt = read_record(record)
    except RecordError as exc:
        return _error(f"not a valid record: {exc}", 2)
    try:
        result = play_record(*dealt)
    except ReplayError as exc:
        return _error(f"the record does not replay: {exc}", 1)
    review = _review(record) if args.review else None
    _print(result, args.json, review)
    if review is not None and "error" in review:
        print(f"review: {review['error']}", file=sys.stderr)
    if not result.matches:
        print("settlement MISMATCH:", file=sys.stderr)
        for line in result.differences():
            print("  " + line, file=sys.stderr)
        return 1
    if result.expected is None:
        print("(the record has no settlement: computed above)", file=sys.stderr)
    return 0


def _print(result: Replay, as_json: bool, review: dict[str, Any] | None) -> None:
    if as_json:
        out = {
            "events": [e.to_json() for e in result.events],
            "settlement": result.settlement,
            "matches": result.matches,
        }
        if review is not None:
            out["review"] = review
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return
    for event in result.events:
        if event.type != "hand_end":
            print(describe_event(event.to_json()))
    for line in describe_settlement(result.settlement):
        print(line)
    if review is not None and "error" not in review:
        from ..bots.review import describe_decision

        print("review (expert bot; value of each decision, best other choice):")
        for decision in review["decisions"]:
            print("  " + describe_decision(decision))
