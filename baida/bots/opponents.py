"""What one seat can read about each opponent: how likely they are to win the hand, what their
win would cost, and how likely they are to claim a given discard.

The win chances come from self-play (``bench/calibrate_opponents.py``): over hands of four
``strong`` bots, the share of seat-turns with ``m`` exposed melds and about ``r`` tiles left in
the wall whose seat went on to win the hand. Values are read from the exposed melds and
flowers (a one-suit run of claims is a flush in the making, 对对和 when every meld is a 碰,
dragons and winds, Wenling specials). Claim chances are hypergeometric: the chance that the
opponent's concealed tiles, drawn from the tiles this seat has not seen, hold the pair a 碰
needs or the two neighbours a 吃 needs, times how well the tile fits the hand their melds show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Any

from ..hand import Meld
from ..rulesets import Jiaxing, Ruleset, Wenling
from ..tiles import EAST, parse_tile
from .efficiency import RUN_PARTNERS
from .features import Seen
from .targets import DRAGONS, JIAXING_PATTERN_TAI, wenling_total

# P(seat wins the hand) by exposed melds (0-4) and wall tiles left // 8, from self-play of four
# ``strong`` bots (150 hands per ruleset: ``bench/calibrate_opponents.py --measure wins
# --hands 150``); rows are melds.
JIAXING_WIN_CHANCE: tuple[tuple[float, ...], ...] = (
    (0.000, 0.000, 0.000, 0.012, 0.146, 0.184, 0.180, 0.192, 0.207, 0.227, 0.234),
    (0.061, 0.132, 0.171, 0.225, 0.238, 0.220, 0.228, 0.231, 0.250, 0.237, 0.249),
    (0.088, 0.169, 0.179, 0.219, 0.195, 0.230, 0.246, 0.268, 0.266, 0.357, 0.360),
    (0.110, 0.202, 0.272, 0.263, 0.315, 0.320, 0.354, 0.431, 0.521, 0.521, 0.360),
    (0.211, 0.254, 0.391, 0.265, 0.455, 0.405, 0.450, 0.431, 0.521, 0.521, 0.360),
)
WENLING_WIN_CHANCE: tuple[tuple[float, ...], ...] = (
    (0.000, 0.000, 0.000, 0.273, 0.298, 0.259, 0.197, 0.217, 0.244, 0.247),
    (0.000, 0.000, 0.238, 0.225, 0.215, 0.229, 0.262, 0.273, 0.274, 0.286),
    (0.000, 0.000, 0.272, 0.278, 0.209, 0.249, 0.278, 0.285, 0.240, 0.236),
    (0.000, 0.000, 0.272, 0.379, 0.391, 0.304, 0.310, 0.367, 0.352, 0.236),
    (0.000, 0.000, 0.272, 0.379, 0.391, 0.304, 0.310, 0.367, 0.352, 0.236),
)

WIN_CHANCE: dict[type[Ruleset], tuple[tuple[float, ...], ...]] = {
    Jiaxing: JIAXING_WIN_CHANCE,  # measured per ruleset; a variant reads its parent's
    Wenling: WENLING_WIN_CHANCE,
}

JIAXING_VALUE_SCALE = 1.2  # what opponents' wins cost against the melds' estimate (measured
# 1.4 in strong self-play, part of it the 承包 multipliers the expert prices separately)
PLAIN_WANT = 0.55  # chance an opponent holding the pair / neighbours actually claims
FITS_WANT = 0.95  # ... when the tile fits the pattern their melds show
SHOWN_WANT = 0.25  # ... when they discarded that kind themselves


@dataclass(frozen=True, slots=True)
class OpponentRead:
    """One opponent as this seat sees it."""

    seat: int
    melds: tuple[Meld, ...]
    melds_count: int  # exposed melds, face-down kongs included
    discards: tuple[int, ...]
    concealed: int
    gave_up: bool
    can_win: bool
    suit: int | None  # the one suit of their suited melds, when all share it
    honours: bool  # an honour meld is shown
    chi: bool  # a 吃 is shown
    win_chance: float  # P(they win this hand) before this seat's choice
    value: float  # what each payer pays them if they win (Jiaxing share, Wenling T/10)

    def fits(self, kind: int) -> bool:
        """Whether ``kind`` fits the hand their melds show (a flush, or honours)."""
        if self.melds_count == 0:
            return False
        if kind >= 27:
            return self.suit is None or not self.chi
        return self.suit == kind // 9


def win_chance_table(rules: Ruleset, melds: int, wall_remaining: int) -> float:
    """P(a seat with ``melds`` exposed melds wins the hand), ``wall_remaining`` tiles left."""
    table = rules.pick(WIN_CHANCE)
    row = table[min(melds, len(table) - 1)]
    return row[min(wall_remaining // 8, len(row) - 1)]


def read_opponents(seen: Seen, view: Mapping[str, Any]) -> list[OpponentRead]:
    """Every other seat's read, in seat order."""
    out = []
    for p in seen.players:
        if p.seat == seen.seat:
            continue
        flowers = [parse_tile(f) for f in view["players"][p.seat].get("flowers") or []]
        suits = {m.tile // 9 for m in p.melds if m.tile < 27}
        count = len(p.melds) + p.hidden_kongs
        can_win = not p.gave_up or bool(seen.options.get("gaveup_can_win"))
        can_win = can_win and not p.discarded_wild
        chance = win_chance_table(seen.rules, count, seen.wall_remaining) if can_win else 0.0
        if seen.rules.unit == "tai":
            value = jiaxing_opponent_value(p.melds, seen, p.seat)
        else:
            value = wenling_opponent_value(p.melds, flowers, seen, p.seat)
        out.append(
            OpponentRead(
                seat=p.seat,
                melds=tuple(p.melds),
                melds_count=count,
                discards=tuple(p.discards),
                concealed=p.concealed_count,
                gave_up=p.gave_up,
                can_win=can_win,
                suit=next(iter(suits)) if len(suits) == 1 else None,
                honours=any(m.tile >= 27 for m in p.melds),
                chi=any(m.kind == "chi" for m in p.melds),
                win_chance=chance,
                value=value,
            )
        )
    return out


def _seat_wind(seen: Seen, seat: int) -> int:
    return EAST + (seat - seen.dealer) % 4


def jiaxing_opponent_value(melds: Sequence[Meld], seen: Seen, seat: int) -> float:
    """Expected share ``s`` (tai × 2^fan) of a Jiaxing win by ``seat``, from its melds."""
    suits = {m.tile // 9 for m in melds if m.tile < 27}
    honours = any(m.tile >= 27 for m in melds)
    pons_only = bool(melds) and all(m.kind != "chi" for m in melds)
    if len(suits) == 1 and not honours:
        tai = 0.5 * JIAXING_PATTERN_TAI["qingyise"] + 0.5 * JIAXING_PATTERN_TAI["hunyise"]
    elif len(suits) <= 1:
        tai = float(JIAXING_PATTERN_TAI["hunyise"])
    else:
        tai = float(JIAXING_PATTERN_TAI["duiduihe"])
    if pons_only and len(melds) >= 2:
        tai += 0.5 * JIAXING_PATTERN_TAI["duiduihe"]
    wind = _seat_wind(seen, seat)
    for m in melds:
        if m.kind != "chi" and m.tile >= 27:
            tai += (m.tile in DRAGONS) + (m.tile == wind) + (m.tile == seen.round_wind)
    tai += 0.6  # concealed honour triplets, 无百搭 and the like, on average
    fan = 0.35 + min(seen.carry_pool, 1)  # three 百搭 and the carried 黄番
    return JIAXING_VALUE_SCALE * tai * 2**fan


_MELD_BASE = {"pon": (4, 2), "mkong": (16, 8), "bukong": (16, 8), "akong": (32, 16)}


def wenling_opponent_value(
    melds: Sequence[Meld], flowers: Sequence[int], seen: Seen, seat: int
) -> float:
    """Expected T/10 of a Wenling win by ``seat``, from its melds and exposed flowers."""
    wind = _seat_wind(seen, seat)
    specials = [f for f in flowers if f in seen.special_faces and f < 34]  # 白板 (or C/F)
    own_flowers = {34 + wind - EAST, 38 + wind - EAST}
    base = 4.0 * len(specials) + 10.0  # concealed sets and wait items, on average
    fan = float(len(specials)) + sum(1 for f in flowers if f in own_flowers) + 0.6
    for m in melds:
        if m.kind == "chi":
            continue
        heavy, light = _MELD_BASE[m.kind]
        base += heavy if (m.tile >= 27 or m.tile % 9 in (0, 8)) else light
        if m.tile == wind or (m.tile in DRAGONS and m.tile not in seen.special_faces):
            fan += 1
    suits = {m.tile // 9 for m in melds if m.tile < 27}
    if len(melds) >= 2 and len(suits) == 1:
        fan += 1.5  # a flush in the making
    if len(melds) >= 2 and all(m.kind != "chi" for m in melds):
        fan += 1.0  # 对对和 in the making
    return wenling_total(base, fan) / 10


@lru_cache(maxsize=4096)
def holds_at_least(pool: int, copies: int, hand: int, need: int) -> float:
    """P(a hand of ``hand`` tiles drawn from ``pool`` holds ``need`` or more of ``copies``)."""
    if need <= 0:
        return 1.0
    if copies < need or hand < need or pool <= 0:
        return 0.0
    hand = min(hand, pool)
    total = comb(pool, hand)
    miss = sum(comb(copies, i) * comb(pool - copies, hand - i) for i in range(need))
    return max(0.0, 1.0 - miss / total)


def _want(opp: OpponentRead, kind: int) -> float:
    if kind in opp.discards:
        return SHOWN_WANT
    return FITS_WANT if opp.fits(kind) else PLAIN_WANT


def pon_chance(seen: Seen, opp: OpponentRead, kind: int) -> float:
    """P(``opp`` claims ``kind`` by 碰 if this seat discards it now)."""
    if opp.gave_up or kind >= 34 or kind in seen.wild_faces:
        return 0.0
    if seen.rules.pattern_needed and opp.chi and opp.suit is not None and kind < 27:
        if kind // 9 != opp.suit:
            return 0.0  # a 台头和 hand with a 吃 is a flush: other suits are useless
    held = holds_at_least(seen.unseen, seen.live[kind], opp.concealed, 2)
    return held * _want(opp, kind)


def chi_chance(seen: Seen, opp: OpponentRead, kind: int) -> float:
    """P(``opp``, this seat's 下家, claims ``kind`` by 吃)."""
    if opp.gave_up or kind >= 27 or kind in seen.wild_faces:
        return 0.0
    if opp.seat != (seen.seat + 1) % 4 or not seen.options.get("allow_chi", True):
        return 0.0
    suit = kind // 9
    if seen.rules.pattern_needed:  # 台头和: only a flush wants a suit tile
        if opp.melds_count and opp.suit != suit:
            return 0.0
        if not opp.melds_count:
            return 0.3 * _chi_shape(seen, opp, kind)  # only a flush in this suit wants it
    if opp.suit is not None and opp.suit != suit and not seen.rules.pattern_needed:
        return 0.3 * _chi_shape(seen, opp, kind)
    return _chi_shape(seen, opp, kind) * _want(opp, kind)


def _chi_shape(seen: Seen, opp: OpponentRead, kind: int) -> float:
    miss_all = 1.0
    for a, b in RUN_PARTNERS[kind]:
        pa = holds_at_least(seen.unseen, seen.live[a], opp.concealed, 1)
        pb = holds_at_least(seen.unseen, seen.live[b], opp.concealed, 1)
        miss_all *= 1 - pa * pb
    return 1 - miss_all
