"""The evaluator of an older commit beside the working tree's, in one process, interleaved.

``baida/evaluator`` of ``REV`` (default 4b83938, before the part rows and live vectors of
issue 33) is read out of git into a temporary package and timed against the current one on the
same hands, five rounds of alternating three-batch runs, by this thread's CPU clock; each side's
figure is its fastest round (the one least disturbed by other work on a shared machine).

    python -m bench.evaluator_ab [REV] [-n HANDS]
"""

from __future__ import annotations

import argparse
import importlib
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .evaluator_bench import _beside_kong
from .hands import counts, quad_tiles, random_tiles, ready_quad_tiles, ready_tiles

ROOT = Path(__file__).resolve().parent.parent


def _old_evaluator(rev: str, into: Path) -> Any:
    """``baida.evaluator`` of ``rev`` as the package ``evaluator_<rev>`` (relative imports only)."""
    name = f"evaluator_{rev}"
    names = subprocess.run(["git", "ls-tree", "--name-only", rev, "baida/evaluator/"], cwd=ROOT,
                           check=True, capture_output=True, text=True).stdout.split()
    (into / name).mkdir()
    for path in names:
        source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True,
                                capture_output=True, text=True).stdout
        (into / name / Path(path).name).write_text(source)
    sys.path.insert(0, str(into))
    return importlib.import_module(name)


def _cases(n: int) -> dict[str, tuple[list[Any], Callable[[Any], Callable[[Any], Any]]]]:
    rng = random.Random(7)
    on_counts = {
        "win test, 14 tiles": ([counts(random_tiles(rng, 14)) for _ in range(n)], "is_complete"),
        "shanten, 13 tiles": ([counts(random_tiles(rng, 13)) for _ in range(n)], "shanten"),
        "waits, 13 tiles": ([counts(random_tiles(rng, 13)) for _ in range(n)], "waits"),
        "waits, 13 tiles one from a win": ([counts(ready_tiles(rng)) for _ in range(n)], "waits"),
        "shanten, 13 tiles holding a quad": ([counts(quad_tiles(rng, 1)) for _ in range(n)],
                                             "shanten"),
        "shanten, 13 tiles holding two quads": ([counts(quad_tiles(rng, 2)) for _ in range(n)],
                                                "shanten"),
        "shanten, 13 tiles one from a win holding a quad":
            ([counts(ready_quad_tiles(rng)) for _ in range(n // 5)], "shanten"),
    }
    out: dict[str, tuple[list[Any], Callable[[Any], Callable[[Any], Any]]]] = {
        name: (inputs, lambda module, fn=fn: getattr(module, fn))
        for name, (inputs, fn) in on_counts.items()
    }
    out["waits, 13 tiles one from a win, 2 wilds"] = (
        [(counts(ready_tiles(rng)[2:]), 2) for _ in range(n)],
        lambda module: lambda h: module.waits(h[0], h[1]))
    out["shanten, 10 tiles beside a kong (visible)"] = (
        [_beside_kong(rng) for _ in range(n)], lambda module: lambda h: module.shanten(*h))
    return out


def _batch_mean(fn: Callable[[Any], Any], inputs: list[Any], batches: int = 3) -> float:
    best = float("inf")
    for _ in range(batches):
        start = time.thread_time_ns()
        for item in inputs:
            fn(item)
        best = min(best, (time.thread_time_ns() - start) / len(inputs) / 1000)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.evaluator_ab")
    parser.add_argument("rev", nargs="?", default="4b83938")
    parser.add_argument("-n", type=int, default=5000)
    args = parser.parse_args(argv)
    import baida.evaluator as new

    with tempfile.TemporaryDirectory() as tmp:
        old = _old_evaluator(args.rev, Path(tmp))
        print(f"| measurement | {args.rev} µs | now µs | speed-up |")
        print("|---|---|---|---|")
        for name, (inputs, get) in _cases(args.n).items():
            before, after = get(old), get(new)
            for item in inputs[:2000]:
                before(item)
                after(item)  # fill both sides' tables
            rounds = [(_batch_mean(before, inputs), _batch_mean(after, inputs)) for _ in range(5)]
            a, b = min(r[0] for r in rounds), min(r[1] for r in rounds)
            print(f"| {name} | {a:.3g} | {b:.3g} | {a / b:.1f}× |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
