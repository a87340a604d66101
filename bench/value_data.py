"""Self-play data for a learned value (``baida.bots.learned``).

Four ``expert`` seats play each hand (``LearnedBot`` without a model, which is ``expert``);
at every own-turn discard with more than one candidate, a seat plays a random one of
``expert``'s best three instead with chance ``--explore``. Every such decision is written:
each candidate's ``value_features`` row, which was played, whether by chance, and the
points the seat finally got. The rows of the chance decisions are what lets a model's ranking
of the candidates be checked without bias (``bench.value_train`` holds some hands out).

    python -m bench.value_data --ruleset jiaxing --hands 10000 --seed-start 8000000 \\
        --explore 0.25 --workers 2 --out /tmp/jx_value.npz
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from typing import Any

import numpy as np

from baida.bots.arena import engine_seed
from baida.bots.learned import LearnedBot
from baida.bots.value_features import FEATURES
from baida.engine.round import Round

TOP = 3  # candidates per decision: the bots' and the arrays' width


def play_hand(args: tuple[str, int, float]) -> list[tuple[Any, ...]]:
    """One hand's decisions: ``(hand, seat, rows, chosen, explored, points)`` each."""
    ruleset, seed, explore = args
    rnd = Round.from_seed(ruleset, seed=engine_seed(seed))
    bots = [LearnedBot(seed=seed * 4 + s, model=None, top=TOP, explore=explore)
            for s in range(4)]
    decisions = []
    while not rnd.ended:
        seat = rnd.to_act[0]
        bot = bots[seat]
        action = bot.choose(rnd.view(seat), rnd.legal_actions(seat))
        if bot.last is not None:
            decisions.append((seat, bot.last.rows, bot.last.chosen, bot.last.explored))
        rnd.apply(action)
    assert rnd.result is not None
    points = list(rnd.result.payments)
    return [(seed, s, rows, c, e, float(points[s])) for s, rows, c, e in decisions]


def collect(ruleset: str, hands: int, seed_start: int, explore: float,
            workers: int) -> dict[str, np.ndarray]:
    """The decisions of ``hands`` self-play hands as arrays (candidates padded with NaN)."""
    jobs = [(ruleset, seed_start + i, explore) for i in range(hands)]
    out: list[tuple] = []
    with Pool(workers) as pool:
        for i, rows in enumerate(pool.imap(play_hand, jobs, chunksize=8)):
            out.extend(rows)
            if (i + 1) % 500 == 0:
                print(f"{i + 1} hands, {len(out)} decisions", file=sys.stderr, flush=True)
    width = len(FEATURES)
    x = np.full((len(out), TOP, width), np.nan)
    for j, (_, _, rows, _, _, _) in enumerate(out):
        x[j, : len(rows)] = rows
    return {
        "x": x,
        "count": np.array([len(r[2]) for r in out]),
        "chosen": np.array([r[3] for r in out]),
        "explored": np.array([r[4] for r in out], dtype=bool),
        "points": np.array([r[5] for r in out]),
        "hand": np.array([r[0] for r in out]),
        "seat": np.array([r[1] for r in out]),
        "features": np.array(FEATURES),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="jiaxing")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed-start", type=int, default=8_000_000)
    parser.add_argument("--explore", type=float, default=0.25)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", required=True)
    a = parser.parse_args(argv)
    data = collect(a.ruleset, a.hands, a.seed_start, a.explore, a.workers)
    np.savez_compressed(a.out, **data)
    print(f"{len(data['points'])} decisions from {a.hands} hands -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
