"""Win test, shanten and waits: baida beside the mahjong, xiangting, riichienv and cmajiang
packages, on the same hands in the same run.

The anchors answer riichi questions (seven pairs and thirteen orphans count for them, and no
wild tiles); baida answers for sets and a pair only, a kind held four times never a wait or a
tile to come. ``xiangting``'s ``calculate_necessary_tiles`` gives a ready hand's waits as a
bit set (with its replacement number), ``riichienv``'s ``HandEvaluator.get_waits`` the list.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from baida.evaluator import held_copies, is_complete, shanten, waits

from .hands import (
    counts,
    quad_tiles,
    random_tiles,
    ready_quad_tiles,
    ready_tiles,
    tenhou_string,
    tiles136,
    wild_win_hands,
    win_test_hands,
)
from .timing import Timing, per_call


def _anchors() -> dict[str, Any]:
    import cmajiang
    import riichienv
    import xiangting
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten

    return {"cmajiang": cmajiang, "riichienv": riichienv, "xiangting": xiangting,
            "agari": Agari(), "shanten": Shanten()}


def run(n: int = 10_000) -> list[Timing]:
    a = _anchors()
    return _win_tests(a, n) + _shanten(a, n) + _waits(a, n) + _quads(a, n)


def _win_tests(a: dict[str, Any], n: int) -> list[Timing]:
    win_tiles = win_test_hands(n)
    win_counts = [counts(t) for t in win_tiles]
    win_136 = [tiles136(t) for t in win_tiles]
    expected = [is_complete(c) for c in win_counts]
    agari, xiangting, riichienv = a["agari"], a["xiangting"], a["riichienv"]
    assert [agari.is_agari(c) for c in win_counts] == expected, "anchors disagree with baida"
    four = xiangting.PlayerCount.FOUR
    wild_hands = wild_win_hands(n, wilds=3)
    return [
        per_call("win test, 14 tiles, no wilds: baida", is_complete, win_counts, target_us=1.2),
        per_call("  mahjong (Python)", agari.is_agari, win_counts),
        per_call("  xiangting (Rust)",
                 lambda c: xiangting.calculate_replacement_number(c, four) == 0, win_counts),
        per_call("  riichienv (Rust)", lambda t: riichienv.calculate_shanten(t) == -1, win_136),
        per_call("win test, 14 tiles with 3 wilds: baida", lambda h: is_complete(h[0], h[1]),
                 wild_hands, target_us=3.0, note="no anchor supports wilds"),
    ]


def _shanten(a: dict[str, Any], n: int) -> list[Timing]:
    rng = random.Random(3)
    hands13 = [random_tiles(rng, 13) for _ in range(n)]
    counts13 = [counts(t) for t in hands13]
    shoupai = [a["cmajiang"].Shoupai(tenhou_string(t)) for t in hands13]
    return [
        per_call("shanten, 13 tiles, no wilds: baida", shanten, counts13, target_us=2.5),
        per_call("  mahjong (Python)", a["shanten"].calculate_shanten_for_regular_hand,
                 counts13[: n // 5]),
        per_call("  cmajiang (C++)", a["cmajiang"].xiangting, shoupai),
        *_rust_shanten(a, hands13),
        per_call("shanten, 13 tiles with 2 wilds: baida", lambda h: shanten(h[0], h[1], 4),
                 [(counts(random_tiles(rng, 11)), 2) for _ in range(n)]),
    ]


def _rust_shanten(a: dict[str, Any], hands: list[list[int]]) -> list[Timing]:
    xiangting, four = a["xiangting"], a["xiangting"].PlayerCount.FOUR
    return [
        per_call("  xiangting (Rust)", lambda c: xiangting.calculate_replacement_number(c, four),
                 [counts(t) for t in hands]),
        per_call("  riichienv (Rust)", a["riichienv"].calculate_shanten,
                 [tiles136(t) for t in hands]),
    ]


def _rust_waits(a: dict[str, Any], hands: list[list[int]]) -> list[Timing]:
    xiangting, four = a["xiangting"], a["xiangting"].PlayerCount.FOUR
    evaluator = a["riichienv"].HandEvaluator
    return [
        per_call("  xiangting (Rust)", lambda c: xiangting.calculate_necessary_tiles(c, four),
                 [counts(t) for t in hands]),
        per_call("  riichienv (Rust)", lambda t: evaluator(t).get_waits(),
                 [tiles136(t) for t in hands]),
    ]


def _waits(a: dict[str, Any], n: int) -> list[Timing]:
    rng = random.Random(4)
    random13 = [random_tiles(rng, 13) for _ in range(n)]
    ready13 = [ready_tiles(rng) for _ in range(n)]
    wild13 = [(counts(t[2:]), 2) for t in (ready_tiles(rng) for _ in range(n))]
    return [
        per_call("waits, 13 tiles, no wilds: baida", waits, [counts(t) for t in random13],
                 target_us=3.0),
        *_rust_waits(a, random13),
        per_call("waits, 13 tiles one from a win: baida", waits, [counts(t) for t in ready13],
                 target_us=3.0),
        *_rust_waits(a, ready13),
        per_call("waits, 13 tiles one from a win, 2 of them wilds: baida",
                 lambda h: waits(h[0], h[1]), wild13, target_us=3.0,
                 note="no anchor supports wilds"),
    ]


def _quads(a: dict[str, Any], n: int) -> list[Timing]:
    """Shanten of hands holding kinds four times, and of hands beside a kong (``visible``)."""
    rng = random.Random(5)
    plain = per_call("shanten, 13 tiles, no wilds (the 5x reference): baida", shanten,
                     [counts(random_tiles(rng, 13)) for _ in range(n)])
    limit = 5 * (plain.cpu_us or plain.median_us)  # by CPU time: the wall clock counts waiting
    out = [plain]
    cases: list[tuple[str, list[list[int]], Callable[[Any], Any] | None, list[Any] | None]] = [
        ("shanten, 13 tiles holding a quad", [quad_tiles(rng, 1) for _ in range(n)], None, None),
        ("shanten, 13 tiles holding two quads", [quad_tiles(rng, 2) for _ in range(n)], None,
         None),
        ("shanten, 14 tiles holding a quad", [quad_tiles(rng, 1, 14) for _ in range(n)], None,
         None),
        ("shanten, 13 tiles one from a win holding a quad",
         [ready_quad_tiles(rng) for _ in range(n // 5)], None, None),
    ]
    kong = [_beside_kong(rng) for _ in range(n)]
    cases.append(("shanten, 10 tiles beside a kong (visible)", [], lambda h: shanten(*h), kong))
    for name, hands, fn, inputs in cases:
        if fn is None:
            out.append(per_call(f"{name}: baida", shanten, [counts(t) for t in hands],
                                target_us=limit, note="target: 5x the plain hand's CPU median"))
            out += _rust_shanten(a, hands)
        else:
            out.append(per_call(f"{name}: baida", fn, inputs or [], target_us=limit,
                                note="target: 5x the plain hand's CPU median; no anchor"))
    return out


def _beside_kong(rng: random.Random) -> tuple[list[int], int, int, list[int]]:
    """Ten concealed tiles of a hand one from a win beside an exposed kong: (counts, wilds,
    sets, visible) as the engine would pass them."""
    while True:
        tiles = ready_tiles(rng, 3)
        kong = rng.randrange(34)
        if kong not in tiles:
            hand = counts(tiles)
            return hand, 0, 3, held_copies(hand, [(kong,) * 4])
