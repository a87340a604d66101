"""Wenling 温岭麻将 tiles of one hand: which kinds are 得 and which are specials (RULES.md §B1.1).

The indicator is flipped after the deal and stays out of play. Its kind decides the 得 (the
other copies of that kind, or the other three flowers of its group) and the specials, the
flower-like tiles that are exposed when drawn and replaced from the tail:

>>> from baida.tiles import parse_tile, format_tiles
>>> wilds, specials = wenling_wilds_and_specials(parse_tile("7m"), True)
>>> format_tiles(sorted(wilds)), format_tiles(sorted(specials))
('7m', 'Pf1f2f3f4f5f6f7f8')
>>> wilds, specials = wenling_wilds_and_specials(parse_tile("P"), True)
>>> format_tiles(sorted(wilds)), format_tiles(sorted(specials))
('P', 'CFf1f2f3f4f5f6f7f8')
>>> wilds, specials = wenling_wilds_and_specials(parse_tile("f1"), True)
>>> format_tiles(sorted(wilds)), format_tiles(sorted(specials))
('f2f3f4', 'CFPf5f6f7f8')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..quote import quote
from ..tiles import (
    DRAGONS,
    FLOWER_GROUP_A,
    FLOWER_GROUP_B,
    FLOWERS,
    GREEN,
    NUM_KINDS,
    RED,
    WHITE,
    is_flower,
    is_honour,
    is_terminal,
    seat_flowers,
    seat_wind_kind,
)

__all__ = [
    "WenlingTiles",
    "flower_group",
    "is_heavy",
    "seat_flowers",
    "seat_wind_kind",
    "wenling_tiles",
    "wenling_wilds_and_specials",
]

RED_FLOWERS = FLOWER_GROUP_A  # 红花 (W-A19: naming only)
BLACK_FLOWERS = FLOWER_GROUP_B  # 黑花


def flower_group(kind: int) -> tuple[int, int, int, int]:
    """The four flowers of ``kind``'s group (春夏秋冬 or 梅兰竹菊)."""
    if not is_flower(kind):
        raise ValueError(f"not a flower: {quote(kind)}")
    return FLOWER_GROUP_A if kind in FLOWER_GROUP_A else FLOWER_GROUP_B


def wenling_wilds_and_specials(
    indicator: int, flower_flip_specials: bool = True
) -> tuple[frozenset[int], frozenset[int]]:
    """(得 kinds, special kinds) for ``indicator``; ``flower_flip_specials`` is W-A1.

    * a suit tile, a wind, 红中 or 发财: that kind is 得; specials are the 8 flowers and 白板;
    * 白板: 白板 is 得; specials are the 8 flowers, 红中 and 发财;
    * a flower: the other three of its group are 得; specials are the other group and 白板,
      plus 红中 and 发财 when ``flower_flip_specials`` (the default, W-A1 a).
    """
    if is_flower(indicator):
        group = flower_group(indicator)
        other = FLOWER_GROUP_B if group == FLOWER_GROUP_A else FLOWER_GROUP_A
        wilds = frozenset(k for k in group if k != indicator)
        specials = set(other) | {WHITE}
        if flower_flip_specials:
            specials |= {RED, GREEN}
        return wilds, frozenset(specials)
    if not 0 <= indicator < NUM_KINDS:
        raise ValueError(f"not a tile kind: {quote(indicator)}")
    if indicator == WHITE:
        return frozenset({WHITE}), frozenset(FLOWERS) | {RED, GREEN}
    return frozenset({indicator}), frozenset(FLOWERS) | {WHITE}


def is_heavy(kind: int) -> bool:
    """A wind, a dragon or a terminal: the kinds whose triplets and kongs score double."""
    return is_honour(kind) or is_terminal(kind)


@dataclass(frozen=True, slots=True)
class WenlingTiles:
    """The tile roles of one hand, derived from the indicator."""

    indicator: int
    wilds: frozenset[int]  # the kinds whose in-play copies are 得
    specials: frozenset[int]  # flowers and flower-like tiles, exposed when drawn
    faces: frozenset[int]  # the kinds a 得 may stand for (every suit/honour kind but specials)

    @property
    def special_dragons(self) -> frozenset[int]:
        """The specials among 中发白 (白板 by default; 红中 and 发财 when they replace it)."""
        return self.specials & frozenset(DRAGONS)

    def is_special(self, kind: int) -> bool:
        return kind in self.specials

    def is_wild(self, kind: int) -> bool:
        return kind in self.wilds

    def scoring_dragons(self) -> tuple[int, ...]:
        """The dragons that score as 字牌 (pairs, 刻, 杠): those that are not specials."""
        return tuple(d for d in DRAGONS if d not in self.specials)

    def natural_kinds(self) -> frozenset[int]:
        """Kinds that exist as natural, playable tiles this hand."""
        return frozenset(k for k in range(NUM_KINDS) if k not in self.specials | self.wilds)


@lru_cache(maxsize=128)
def wenling_tiles(indicator: int, flower_flip_specials: bool = True) -> WenlingTiles:
    """The roles of all tiles for ``indicator`` (see ``wenling_wilds_and_specials``)."""
    wilds, specials = wenling_wilds_and_specials(indicator, flower_flip_specials)
    faces = frozenset(k for k in range(NUM_KINDS) if k not in specials)
    return WenlingTiles(indicator, wilds, specials, faces)

