"""``baida score [FILE]``: settle finished hands given as JSON (``SCORING_API.md``).

One object in gives one object out; an array in gives an array out, in order. Malformed input
(bad JSON, an unknown field, tile or option, a hand of the wrong size...) exits with status 2
and prints ``{"error": "..."}`` naming the field, with the array index first for arrays.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import score
from .parse import parse_request
from .request import ScoreInputError

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


def _read(path: str | None) -> str:
    if path is None or path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _emit(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


def _fail(message: str) -> int:
    _emit({"error": message})
    return EXIT_MALFORMED


def score_text(text: str) -> tuple[int, Any]:
    """Score a JSON document: (exit status, the object or array to print)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return EXIT_MALFORMED, {"error": f"bad JSON: {exc.msg} at line {exc.lineno}"
                                         f" column {exc.colno}"}
    except RecursionError:
        return EXIT_MALFORMED, {"error": "bad JSON: nested too deeply"}
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
        return EXIT_INTERNAL, {"error": f"{where}internal error while scoring: {exc!r}"}


def run(args: argparse.Namespace) -> int:
    try:
        text = _read(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return _fail(f"cannot read {args.file}: {reason}")
    status, value = score_text(text)
    _emit(value)
    return status
