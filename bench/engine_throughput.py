"""Engine throughput: full hands self-played by random-legal bots, hands per second on one core.

``run(ruleset, hands)`` deals ``hands`` hands from fixed seeds (``baida-wall-v1``), lets four
``RandomBot``s play every decision through ``legal_actions``/``apply`` until each hand ends,
and returns hands per second. Targets: Jiaxing >= 300, Wenling >= 150.

    python -m bench.engine_throughput [HANDS]   # by the wall clock and by CPU time
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from baida.bots.random_bot import RandomBot
from baida.engine import Round


def play_hand(ruleset: str, index: int) -> Round:
    """One hand from the fixed seed ``index``, played to its end by seeded random bots."""
    rnd = Round.from_seed(ruleset, b"bench-" + index.to_bytes(4, "big"))
    bots = [RandomBot(index * 4 + seat) for seat in range(4)]
    while not rnd.ended:
        seat = rnd.to_act[0]
        rnd.apply(bots[seat].choose(None, rnd.legal_actions(seat)))
    return rnd


def run(ruleset: str, hands: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """Hands per second of random-legal self-play over ``hands`` fixed-seed hands, timed by
    ``clock`` (``time.thread_time``: by the CPU time of this thread, on a shared machine)."""
    return run_both(ruleset, hands, clock)[0]


def run_both(ruleset: str, hands: int, clock: Callable[[], float] = time.perf_counter
             ) -> tuple[float, float]:
    """Hands per second by ``clock`` and by this thread's CPU time, over the same run."""
    play_hand(ruleset, 0)  # warm the evaluator tables and imports
    start, start_cpu = clock(), time.thread_time()
    for index in range(hands):
        play_hand(ruleset, index)
    return hands / (clock() - start), hands / (time.thread_time() - start_cpu)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    hands = int(args[0]) if args else 1000
    for ruleset, target in (("jiaxing", 300), ("wenling", 150)):
        rate, cpu = run_both(ruleset, hands)
        print(f"{ruleset}: {rate:,.0f} hands/s by the wall clock, {cpu:,.0f} by CPU time"
              f" (target {target})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
