"""Filling the evaluator and scorer tables before the first hand, so no player waits for it.

The tables of ``baida.evaluator`` and the scorers' caches fill at first use (see
``docs/evaluator.md``). ``warm_tables`` plays a few hands of each ruleset with fixed seeds:
random players touch many count vectors in the win tests, and an ``efficient`` player the
shanten and pattern tables the bots use.
"""

from __future__ import annotations

import hashlib
import time


def warm_tables(random_hands: int = 20, bot_hands: int = 1) -> float:
    """Play the warm-up hands of every ruleset; returns the seconds it took."""
    from .bots.policy import make_bot
    from .engine import Round
    from .rulesets import names

    start = time.perf_counter()
    for ruleset in names():
        for name, count in (("random", random_hands), ("efficient", bot_hands)):
            for n in range(count):
                seed = hashlib.sha256(f"baida-warmup:{ruleset}:{name}:{n}".encode()).digest()
                rnd = Round.from_seed(ruleset, seed)
                bots = [make_bot(name, seed=s) for s in range(4)]
                while not rnd.ended:
                    seat = rnd.to_act[0]
                    rnd.apply(bots[seat].choose(rnd.view(seat), rnd.legal_actions(seat)))
    return time.perf_counter() - start
