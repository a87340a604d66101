"""Wenling non-winner ("闲家") totals (RULES.md §B4.3, W-A3 to W-A7).

A non-winner's hand is read greedily (W-A6): melds at their values, every kind with at least
three natural concealed tiles one 暗刻 (an undeclared fourth tile included), natural pairs of
the own seat wind or a 字牌 2 each, exposed specials 4 和 and 1 番 each, 门风刻 and 字牌刻 1 番.
得 count only for 四风会齐 unless ``nonwinner_de`` is ``"full"`` (then they take the faces that
score best). Seed 002 lists the 腊子 hands under the 闲家 rules as well: they total 500.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement

from ..hand import Hand
from ..rules.options import WenlingOptions
from ..rules.wenling_tiles import WenlingTiles, is_heavy
from ..tiles import DRAGONS, WINDS
from .wenling_items import (
    BASE_CONSTANT,
    CONCEALED_PUNG,
    FAN_ITEMS,
    LIMIT,
    PAIR,
    SEAT_FLOWER_ITEM,
    SIFENG,
    FanItem,
    HandFacts,
    fan_items,
    total_points,
)
from .wenling_lazi import lazi_names, nonwinner_sifeng
from .wenling_winner import BASE_ORDER, _set_facts, meld_items, special_items


@dataclass(slots=True)
class NonWinnerScore:
    """One non-winner's total and its breakdown."""

    total: int
    raw: int
    base_items: list[tuple[str, int]]
    fan_items: list[tuple[str, int]]


def _fan_table(options: WenlingOptions) -> tuple[FanItem, ...]:
    items = tuple(item for item in FAN_ITEMS if item.nonwinner)
    if options.nonwinner_seat_flower:
        items += (SEAT_FLOWER_ITEM,)
    return items


def _greedy(
    hand: Hand, seat: int, counts: dict[int, int], options: WenlingOptions
) -> NonWinnerScore:
    """Score natural concealed ``counts`` (kind -> number) with the melds and specials."""
    seat_wind = WINDS[seat]
    facts = HandFacts()
    items: dict[str, int] = {}
    if hand.melds or hand.flowers:
        for name, value in meld_items(hand, seat_wind, facts) + special_items(hand, seat, facts):
            items[name] = items.get(name, 0) + value
    for kind, n in sorted(counts.items()):
        if n < 2:
            continue
        if n >= 3:
            items[CONCEALED_PUNG.name] = items.get(CONCEALED_PUNG.name, 0) + CONCEALED_PUNG.value(
                is_heavy(kind)
            )
            _set_facts(facts, kind, seat_wind)
        elif n == 2 and (kind == seat_wind or kind in DRAGONS):
            items[PAIR.name] = items.get(PAIR.name, 0) + PAIR.value
    fans = fan_items(facts, _fan_table(options))
    base = sum(items.values())
    constant = BASE_CONSTANT if options.nonwinner_base20 else 0
    raw, total = total_points(base, sum(v for _, v in fans), constant)
    return NonWinnerScore(total, raw, [(n, items[n]) for n in BASE_ORDER if items.get(n)], fans)


def _natural_counts(hand: Hand, tiles: WenlingTiles) -> dict[int, int]:
    """Natural concealed tiles by kind (得 and unexposed specials left out)."""
    counts = Counter(hand.concealed)
    return {k: n for k, n in counts.items() if k < 34 and k not in tiles.specials}


def _full_de(
    hand: Hand, seat: int, counts: dict[int, int], tiles: WenlingTiles, options: WenlingOptions
) -> NonWinnerScore:
    """``nonwinner_de = "full"``: the 得 take the faces that give the highest total."""
    wilds = hand.wild_count
    candidates = {k for k, n in counts.items() if n < 3}
    candidates |= {WINDS[seat], 0} | set(DRAGONS)
    candidates &= tiles.faces
    best = _greedy(hand, seat, counts, options)
    for faces in combinations_with_replacement(sorted(candidates), wilds):
        trial = dict(counts)
        for face in faces:
            trial[face] = trial.get(face, 0) + 1
        scored = _greedy(hand, seat, trial, options)
        if (scored.total, scored.raw) > (best.total, best.raw):
            best = scored
    return best


def nonwinner_score(
    hand: Hand, seat: int, tiles: WenlingTiles, options: WenlingOptions
) -> NonWinnerScore:
    """The total of a non-winner at ``seat`` (before any 包三家 zeroing)."""
    limits = lazi_names(hand, seat, options)
    if options.nonwinner_sifeng_lazi and nonwinner_sifeng(hand, seat):
        limits.append(SIFENG)
    if limits:  # 满贯: the items do not change the total
        return NonWinnerScore(LIMIT, LIMIT, [], [(name, 0) for name in limits])
    counts = _natural_counts(hand, tiles)
    if options.nonwinner_de == "full" and hand.wild_count:
        return _full_de(hand, seat, counts, tiles, options)
    return _greedy(hand, seat, counts, options)
