"""Wenling scoring items as data: every 和 (base point) and 番 item of RULES.md §B4, by name.

Set items carry a "heavy" value (winds, dragons, terminals) and a "light" one; flat items a
single value; fan items a value and a predicate that counts how often the item holds for the
facts of one scored reading (``HandFacts``). The scorer lists the items that hold, so its
breakdown is exactly this table applied to a hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..tiles import GREEN, RED, WHITE


@dataclass(frozen=True, slots=True)
class SetItem:
    """A base-point item valued by the kind of its set: ``heavy`` for winds/dragons/1-9."""

    name: str
    english: str
    heavy: int
    light: int

    def value(self, heavy: bool) -> int:
        return self.heavy if heavy else self.light


@dataclass(frozen=True, slots=True)
class FlatItem:
    """A base-point item with one value (和)."""

    name: str
    english: str
    value: int


# --- 基础牌点 (和) -------------------------------------------------------------------------

PAIR = FlatItem("对子", "pair of the own seat wind or a 字牌 (dragon)", 2)
PUNG = SetItem("刻子", "exposed triplet (碰)", 4, 2)
CONCEALED_PUNG = SetItem("暗刻", "concealed triplet", 8, 4)
EXPOSED_KONG = SetItem("明杠", "exposed kong (大明杠 or 补杠)", 16, 8)
CONCEALED_KONG = SetItem("暗杠", "concealed kong", 32, 16)
MELD_ITEMS: dict[str, SetItem] = {
    "pon": PUNG,
    "mkong": EXPOSED_KONG,
    "bukong": EXPOSED_KONG,
    "akong": CONCEALED_KONG,
}
EXPOSED_SPECIAL: dict[int, FlatItem] = {
    WHITE: FlatItem("翻白板", "exposed 白板", 4),
    RED: FlatItem("翻红中", "exposed 红中 (when it is a special)", 4),
    GREEN: FlatItem("翻发财", "exposed 发财 (when it is a special)", 4),
}
SINGLE_WAIT = FlatItem("单吊", "the winning tile completes the pair", 2)
CLOSED_WAIT = FlatItem("嵌档", "the winning tile is the middle of a sequence", 2)
EDGE_WAIT = FlatItem("靠柄", "the winning tile is 3 of 1-2-3 or 7 of 7-8-9", 2)
SELF_DRAW = FlatItem("自摸", "self-drawn win", 2)
WAIT_ITEMS: dict[str, FlatItem] = {
    "single": SINGLE_WAIT,
    "closed": CLOSED_WAIT,
    "edge": EDGE_WAIT,
}

BASE_CONSTANT = 20  # 基础20和
LIMIT = 500  # 满贯
ROUND_TO = 10


@dataclass(slots=True)
class HandFacts:
    """What the fan predicates look at: one reading of one player's hand, summarised."""

    seat_wind_sets: int = 0  # triplets/kongs of the own seat wind
    dragon_sets: int = 0  # triplets/kongs of 字牌 that are not specials
    suits: int = 0  # bit mask of the suits present (after 得 substitution)
    honours: bool = False
    triplet_sets: int = 0  # triplets and kongs, concealed or melded
    sequence_sets: int = 0  # sequences, concealed or 吃
    wait: str | None = None  # "single", "closed", "edge", "open" (two-sided), "triplet"
    exposed: tuple[int, int, int] = (0, 0, 0)  # exposed special 白板, 红中, 发财
    seat_flowers: int = 0  # exposed flowers matching the seat
    wilds_held: int = 0  # 得 in hand, the winning tile included
    self_draw: bool = False
    rob_kong: bool = False
    win_tile_wild: bool = False
    kong_flower: bool = False  # a win on a kong replacement that counts as 杠上开花
    panghe_selfdraw_only: bool = False


@dataclass(frozen=True, slots=True)
class FanItem:
    """A 番 item: ``count(facts)`` is how many times it holds; each time adds ``value``."""

    name: str
    english: str
    value: int
    count: Callable[[HandFacts], int]
    nonwinner: bool = False  # also counted for non-winners (§B4.3)


def _one_suit(f: HandFacts) -> bool:
    return f.suits in (1, 2, 4)


def _panghe(f: HandFacts) -> bool:
    return (
        f.triplet_sets == 0
        and f.wait == "open"
        and (f.self_draw or not f.panghe_selfdraw_only)
    )


FAN_ITEMS: tuple[FanItem, ...] = (
    FanItem("翻白板", "each exposed 白板", 1, lambda f: f.exposed[0], nonwinner=True),
    FanItem("翻红中", "each exposed 红中 (special)", 1, lambda f: f.exposed[1], nonwinner=True),
    FanItem("翻发财", "each exposed 发财 (special)", 1, lambda f: f.exposed[2], nonwinner=True),
    FanItem("门风花牌", "each exposed flower of the own seat", 1, lambda f: f.seat_flowers),
    FanItem("门风刻", "triplet or kong of the own seat wind", 1, lambda f: f.seat_wind_sets,
            nonwinner=True),
    FanItem("字牌刻", "each 字牌 triplet or kong", 1, lambda f: f.dragon_sets, nonwinner=True),
    FanItem("清一色", "one suit only", 4, lambda f: int(_one_suit(f) and not f.honours)),
    FanItem("混一色", "one suit and honours", 2,
            lambda f: int(f.honours and (f.suits == 0 or _one_suit(f)))),
    FanItem("对对和", "all sets triplets or kongs", 2, lambda f: int(f.sequence_sets == 0)),
    FanItem("旁和", "all sets sequences, two-sided wait", 1, lambda f: int(_panghe(f))),
    FanItem("无得", "no 得 in hand", 1, lambda f: int(f.wilds_held == 0)),
    FanItem("2张得", "two 得 in hand", 1, lambda f: int(f.wilds_held == 2)),
    FanItem("杠上开花", "win on a kong replacement", 1, lambda f: int(f.kong_flower)),
    FanItem("抢杠和", "win by robbing a kong", 1, lambda f: int(f.rob_kong)),
    FanItem("自摸得", "the self-drawn winning tile is a 得", 1,
            lambda f: int(f.self_draw and f.win_tile_wild)),
)
SEAT_FLOWER_ITEM = FAN_ITEMS[3]

# 满贯 hands: named in the ``fan`` list with value 0, the total being LIMIT.
SIFENG = "四风会齐"
LAZI_THREE_WILDS = "3张得"
LAZI_RED_FLOWERS = "4张红花"
LAZI_BLACK_FLOWERS = "4张黑花"
LAZI_FOUR_SPECIALS: dict[int, str] = {WHITE: "4张白板", RED: "4张红中", GREEN: "4张发财"}
LAZI_SEAT_WIND_KONG = "暗杠门风"
LAZI_DRAGON_KONG = "暗杠字牌"


def fan_items(facts: HandFacts, items: tuple[FanItem, ...] = FAN_ITEMS) -> list[tuple[str, int]]:
    """The (name, value) of every fan item that holds, one entry per item."""
    out = []
    for item in items:
        n = item.count(facts)
        if n:
            out.append((item.name, item.value * n))
    return out


def total_points(base: int, fan: int, constant: int = BASE_CONSTANT) -> tuple[int, int]:
    """(raw, total): raw = (base + constant) × 2^fan; total rounded up to 10, capped at 500."""
    raw = (base + constant) << fan
    return raw, min(LIMIT, -(-raw // ROUND_TO) * ROUND_TO)
