"""The wall procedure ``baida-wall-v1``: a seed → a shuffled wall and two dice.

The random stream is SHA-256 in counter mode (``SHA-256(seed || i)``, ``i`` 8 bytes big-endian),
read as 8-byte big-endian words; ``rand(n)`` rejects words at or above the largest multiple of
``n`` below 2^64. The canonical tile order (kinds 0-33 four copies each, then ``f1``-``f8``
for Wenling) is shuffled by Fisher-Yates from the last index down. Dice follow from the same
stream. See ``docs/engine.md``.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable

from ..quote import quote
from ..rulesets import Ruleset, as_ruleset
from ..tiles import (
    NUM_ALL_KINDS,
    TileError,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_str,
)

PROCEDURE = "baida-wall-v1"
_WORD = 1 << 64


class RandomStream:
    """SHA-256 counter-mode stream of uniform integers."""

    __slots__ = ("_seed", "_counter", "_words")

    def __init__(self, seed: bytes) -> None:
        self._seed = bytes(seed)
        self._counter = 0
        self._words: list[int] = []

    def _word(self) -> int:
        """The next 8-byte big-endian word of the stream."""
        if not self._words:
            block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._words = list(reversed(struct.unpack(">4Q", block)))
        return self._words.pop()

    def rand(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("rand needs n >= 1")
        limit = _WORD - (_WORD % n)
        while True:
            word = self._word()
            if word < limit:
                return word % n


def tile_set(ruleset: str | Ruleset) -> list[int]:
    """The canonical ordered tile set: 136 tiles (Jiaxing) or 144 with the flowers (Wenling)."""
    return as_ruleset(ruleset).tiles()


def shuffled_wall(ruleset: str | Ruleset, seed: bytes) -> tuple[list[int], tuple[int, int]]:
    """The wall in draw order (index 0 = head) and the two dice derived from ``seed``."""
    stream = RandomStream(seed)
    tiles = tile_set(ruleset)
    for i in range(len(tiles) - 1, 0, -1):
        j = stream.rand(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    dice = (stream.rand(6) + 1, stream.rand(6) + 1)
    return tiles, dice


def commitment(seed: bytes) -> str:
    """The public SHA-256 commitment to a seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


def to_kind(tile: int | str, what: str) -> int:
    """One tile given as a kind (0-41) or a face (``"5m"``); ValueError naming ``what``."""
    if isinstance(tile, str):
        try:
            kind = parse_tile(tile)
        except TileError as exc:
            raise ValueError(f"{what}: {exc}") from None
    elif type(tile) is int:
        kind = tile
    else:
        raise ValueError(f"{what}: a tile is a kind 0-41 or a face like '5m', got {quote(tile)}")
    if not 0 <= kind < NUM_ALL_KINDS:
        raise ValueError(f"{what}: not a tile of the wall: {quote(tile)}")
    return kind


def to_kinds(tiles: Iterable[int | str] | str, what: str) -> list[int]:
    """Tiles given as kinds or faces, or as one notation string (``"123m EE"``)."""
    if isinstance(tiles, str):
        try:
            return [to_kind(k, what) for k in parse_tiles(tiles)]
        except TileError as exc:
            raise ValueError(f"{what}: {exc}") from None
    if not isinstance(tiles, Iterable) or isinstance(tiles, (bytes, dict)):
        raise ValueError(f"{what}: expected a list of tiles or a notation string, "
                         f"not {type(tiles).__name__}")
    return [to_kind(tile, what) for tile in tiles]


def check_wall(ruleset: str | Ruleset, wall: Iterable[int]) -> list[int]:
    """Check that ``wall`` is exactly the ruleset's tile set (in any order); return it as a list."""
    wall = list(wall)
    rules = as_ruleset(ruleset)
    expected = rules.tiles()
    if sorted(wall) != expected:
        have: dict[int, int] = {}
        for kind in wall:
            have[kind] = have.get(kind, 0) + 1
        want: dict[int, int] = {}
        for kind in expected:
            want[kind] = want.get(kind, 0) + 1
        extra = [k for k in have if have[k] > want.get(k, 0)]
        missing = [k for k in want if have.get(k, 0) < want[k]]
        parts = [f"a {rules.name} wall has {len(expected)} tiles, this one {len(wall)}"]
        if extra:
            parts.append("too many " + " ".join(tile_str(k) for k in sorted(extra)))
        if missing:
            parts.append("missing " + " ".join(tile_str(k) for k in sorted(missing)))
        raise ValueError("; ".join(parts))
    return wall


Tiles = list[int] | list[str] | list[int | str] | str


def wall_from_deal(
    ruleset: str | Ruleset,
    hands: list[Tiles],
    draws: Tiles | None = None,
    tail: Tiles | None = None,
    indicator: int | str | None = None,
    dealer_extra: int | str | None = None,
) -> list[int]:
    """Build a full wall that deals ``hands`` (in turn order from the dealer, 13/16 tiles each).

    ``dealer_extra`` is the dealer's 14th/17th tile, ``draws`` the following draws from the
    head in order, ``tail`` the replacement tiles taken from the tail in order (first = the
    first replacement), ``indicator`` the flipped tile (the very last tile). Any tiles not
    named fill the middle of the wall in canonical order. For scripted hands. Tiles are kinds
    or faces (``"5m"``), like ``Round.from_wall``'s; a list may also be one notation string.
    """
    hands = [to_kinds(hand, f"wall_from_deal: hand {i}") for i, hand in enumerate(hands)]
    draws = to_kinds(draws or [], "wall_from_deal: draws")
    tail = to_kinds(tail or [], "wall_from_deal: tail")
    if indicator is not None:
        indicator = to_kind(indicator, "wall_from_deal: indicator")
    if dealer_extra is not None:
        dealer_extra = to_kind(dealer_extra, "wall_from_deal: dealer_extra")
    rules = as_ruleset(ruleset)
    pool = rules.tiles()
    remaining: dict[int, int] = {}
    for kind in pool:
        remaining[kind] = remaining.get(kind, 0) + 1

    def take(kinds: Iterable[int]) -> list[int]:
        out = list(kinds)
        for kind in out:
            if remaining.get(kind, 0) <= 0:
                raise ValueError(
                    f"wall_from_deal: too many {tile_str(kind)} in {format_tiles(out)}"
                )
            remaining[kind] -= 1
        return out

    size = rules.hand_size
    if len(hands) != 4 or any(len(hand) != size for hand in hands):
        raise ValueError(f"wall_from_deal: four hands of {size} tiles, dealer first")
    head: list[int] = []
    for hand in hands:
        head.extend(take(hand))
    if dealer_extra is not None:
        head.extend(take([dealer_extra]))
    head.extend(take(draws or []))
    back = take(tail or [])
    flip = take([indicator]) if indicator is not None else []
    if dealer_extra is None and draws:
        raise ValueError("wall_from_deal: give dealer_extra when giving draws")
    # Fill the middle; a missing indicator takes the first filler from the end.
    filler = [kind for kind in sorted(remaining) for _ in range(remaining[kind])]
    if not flip:
        flip = [filler.pop()]
    # The tail is read from the end inwards: indicator last, then the first replacement, ...
    return head + filler + list(reversed(back)) + flip
