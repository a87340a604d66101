"""Wenling 满贯 hands: the 腊子 (RULES.md §B3) and 四风会齐 of a non-winner (§B4.3)."""

from __future__ import annotations

from ..hand import Hand
from ..rules.options import WenlingOptions
from ..rules.wenling_tiles import BLACK_FLOWERS, RED_FLOWERS
from ..tiles import DRAGONS, GREEN, RED, WHITE, WILD, WINDS
from .wenling_items import (
    LAZI_BLACK_FLOWERS,
    LAZI_DRAGON_KONG,
    LAZI_FOUR_SPECIALS,
    LAZI_RED_FLOWERS,
    LAZI_SEAT_WIND_KONG,
    LAZI_THREE_WILDS,
)


def lazi_names(hand: Hand, seat: int, options: WenlingOptions) -> list[str]:
    """The 腊子 conditions ``hand`` meets (empty if none).

    * 3张得: all three 得 in the concealed hand;
    * 4张红花 / 4张黑花: the four flowers of one group exposed;
    * 4张白板: four exposed 白板, or (W-A17 ``special_four_lazi``) four exposed 红中 or 发财
      when those are the specials;
    * 暗杠门风 / 暗杠字牌: a concealed kong of the own seat wind / of a dragon.
    """
    names = []
    if hand.concealed.count(WILD) >= 3:
        names.append(LAZI_THREE_WILDS)
    exposed = set(hand.flowers)
    if exposed.issuperset(RED_FLOWERS):
        names.append(LAZI_RED_FLOWERS)
    if exposed.issuperset(BLACK_FLOWERS):
        names.append(LAZI_BLACK_FLOWERS)
    for kind in (WHITE, RED, GREEN):
        if hand.flowers.count(kind) >= 4 and (kind == WHITE or options.special_four_lazi):
            names.append(LAZI_FOUR_SPECIALS[kind])
    for meld in hand.melds:
        if meld.kind != "akong":
            continue
        if meld.tile == WINDS[seat]:
            names.append(LAZI_SEAT_WIND_KONG)
        elif meld.tile in DRAGONS:
            names.append(LAZI_DRAGON_KONG)
    return names


def nonwinner_sifeng(hand: Hand, seat: int) -> bool:
    """四风会齐 for a non-winner: all four winds as triplets/kongs, or the own seat wind as a
    pair and the other three as triplets/kongs; 得 may stand in ("可以用得顶替")."""
    melded = {m.tile for m in hand.melds if not m.is_chi}
    wind_tiles = sum(1 for t in hand.concealed if 27 <= t <= 30) + 3 * len(melded & set(WINDS))
    if wind_tiles + hand.wild_count < 11:  # three triplets and a pair at least
        return False
    have = {w: 3 if w in melded else min(3, hand.concealed.count(w)) for w in WINDS}
    seat_wind = WINDS[seat]
    others = sum(3 - have[w] for w in WINDS if w != seat_wind)
    # the own seat wind as a triplet or kong is covered by "at least a pair"
    return others + max(0, 2 - have[seat_wind]) <= hand.wild_count
