"""Melds and hands as the scorers and the engine see them, with their notation.

Melds are written as in ``SCORING_API.md``: ``"chi 123m"``, ``"pon C"``, ``"mkong E"``
(大明杠 from a discard), ``"akong 5p"`` (暗杠), ``"bukong 3p"`` (补杠 onto an own 碰).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .quote import quote
from .tiles import WILD, TileError, format_tiles, parse_tiles, tile_str

MELD_KINDS = ("chi", "pon", "mkong", "akong", "bukong")
KONG_KINDS = ("mkong", "akong", "bukong")


class MeldError(ValueError):
    """A meld that is not a meld."""


@dataclass(frozen=True, slots=True)
class Meld:
    """An exposed (or concealed-kong) set: its kind and the tiles it holds."""

    kind: str  # one of MELD_KINDS
    tiles: tuple[int, ...]
    from_seat: int | None = None  # the seat whose discard was claimed (engine use)

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS

    @property
    def is_chi(self) -> bool:
        return self.kind == "chi"

    @property
    def is_concealed(self) -> bool:
        return self.kind == "akong"

    @property
    def tile(self) -> int:
        """The lowest tile (a chow) or the kind (a pung or kong)."""
        return self.tiles[0]

    def notation(self) -> str:
        body = format_tiles(self.tiles) if self.kind == "chi" else tile_str(self.tiles[0])
        return f"{self.kind} {body}"

    def __str__(self) -> str:
        return self.notation()


def make_meld(kind: str, tiles: list[int] | tuple[int, ...], from_seat: int | None = None) -> Meld:
    """Build a meld, checking that ``tiles`` make the meld ``kind`` says."""
    if kind not in MELD_KINDS:
        raise MeldError(f"unknown meld kind {quote(kind)}; expected one of {', '.join(MELD_KINDS)}")
    tiles = tuple(tiles)
    if WILD in tiles:
        raise MeldError("a wild tile cannot be used in 吃/碰/杠")
    if any(t >= 34 for t in tiles):
        raise MeldError("a flower cannot be part of a meld")
    if kind == "chi":
        ordered = tuple(sorted(tiles))
        if len(ordered) != 3:
            raise MeldError(f"a chi needs three tiles, got {quote(format_tiles(tiles))}")
        first = ordered[0]
        if first >= 27 or first % 9 > 6 or ordered != (first, first + 1, first + 2):
            raise MeldError(f"{quote(format_tiles(tiles))} is not a sequence of one suit")
        return Meld(kind, ordered, from_seat)
    size = 3 if kind == "pon" else 4
    if len(set(tiles)) != 1:
        raise MeldError(f"a {kind} needs identical tiles, got {quote(format_tiles(tiles))}")
    if len(tiles) not in (1, size):
        raise MeldError(f"a {kind} holds {size} tiles, got {len(tiles)}")
    return Meld(kind, (tiles[0],) * size, from_seat)


def parse_meld(text: str) -> Meld:
    """Parse ``"pon C"`` or ``"chi 123m"``; a pung or kong may also be written in full."""
    if not isinstance(text, str):
        raise MeldError(f"a meld is a string like 'pon C', not {type(text).__name__}")
    kind, _, body = text.strip().partition(" ")
    if kind not in MELD_KINDS:
        expected = ", ".join(MELD_KINDS)
        raise MeldError(
            f"unknown meld kind {quote(kind)} in {quote(text)}; expected one of {expected}"
        )
    try:
        tiles = parse_tiles(body)
    except TileError as exc:
        raise MeldError(f"meld {quote(text)}: {exc}") from None
    return make_meld(kind, tiles)


@dataclass(slots=True)
class Hand:
    """A player's tiles: concealed (wilds as ``WILD``), melds and exposed flowers/specials."""

    concealed: list[int] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)

    @property
    def wild_count(self) -> int:
        return self.concealed.count(WILD)

    def natural_concealed(self) -> list[int]:
        return [t for t in self.concealed if t != WILD]

    def all_natural_tiles(self) -> list[int]:
        """Every natural suit/honour tile, concealed and melded."""
        out = self.natural_concealed()
        for meld in self.melds:
            out.extend(meld.tiles)
        return out
