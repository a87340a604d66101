"""Full scores of random winning hands: Jiaxing (best reading, up to 3 百搭) and Wenling
(17 tiles, up to 2 得, three non-winner hands, settled)."""

from __future__ import annotations

import random

from baida.hand import Hand, make_meld
from baida.rules.options import jiaxing_options, wenling_options
from baida.rules.wenling_tiles import wenling_wilds_and_specials
from baida.rulesets import score
from baida.scoring.request import ScoreRequest
from baida.tiles import WILD

from .hands import winning_tiles
from .timing import Timing, each_call

MELD_SHAPES = ("chi", "pon", "mkong", "akong", "bukong")


def _split_sets(tiles: list[int], sets: int) -> tuple[list[list[int]], list[int]]:
    """The groups of a hand built by ``winning_tiles`` (sets of three, then the pair)."""
    groups = [tiles[3 * i : 3 * i + 3] for i in range(sets)]
    return groups, tiles[3 * sets :]


def _meldify(rng: random.Random, groups: list[list[int]], most: int) -> tuple[list, list[int]]:
    melds, concealed = [], []
    for group in groups:
        if len(melds) < most and rng.random() < 0.35:
            if group[0] != group[1]:
                melds.append(make_meld("chi", group))
                continue
            kind = rng.choice(MELD_SHAPES[1:])
            melds.append(make_meld(kind, group[:1]))
            continue
        concealed += group
    return melds, concealed


def _copies_ok(hand: Hand, win_tile: int | None) -> bool:
    """At most four copies of any kind once kongs have added their fourth tile."""
    tiles = hand.all_natural_tiles() + ([win_tile] if win_tile not in (None, WILD) else [])
    return all(tiles.count(k) <= 4 for k in set(tiles))


def jiaxing_requests(n: int, seed: int = 11) -> list[ScoreRequest]:
    rng = random.Random(seed)
    out: list[ScoreRequest] = []
    options = jiaxing_options()
    while len(out) < n:
        tiles = winning_tiles(rng, 4)
        if rng.random() < 0.5:  # lean toward the patterns, as real winning hands are
            suit = rng.randrange(3)
            tiles = [t if t >= 27 else suit * 9 + t % 9 for t in tiles]
            if any(tiles.count(k) > 4 for k in set(tiles)):
                continue
        groups, pair = _split_sets(tiles, 4)
        melds, concealed = _meldify(rng, groups, 3)
        concealed += pair
        rng.shuffle(concealed)
        wilds = rng.choice((0, 0, 1, 1, 2, 3))
        for i in range(min(wilds, len(concealed))):
            concealed[i] = WILD
        used = {t for t in tiles}
        indicator = rng.choice([k for k in range(34) if k not in used] or [0])
        win_tile = concealed.pop()
        if not _copies_ok(Hand(concealed, melds, []), win_tile):
            continue
        out.append(ScoreRequest(
            ruleset="jiaxing", options=options, indicator=indicator, winner=rng.randrange(4),
            hand=Hand(concealed, melds, []), win_tile=win_tile, win_by="self_draw",
            round_wind=rng.randrange(4), carry_pool=rng.choice((0, 0, 1, 2)),
        ))
    return out


def wenling_requests(n: int, seed: int = 12) -> list[ScoreRequest]:
    rng = random.Random(seed)
    options = wenling_options()
    out: list[ScoreRequest] = []
    while len(out) < n:
        indicator = rng.randrange(27)  # a suit tile: 3 得 of that kind, specials = flowers + P
        de, specials = wenling_wilds_and_specials(indicator, True)
        tiles = winning_tiles(rng, 5)
        if any(t in de or t in specials for t in tiles):
            continue
        groups, pair = _split_sets(tiles, 5)
        melds, concealed = _meldify(rng, groups, 3)
        concealed += pair
        rng.shuffle(concealed)
        for i in range(rng.choice((0, 0, 1, 2))):
            concealed[i] = WILD
        win_tile = concealed.pop()
        hand = Hand(concealed, melds, [])
        if not _copies_ok(hand, win_tile):
            continue
        flowers = rng.sample(sorted(k for k in specials if k >= 34), rng.randrange(3))
        winner = rng.randrange(4)
        left = [4] * 34
        for t in hand.all_natural_tiles() + [win_tile]:
            if t != WILD:
                left[t] -= 1
        pool = [k for k in range(34) for _ in range(left[k]) if k not in de and k not in specials]
        rng.shuffle(pool)
        others = {}
        for seat in range(4):
            if seat != winner:
                others[seat] = Hand(pool[:16], [], [])
                pool = pool[16:]
        win_by = rng.choice(("self_draw", "discard"))
        out.append(ScoreRequest(
            ruleset="wenling", options=options, indicator=indicator, winner=winner,
            hand=Hand(concealed, melds, flowers), win_tile=win_tile, win_by=win_by,
            from_seat=(winner + 1) % 4 if win_by == "discard" else None, others=others,
        ))
    return out


def run(n: int = 10_000) -> list[Timing]:
    """Each ruleset twice over the same hands: first with the tables filling as new hand
    shapes appear (cold), then again with them filled (warm, a server's steady state)."""
    results = []
    cases = (
        ("Jiaxing full score, 0-3 百搭, best reading", jiaxing_requests(n), 50.0,
         "target: median ≤ 50 µs, worst ≤ 1 ms"),
        ("Wenling score + settlement, 0-2 得, 3 non-winners", wenling_requests(n), 200.0,
         "target: median ≤ 200 µs, worst ≤ 2 ms"),
    )
    for name, requests, target, note in cases:
        results.append(each_call(f"{name} (cold tables)", score, requests, target, note))
        results.append(each_call(f"{name} (warm tables)", score, requests, target, note))
    return results
