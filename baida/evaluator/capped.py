"""Shanten where no kind can be drawn beyond its fourth copy, for hands holding several quads.

The shape tables (``tables``) count the tiles missing from sets and a pair without asking
which kinds they are, so a missing tile may be a fifth copy of a kind the hand holds four
times. ``shanten`` repairs that where the tables say ready (a wait on a fifth copy is dead),
which is exact while the hand holds at most one kind four times; with two or more, a route
the tables count as one or two exchanges may need a fifth copy on the way
(``1111m4444m678m12p`` is 2 from ready, not 1). Here each part's distance vector is recomputed
(``tables.dist_without``) with no missing tile of a kind the hand holds four times, and the
parts are combined as usual; it agrees with the ``mahjong`` package on such hands (the
tests). Natural tiles only: a wild may stand for a fifth copy.

A part's gone marks are its own kinds held four times, so the recomputed vector is a function
of the part's counts alone and is kept per part key (``CAPPED``), like the shape's own; the
combinations go through the shape's cached table (``tables.COMBINED``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .live import GONE
from .tables import COMBINED, VECTORS, combine, dist_without

CAPPED: dict[bytes, int] = {}  # a part's key: the id of its vector without fifth copies


def _capped_id(key: bytes) -> int:
    vid = CAPPED[key] = dist_without(key, key.translate(GONE))
    return vid


def _combined(a: int, b: int) -> int:
    vid = COMBINED.get((a << 20) | b)
    return combine(a, b) if vid is None else vid


def capped_shanten(counts: Sequence[int], sets: int) -> int:
    """Tiles away from ready of a hand without wilds, where no tile still missing may be a
    kind the hand holds four times."""
    key = bytes(counts)
    ids = []
    for part in (key[0:9], key[9:18], key[18:27], key[27:34]):
        vid = CAPPED.get(part)
        ids.append(_capped_id(part) if vid is None else vid)
    whole = _combined(_combined(ids[0], ids[1]), _combined(ids[2], ids[3]))
    return VECTORS[whole][2 * sets + 1] - 1
