"""How the ``search`` bot's searches look from inside: how often it overrides ``expert``, how
far apart ``expert`` rates the candidates, and how noisy one world's verdict is.

Two ``search`` seats and two ``expert`` seats play ``--hands`` hands. For every searched
decision it reports, per alternative: ``expert``'s value gap to its own choice, and the
alternative's lead over that choice in the first stage's worlds (its mean, and the standard
deviation of one world's difference, which sets how many worlds a confirmation needs); then
how many searches ended in an override, per seat-hand, and the decision CPU.

    python -m bench.search_stats --ruleset jiaxing --hands 30 --seed-start 7000000
    python -m bench.search_stats --ruleset jiaxing --hands 30 --seed-start 7000000 --horizon 3
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from baida.bots.arena import engine_seed
from baida.bots.expert import ExpertBot
from baida.bots.search import SearchBot
from baida.bots.stats import percentile
from baida.engine import Round

QUANTILES = (10, 25, 50, 75, 90, 99)


def play(ruleset: str, hands: int, seed_start: int, horizon: int | None) -> dict[str, list[float]]:
    """Play the hands; the figures of every searched decision, by name."""
    out: dict[str, list[float]] = {"gap": [], "lead": [], "world_sd": [], "ms": [],
                                   "overrides": [], "searches": []}
    for index in range(seed_start, seed_start + hands):
        rnd = Round.from_seed(ruleset, engine_seed(index))
        bots = [SearchBot(seed=4 * index + s, horizon=horizon) if s % 2 == 0
                else ExpertBot(seed=4 * index + s) for s in range(4)]
        overrides = searches = 0
        while not rnd.ended:
            seat = rnd.to_act[0]
            bot = bots[seat]
            start = time.thread_time()
            action = bot.choose(rnd.view(seat), rnd.legal_actions(seat))
            if isinstance(bot, SearchBot):
                out["ms"].append(1000 * (time.thread_time() - start))
                result = bot.last
                if result is not None:
                    searches += 1
                    overrides += result.chosen != 0
                    first = min(len(p) for p in result.payoffs)
                    for i in range(1, len(result.candidates)):
                        diffs = [a - b for a, b in zip(result.payoffs[i][:first],
                                                        result.payoffs[0][:first], strict=True)]
                        out["gap"].append(result.gap(i))
                        out["lead"].append(statistics.fmean(diffs))
                        out["world_sd"].append(statistics.pstdev(diffs))
            rnd.apply(action)
        out["overrides"].append(overrides)
        out["searches"].append(searches)
    return out


def quantiles(values: Sequence[float]) -> str:
    ordered = sorted(values)
    return "  ".join(f"p{q} {percentile(ordered, q):.2f}" for q in QUANTILES)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", choices=("jiaxing", "wenling"), default="jiaxing")
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed-start", type=int, default=7_000_000)
    parser.add_argument("--horizon", type=int,
                        help="own turns a rollout plays (default: to the hand's end)")
    args = parser.parse_args(argv)
    from baida.warmup import warm_tables

    warm_tables()
    got = play(args.ruleset, args.hands, args.seed_start, args.horizon)
    seat_hands = 2 * args.hands
    print(f"{args.ruleset}, {args.hands} hands, horizon {args.horizon or 'the end'}")
    print(f"searches {sum(got['searches'])}, overrides {sum(got['overrides'])} "
          f"({sum(got['overrides']) / seat_hands:.3f} per seat-hand)")
    print(f"expert's value gap of an alternative (points): {quantiles(got['gap'])}")
    print(f"an alternative's first-stage lead (points):    {quantiles(got['lead'])}")
    print(f"one world's difference, its SD (points):       {quantiles(got['world_sd'])}")
    print(f"decision CPU of search (ms, {len(got['ms'])} decisions): {quantiles(got['ms'])}")


if __name__ == "__main__":
    main()
