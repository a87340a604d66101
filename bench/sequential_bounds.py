"""O'Brien-Fleming boundaries of a group-sequential arena run, checked by simulation.

A run of ``looks`` equally spaced blocks claims an edge at the first look ``k`` whose z (the
paired mean over all sets so far divided by its standard error) reaches ``c * sqrt(looks / k)``.
This prints the boundaries, the share of runs with no edge that cross one anyway (the error,
two-sided), and the power against given edges for a run of ``sets`` duplicate sets whose
paired spread per set is ``sd`` points per hand (BENCHMARKS.md, "A pre-registered
head-to-head Wenling run")::

    python -m bench.sequential_bounds --looks 4 --c 2.024 --sets 80000 --sd 26 --edges 0.2,0.25,0.3
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence


def boundaries(looks: int, c: float) -> list[float]:
    """The z each look must reach: ``c * sqrt(looks / k)`` for k = 1..looks."""
    return [c * math.sqrt(looks / k) for k in range(1, looks + 1)]


def crossing_share(
    bounds: Sequence[float], drift: float, runs: int, seed: int, two_sided: bool
) -> float:
    """The share of simulated runs that cross a boundary at some look. ``drift``: the final
    look's expected z (0: no edge); each look adds an independent block of equal size."""
    rng = random.Random(seed)
    looks = len(bounds)
    step = drift / math.sqrt(looks)  # each block's share of the final expected z
    crossed = 0
    for _ in range(runs):
        total = 0.0
        for k, bound in enumerate(bounds, start=1):
            total += rng.gauss(step, 1.0)
            z = total / math.sqrt(k)
            if z >= bound or (two_sided and z <= -bound):
                crossed += 1
                break
    return crossed / runs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--looks", type=int, default=4)
    parser.add_argument("--c", type=float, default=2.024, help="the final look's boundary")
    parser.add_argument("--sets", type=int, default=80_000, help="duplicate sets at the last look")
    parser.add_argument("--sd", type=float, default=26.0, help="paired spread per set")
    parser.add_argument("--edges", default="0.2,0.25,0.3", help="edges (points per hand)")
    parser.add_argument("--runs", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    bounds = boundaries(args.looks, args.c)
    print("boundaries:", ", ".join(f"{b:.3f}" for b in bounds))
    error = crossing_share(bounds, 0.0, args.runs, args.seed, two_sided=True)
    print(f"error with no edge (two-sided), {args.runs:,} runs: {error:.4f}")
    se = args.sd / math.sqrt(args.sets)
    for edge in (float(e) for e in args.edges.split(",")):
        power = crossing_share(bounds, edge / se, args.runs, args.seed + 1, two_sided=False)
        print(f"power at an edge of {edge}: {power:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
