"""What limits the ``search`` bot: its samples of the hidden tiles, or its rollouts?

The search plays ``expert``'s best candidates forward in sampled worlds with a fast policy.
Here it is given more than a seat may know, to see what the same machinery makes of it:

* ``nothing``: the shipped search itself (its worlds sampled from the view), for comparison on
  the same deals;
* ``hands``: the others' true hands, the live wall shuffled anew for every world (a perfect
  opponent model: only the order of the draws is left to chance);
* ``all``: the true round itself, its wall in its real order (every rollout then knows the
  draws to come; the rollouts differ from the hand's real future only where a seat plays
  otherwise than the fast policy).

Two such cheating searches and two ``expert`` seats play each deal twice (2+2 seatings, as
the arena's duplicate sets); a set's difference is the cheat's mean points per hand less
``expert``'s. If even the ``all`` cheat is not far ahead of ``expert``, better samples cannot
make the honest search strong: its candidates and its rollouts are the limit.

    python -m bench.oracle_search --ruleset jiaxing --knows all --sets 300 --seed-start 9300000

A diagnostic only: no player of the hall can see what these bots see.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from baida.bots.arena import engine_seed
from baida.bots.expert import ExpertBot
from baida.bots.search import SearchBot
from baida.bots.stats import mean_ci, percentile
from baida.engine.round import Round
from baida.engine.views import View

KNOWS = ("nothing", "hands", "all")


class TrueWorlds:
    """Deals a search's worlds from the real round: copies of it, the live wall reshuffled
    unless the whole order is to be known."""

    def __init__(self, truth: Round, shuffle_wall: bool) -> None:
        self.truth = truth
        self.shuffle_wall = shuffle_wall

    def sample(self, rng: random.Random, weights: Any = None) -> Round:
        truth = self.truth
        events, pending = truth.events, truth._out
        truth.events, truth._out = [], []  # the history is not needed to play on
        try:
            world = copy.deepcopy(truth)
        finally:
            truth.events, truth._out = events, pending
        if self.shuffle_wall:
            live = world.wall[world.head:world.tail]
            rng.shuffle(live)
            world.wall[world.head:world.tail] = live
        return world


class OracleSearch(SearchBot):
    """``search`` whose worlds come from the real round (``truth``, set before each choice)."""

    def __init__(self, seed: int | None, knows: str) -> None:
        if knows not in KNOWS:
            raise ValueError(f"knows is one of {', '.join(KNOWS)}")
        # the whole order known: every world is the same, so two (and two fresh) suffice
        sizes = {"worlds": 2, "max_worlds": 4} if knows == "all" else {}
        super().__init__(seed=seed, **sizes)
        self.knows = knows
        self.truth: Round | None = None
        self.overrides = 0

    def sampler(self, view: View) -> Any:
        if self.knows == "nothing":
            return super().sampler(view)
        assert self.truth is not None, "an oracle search needs the real round"
        return TrueWorlds(self.truth, shuffle_wall=self.knows == "hands")

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        action = super().choose(view, legal_actions)
        self.overrides += self.last is not None and self.last.chosen != 0
        return action


@dataclass(slots=True)
class SetResult:
    """One deal played in both 2+2 seatings."""

    seed: int
    difference: float  # the oracle's mean points per hand less expert's
    oracle_wins: int = 0
    expert_wins: int = 0
    overrides: int = 0
    decisions_ms: list[float] = field(default_factory=list)


def play_set(ruleset: str, seed: int, knows: str) -> SetResult:
    points = {"oracle": 0, "expert": 0}
    out = SetResult(seed, 0.0)
    for rotation in (0, 1):
        rnd = Round.from_seed(ruleset, engine_seed(seed))
        names = ["oracle" if (s + rotation) % 2 == 0 else "expert" for s in range(4)]
        bots: list[Any] = [
            OracleSearch(seed * 8 + rotation * 4 + s, knows) if name == "oracle"
            else ExpertBot(seed=seed * 8 + rotation * 4 + s)
            for s, name in enumerate(names)
        ]
        while not rnd.ended:
            seat = rnd.to_act[0]
            legal = rnd.legal_actions(seat)
            bot = bots[seat]
            if len(legal) == 1:
                rnd.apply(legal[0])
                continue
            if isinstance(bot, OracleSearch):
                bot.truth = rnd
                start = time.thread_time()
                action = bot.choose(rnd.view(seat), legal)
                out.decisions_ms.append(1000 * (time.thread_time() - start))
            else:
                action = bot.choose(rnd.view(seat), legal)
            rnd.apply(action)
        assert rnd.result is not None
        for s, name in enumerate(names):
            points[name] += rnd.result.payments[s]
        winner = rnd.result.winner
        if winner is not None:
            if names[winner] == "oracle":
                out.oracle_wins += 1
            else:
                out.expert_wins += 1
        out.overrides += sum(b.overrides for b in bots if isinstance(b, OracleSearch))
    out.difference = (points["oracle"] - points["expert"]) / 4  # four seat-hands each
    return out


def _job(args: tuple[str, int, str]) -> SetResult:
    return play_set(*args)


def summary(results: Sequence[SetResult]) -> str:
    diffs = [r.difference for r in results]
    ci = mean_ci(diffs)  # the arena's interval (t-based; 1.96 from 121 sets on)
    spread = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
    seat_hands = 4 * len(results)
    ms = [ms for r in results for ms in r.decisions_ms]
    median = percentile(ms, 50) if ms else 0.0
    return (
        f"{ci.n} sets: oracle − expert {ci.mean:+.3f} [{ci.low:+.3f}, {ci.high:+.3f}] "
        f"points per hand (set SD {spread:.2f}); "
        f"wins {sum(r.oracle_wins for r in results) / seat_hands:.1%} / "
        f"{sum(r.expert_wins for r in results) / seat_hands:.1%} of seat-hands; "
        f"overrides {sum(r.overrides for r in results) / seat_hands:.3f} per seat-hand; "
        f"oracle decision CPU median {median:.1f} ms"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", choices=("jiaxing", "wenling"), default="jiaxing")
    parser.add_argument("--knows", choices=KNOWS, default="all")
    parser.add_argument("--sets", type=int, default=200)
    parser.add_argument("--seed-start", type=int, default=9_300_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    from baida.warmup import warm_tables

    warm_tables()
    jobs = [(args.ruleset, seed, args.knows)
            for seed in range(args.seed_start, args.seed_start + args.sets)]
    start = time.perf_counter()
    with Pool(args.workers, initializer=warm_tables) as pool:
        results = list(pool.imap(_job, jobs, chunksize=4))
    print(f"{args.ruleset}, the oracle knows {args.knows}, seeds {args.seed_start}-"
          f"{args.seed_start + args.sets - 1}, {time.perf_counter() - start:.0f} s")
    print(summary(results))


if __name__ == "__main__":
    main()
