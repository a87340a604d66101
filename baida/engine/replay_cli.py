"""``baida replay FILE``: re-run a game record, print the hand, check its settlement.

Exit status: 0 when the record replays (and its settlement, if given, matches), 1 when the
settlement differs or an action does not replay, 2 when the file cannot be read as a record.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .describe import describe_event, describe_settlement
from .errors import RecordError
from .records import replay, start_round


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


def _load(path: str) -> Any:
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _review(record: Any) -> dict[str, Any]:
    """The review of ``record`` (imported only when asked for), or ``{"error": ...}``."""
    from ..bots.review_cli import review_or_error

    return review_or_error(record, None, None)[1]


def run(args: argparse.Namespace) -> int:
    try:
        record = _load(args.file)
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as exc:
        print(f"{args.file} is not JSON: {exc}", file=sys.stderr)
        return 2
    try:
        start_round(record)
    except RecordError as exc:
        print(f"not a valid record: {exc}", file=sys.stderr)
        return 2
    try:
        result = replay(record)
    except RecordError as exc:
        print(f"the record does not replay: {exc}", file=sys.stderr)
        return 1
    review = _review(record) if args.review else None
    if args.json:
        out = {
            "events": [e.to_json() for e in result.events],
            "settlement": result.settlement,
            "matches": result.matches,
        }
        if review is not None:
            out["review"] = review
        print(json.dumps(out, ensure_ascii=False, indent=1))
    else:
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
