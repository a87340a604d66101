"""The 台 and 番 items of Jiaxing 台头和 (RULES.md §A4) as data.

Each item is one small definition: Chinese name, English name, value and how many times it
holds (a bool for most; an honour triplet item counts each triplet, J-A18). Tai
items and the per-hand fan items look at a ``Shape`` (what one reading of the winning hand
looks like once the wilds are substituted) and the hand's ``Context`` (seat, winds, flags,
options). The carry-type fans 老头黄/包子/百搭连庄 are tokens that enter the 黄番 pool at the
start of a hand (``carry_tokens``); a win consumes at most one token, scored as 黄番.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from ..rules.options import JiaxingOptions
from ..tiles import EAST, GREEN, RED, WHITE, is_honour

PAIR_WAIT = 1  # Shape.pair bit: the win tile can be one of the pair's tiles
PAIR_WITH_WILD = 2  # Shape.pair bit: the pair is the (natural) win tile plus one wild
# Shape.triplets keeps, per honour, how many of its triplets/kongs score (0-2: with J-A18's
# 5th+ copies, wilds may form a second triplet of a kind already held), in 2 bits per honour.
TRIPLET_FIELD = 2


def triplet_unit(kind: int) -> int:
    """What one more scoring triplet of honour ``kind`` adds to ``Shape.triplets``."""
    return 1 << (TRIPLET_FIELD * (kind - EAST))


def triplet_count(triplets: int, kind: int) -> int:
    """How many scoring triplets of honour ``kind`` a ``Shape.triplets`` value holds."""
    return triplets >> (TRIPLET_FIELD * (kind - EAST)) & 3


class Shape(NamedTuple):
    """The scoring features of one reading, the melds included."""

    suits: int  # bitmask of the suits present: 1 万, 2 筒, 4 条
    honours: bool  # some honour is present
    sequence: bool  # some sequence (a 吃 meld or a concealed one)
    triplets: int  # per honour (2 bits at 2 * (kind - 27)): its triplets/kongs that score
    pair: int  # PAIR_WAIT | PAIR_WITH_WILD bits, computed only when an option needs them
    wilds_as_self: bool  # every wild stands for its own face (J-A5 b)


class Context(NamedTuple):
    """What the items need to know about the hand beyond its reading."""

    options: JiaxingOptions
    seat_wind: int  # kind 27-30
    round_wind: int  # kind 27-30
    wilds: int  # 百搭 tiles in the winning hand
    single_wait: bool  # 4 melds and one tile in hand before the win (structural 单吊)
    after_kong: bool
    last_tile: bool
    heavenly: bool
    earthly: bool
    self_draw: bool
    carry_fan: bool  # the 黄番 pool pays one fan to this win


@dataclass(frozen=True, slots=True)
class Item:
    """One scoring item: its names, its value and how many times it holds (0: not at all;
    an honour triplet item once per triplet)."""

    name: str
    english: str
    value: int
    count: Callable[[Shape, Context], int]


class HandStart(NamedTuple):
    """What decides a hand's carry tokens (RULES.md §A4.3)."""

    wild_kind: int
    dice: tuple[int, int]
    previous_wild_kind: int | None


@dataclass(frozen=True, slots=True)
class CarryToken:
    """A carry-type fan (累计番型): one token into the 黄番 pool when it applies."""

    name: str
    english: str
    value: int
    applies: Callable[[HandStart], bool]


def _triplet(kind: int) -> Callable[[Shape, Context], int]:
    return lambda s, c: triplet_count(s.triplets, kind)


def _seat_wind(s: Shape, c: Context) -> int:
    return triplet_count(s.triplets, c.seat_wind)


def _round_wind(s: Shape, c: Context) -> int:
    return triplet_count(s.triplets, c.round_wind)


def _one_suit(s: Shape) -> bool:
    return s.suits in (1, 2, 4)


def _no_wild(s: Shape, c: Context) -> bool:
    if c.wilds == 0:
        return True
    return c.options.wild_as_self_is_natural and s.wilds_as_self


def _duiduihe(s: Shape, c: Context) -> bool:
    if s.sequence:
        return False
    return c.options.qlt_stacks_with_ddh or s.suits != 0


def _dandiao(s: Shape, c: Context) -> bool:
    if c.options.dandiao_mode == "structural":
        return c.single_wait
    return bool(s.pair & PAIR_WAIT)


TAI_ITEMS: tuple[Item, ...] = (
    Item("红中刻", "Red dragon triplet", 1, _triplet(RED)),
    Item("发财刻", "Green dragon triplet", 1, _triplet(GREEN)),
    Item("白板刻", "White dragon triplet", 1, _triplet(WHITE)),
    Item("门风", "Seat wind triplet", 1, _seat_wind),
    Item("风圈", "Round wind triplet", 1, _round_wind),
    Item("无百搭", "No wild", 1, _no_wild),
    Item("对对和", "All triplets", 2, _duiduihe),
    Item("混一色", "Half flush", 2, lambda s, c: _one_suit(s) and s.honours),
    Item("清一色", "Full flush", 4, lambda s, c: _one_suit(s) and not s.honours),
    Item("全老头", "All honours", 10, lambda s, c: s.suits == 0),
)

PATTERN_NAMES = ("清一色", "混一色", "全老头", "对对和")
PATTERN_ITEMS = tuple(item for item in TAI_ITEMS if item.name in PATTERN_NAMES)

FAN_ITEMS: tuple[Item, ...] = (
    Item("三百搭", "Three wilds", 1, lambda s, c: c.wilds == 3),
    Item("杠上开花", "Win on a kong replacement", 1, lambda s, c: c.after_kong and c.self_draw),
    Item("单吊", "Single wait", 1, _dandiao),
    Item("黄番", "Carried fan", 1, lambda s, c: c.carry_fan),
    Item("海底捞月", "Last tile", 1, lambda s, c: c.last_tile and c.self_draw),
    Item("天和", "Heavenly hand", 2, lambda s, c: c.heavenly),
    Item("地和", "Earthly hand", 2, lambda s, c: c.earthly),
)
# the fan items that depend on the reading (the others are fixed for the hand)
READING_FAN_NAMES = ("单吊",)

CARRY_TOKENS: tuple[CarryToken, ...] = (
    CarryToken("老头黄", "Honour wild", 1, lambda h: is_honour(h.wild_kind)),
    CarryToken("包子", "Dice double", 1, lambda h: h.dice[0] == h.dice[1]),
    CarryToken("百搭连庄", "Same wild again", 1, lambda h: h.wild_kind == h.previous_wild_kind),
)


def carry_tokens(start: HandStart) -> list[CarryToken]:
    """The carry tokens a hand adds to the 黄番 pool when it starts."""
    return [token for token in CARRY_TOKENS if token.applies(start)]


def is_pattern(shape: Shape) -> bool:
    """One of the four 和牌台型 (清一色/混一色/全老头/对对和) holds."""
    if not shape.sequence:
        return True
    return shape.suits in (0, 1, 2, 4)
