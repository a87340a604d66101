"""Win test and shanten: baida beside the mahjong, xiangting, riichienv and cmajiang packages."""

from __future__ import annotations

import random

from baida.evaluator import is_complete, shanten

from .hands import counts, random_tiles, tenhou_string, tiles136, wild_win_hands, win_test_hands
from .timing import Timing, per_call


def run(n: int = 10_000) -> list[Timing]:
    import cmajiang
    import riichienv
    import xiangting
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten

    results: list[Timing] = []
    win_tiles = win_test_hands(n)
    win_counts = [counts(t) for t in win_tiles]
    win_136 = [tiles136(t) for t in win_tiles]
    expected = [is_complete(c) for c in win_counts]
    agari = Agari()
    assert [agari.is_agari(c) for c in win_counts] == expected, "anchors disagree with baida"
    four = xiangting.PlayerCount.FOUR

    results.append(per_call("win test, 14 tiles, no wilds: baida", is_complete, win_counts,
                            target_us=1.2))
    results.append(per_call("  mahjong (Python)", agari.is_agari, win_counts))
    results.append(per_call("  xiangting (Rust)",
                            lambda c: xiangting.calculate_replacement_number(c, four) == 0,
                            win_counts))
    results.append(per_call("  riichienv (Rust)",
                            lambda t: riichienv.calculate_shanten(t) == -1, win_136))

    rng = random.Random(3)
    hands13 = [random_tiles(rng, 13) for _ in range(n)]
    counts13 = [counts(t) for t in hands13]
    shoupai = [cmajiang.Shoupai(tenhou_string(t)) for t in hands13]
    calc = Shanten()
    results.append(per_call("shanten, 13 tiles, no wilds: baida", shanten, counts13,
                            target_us=2.5))
    results.append(per_call("  mahjong (Python)", calc.calculate_shanten_for_regular_hand,
                            counts13[: n // 5]))
    results.append(per_call("  cmajiang (C++)", cmajiang.xiangting, shoupai))
    results.append(per_call("  xiangting (Rust)",
                            lambda c: xiangting.calculate_replacement_number(c, four), counts13))
    results.append(per_call("  riichienv (Rust)", riichienv.calculate_shanten,
                            [tiles136(t) for t in hands13]))

    wild_hands = wild_win_hands(n, wilds=3)
    results.append(per_call("win test, 14 tiles with 3 wilds: baida",
                            lambda h: is_complete(h[0], h[1]), wild_hands, target_us=3.0,
                            note="no anchor supports wilds"))
    results.append(per_call("shanten, 13 tiles with 2 wilds: baida",
                            lambda h: shanten(h[0], h[1], 4),
                            [(counts(random_tiles(rng, 11)), 2) for _ in range(n)]))
    return results
