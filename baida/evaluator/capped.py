"""Shanten where no kind can be drawn beyond its fourth copy, for hands holding several quads.

The shape tables (``tables``) count the tiles missing from sets and a pair without asking
which kinds they are, so a missing tile may be a fifth copy of a kind the hand holds four
times. ``shanten`` repairs that where the tables say ready (a wait on a fifth copy is dead),
which is exact while the hand holds at most one kind four times; with two or more, a route
the tables count as one or two exchanges may need a fifth copy on the way
(``1111m4444m678m12p`` is 2 from ready, not 1). Here each part's distance vector is recomputed
with no missing tile of a kind the hand holds four times, and the parts are combined as usual;
it agrees with the ``mahjong`` package on such hands (the tests). Natural tiles only: a wild
may stand for a fifth copy.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

from . import tables
from .tables import INF, MAX_SETS, VEC_LEN, VECTORS, combine

_PARTS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))
# groups made of missing tiles only: 3 per set and 2 for the pair (of a kind that can come)
_FROM_NOTHING = tuple(3 * (j // 2) + 2 * (j % 2) for j in range(VEC_LEN))
_NOTHING = (0,) + (INF,) * (VEC_LEN - 1)  # every kind of the part is gone


def capped_shanten(counts: Sequence[int], sets: int) -> int:
    """Tiles away from ready of a hand without wilds, where no tile still missing may be a
    kind the hand holds four times."""
    key = bytes(counts)
    ids = [
        tables._intern(_capped_dist(key[lo:hi], bytes(c >= 4 for c in key[lo:hi]), sequences))
        for lo, hi, sequences in _PARTS
    ]
    whole = combine(combine(ids[0], ids[1]), combine(ids[2], ids[3]))
    return VECTORS[whole][2 * sets + 1] - 1


@cache
def _capped_dist(counts: bytes, gone: bytes, sequences: bool) -> tuple[int, ...]:
    """d[2k+p]: fewest tiles missing for k sets and p pairs from ``counts``, none of them of
    a kind marked in ``gone``; the tiles not used are thrown away."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return _FROM_NOTHING if 0 in gone else _NOTHING
    best = list(_capped_dist(_minus(counts, (i,)), gone, sequences))  # throw one copy away
    for is_pair, used, missing in _groups(counts, i, sequences):
        if any(gone[p] for p in missing):
            continue  # a tile that can no longer come
        sub = _capped_dist(_minus(counts, used), gone, sequences)
        extra = len(missing)
        if is_pair:
            for k in range(MAX_SETS + 1):
                best[2 * k + 1] = min(best[2 * k + 1], sub[2 * k] + extra)
        else:
            for k in range(MAX_SETS):
                for p in (0, 1):
                    best[2 * (k + 1) + p] = min(best[2 * (k + 1) + p], sub[2 * k + p] + extra)
    return tuple(min(v, INF) for v in best)


def _groups(
    counts: bytes, i: int, sequences: bool
) -> Iterator[tuple[bool, tuple[int, ...], tuple[int, ...]]]:
    """Every group holding a copy of kind ``i`` (the lowest left) and naturals only at or
    above ``i``: (is it the pair, the naturals it uses, the kinds it misses)."""
    for used in range(1, min(counts[i], 3) + 1):
        yield False, (i,) * used, (i,) * (3 - used)
    for used in range(1, min(counts[i], 2) + 1):
        yield True, (i,) * used, (i,) * (2 - used)
    if not sequences:
        return
    for start in range(max(0, i - 2), min(i, 6) + 1):
        others = [p for p in (start, start + 1, start + 2) if p != i]
        for take in ((False, False), (True, False), (False, True), (True, True)):
            if any(t and (p < i or counts[p] == 0) for p, t in zip(others, take, strict=True)):
                continue
            yield (
                False,
                (i, *(p for p, t in zip(others, take, strict=True) if t)),
                tuple(p for p, t in zip(others, take, strict=True) if not t),
            )


def _minus(key: bytes, kinds: Sequence[int]) -> bytes:
    """``key`` with one taken from the entry of each of ``kinds``."""
    out = bytearray(key)
    for k in kinds:
        out[k] -= 1
    return bytes(out)
