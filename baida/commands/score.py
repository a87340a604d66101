"""``baida score [FILE]``: settle finished hands given as JSON (``SCORING_API.md``).

One object in gives one object out; an array in gives an array out, in order. Malformed input
(unreadable or non-UTF-8 input, bad JSON, an unknown field, tile or option, a hand of the
wrong size...) exits with status 2 and prints one line ``{"error": "..."}`` naming the
field, with the array index first for arrays. Never a traceback.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..jsonin import JsonInputError, error_line, load, read_input
from ..quote import quote
from ..rulesets import parse_request, score
from ..scoring.request import ScoreInputError

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_MALFORMED = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="a JSON file with one hand (an object) or several (an array); default: stdin",
    )


def _emit(value: Any) -> None:
    if isinstance(value, dict) and set(value) == {"error"}:
        print(error_line(str(value["error"])))
        return
    print(json.dumps(value, ensure_ascii=False, indent=2))


def score_text(text: str) -> tuple[int, Any]:
    """Score a JSON document: (exit status, the object or array to print)."""
    try:
        data = load(text)
    except JsonInputError as exc:
        return EXIT_MALFORMED, {"error": str(exc)}
    if isinstance(data, list):
        results = []
        for index, obj in enumerate(data):
            status, result = _score_one(obj, f"[{index}].")
            if status != EXIT_OK:
                return status, result
            results.append(result)
        return EXIT_OK, results
    return _score_one(data, "")


def _score_one(obj: Any, where: str) -> tuple[int, Any]:
    try:
        return EXIT_OK, score(parse_request(obj))
    except ScoreInputError as exc:
        return EXIT_MALFORMED, {"error": f"{where}{exc}"}
    except Exception as exc:  # a bug, not the input's fault: still one line, no traceback
        detail = quote(str(exc), 80)
        return EXIT_INTERNAL, {
            "error": f"{where}internal error while scoring: {type(exc).__name__}({detail})"
        }


def run(args: argparse.Namespace) -> int:
    try:
        text = read_input(args.file)
    except JsonInputError as exc:
        _emit({"error": str(exc)})
        return EXIT_MALFORMED
    status, value = score_text(text)
    _emit(value)
    return status
