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
"""

from __future__ import annotations

from collections.abc import Sequence

from .tables import VECTORS, combine, dist_without

_PARTS = ((0, 9), (9, 18), (18, 27), (27, 34))


def capped_shanten(counts: Sequence[int], sets: int) -> int:
    """Tiles away from ready of a hand without wilds, where no tile still missing may be a
    kind the hand holds four times."""
    key = bytes(counts)
    ids = [dist_without(key[lo:hi], bytes(c >= 4 for c in key[lo:hi])) for lo, hi in _PARTS]
    whole = combine(combine(ids[0], ids[1]), combine(ids[2], ids[3]))
    return VECTORS[whole][2 * sets + 1] - 1
