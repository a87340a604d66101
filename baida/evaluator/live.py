"""Whether a hand the shape tables call ready has a live wait, by a second distance vector.

``shanten`` counts a hand ready (0) only when it has a wait that can still come. The shape's
distance vector ``d`` (``tables``) counts the tiles missing from sets and a pair without asking
which kinds they are. Beside it each part gets ``e[2k + p]``: the fewest tiles missing for
``k`` sets and ``p`` pairs from the part's tiles where at least one missing tile is of a
*live* kind (one not marked in ``gone``: the kinds the player holds four times, or sees all
four of). Two parts combine as ``d = dA * dB`` and ``e = min(eA * dB, dA * eB)`` in the
min-plus product, so the hand's ``e`` costs a few table lookups like its ``d``.

A hand whose ``d[2 * sets + 1]`` is ``wilds + 1`` (ready by shape) has a live wait exactly
when its ``e[2 * sets + 1]`` is ``wilds + 1`` too: the wilds take any ``wilds`` of the missing
places and the drawn tile the live one. One tile short (``3 * sets + 1`` tiles), every tile of
the hand is then used and the live kind is a wait; a tile over (``3 * sets + 2``), one tile is
left out, and throwing it leaves that wait. Without a live missing tile, every way of
finishing waits on a kind that cannot come.
"""

from __future__ import annotations

from functools import cache

from .tables import (
    _FROM_NOTHING,
    COMBINED,
    INF,
    VEC_LEN,
    VECTORS,
    _dist,
    _groups_with_lowest,
    _intern,
    combine,
    minus,
    relax,
)

_NONE = (INF,) * VEC_LEN
_SOME = (INF,) + _FROM_NOTHING[1:]  # only groups of missing tiles, one of them live
GONE = bytes(int(v >= 4) for v in range(256))  # ``bytes.translate`` table: 1 where 4 or more

# a part's (d id, e id) interned as one *pair id*; pairs combined by pair ids
PAIRS: list[tuple[int, int]] = []
_pair_ids: dict[tuple[int, int], int] = {}
PART_PAIRS: dict[bytes, int] = {}  # the part's counts followed by its gone marks
SELF_PAIRS: dict[bytes, int] = {}  # the part's counts, gone = the kinds it holds four times
PAIR_COMBINED: dict[int, int] = {}


@cache
def _live(counts: bytes, sequences: bool, gone: bytes) -> tuple[int, ...]:
    """``e`` of one part: as ``tables._dist`` with at least one missing tile not in ``gone``."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return _SOME if 0 in gone else _NONE
    best = list(_live(minus(counts, (i,)), sequences, gone))  # throw one copy of i away
    for is_pair, used, kinds in _groups_with_lowest(counts, i, sequences, True):
        rest = minus(counts, used)
        if any(not gone[k] for k in kinds):
            sub = _dist(rest, sequences, b"")  # this group waits on a live kind: the rest is free
        else:
            sub = _live(rest, sequences, gone)
        relax(best, sub, len(kinds), is_pair)
    return tuple(min(v, INF) for v in best)


def _pair_id(d: int, e: int) -> int:
    pid = _pair_ids.get((d, e))
    if pid is None:
        pid = _pair_ids[(d, e)] = len(PAIRS)
        PAIRS.append((d, e))
    return pid


def part_pair(key: bytes, gone: bytes) -> int:
    """The pair id of a suit (9 bytes) or the honours (7 bytes) with its gone marks."""
    both = key + gone
    pid = PART_PAIRS.get(both)
    if pid is None:
        if len(key) == 9:
            d, e = _dist(key, True, b""), _live(key, True, gone)
        else:  # the honours are interchangeable: sort each kind's count with its mark
            ordered = sorted(zip(key, gone, strict=True))
            counts, marks = bytes(c for c, _ in ordered), bytes(g for _, g in ordered)
            d, e = _dist(counts, False, b""), _live(counts, False, marks)
        pid = PART_PAIRS[both] = _pair_id(_intern(d), _intern(e))
    return pid


def combine_pairs(a: int, b: int) -> int:
    """The pair id of two pairs combined: ``(dA * dB, min(eA * dB, dA * eB))``."""
    pid = PAIR_COMBINED.get((a << 20) | b)
    if pid is None:
        (da, ea), (db, eb) = PAIRS[a], PAIRS[b]
        d = COMBINED.get((da << 20) | db)
        if d is None:
            d = combine(da, db)
        left, right = VECTORS[combine(ea, db)], VECTORS[combine(da, eb)]
        e = _intern(tuple(x if x < y else y for x, y in zip(left, right, strict=True)))
        pid = PAIR_COMBINED[(a << 20) | b] = _pair_id(d, e)
    return pid


def _self_pair(key: bytes) -> int:
    """``part_pair`` of a part whose gone marks are the kinds it holds four times."""
    pid = SELF_PAIRS[key] = part_pair(key, key.translate(GONE))
    return pid


def has_live_wait(key: bytes, sets: int, gone: bytes | None = None) -> bool:
    """Whether a hand (34 counts as bytes) that is ready by shape has a live wait; ``3 * sets
    + 1`` or ``3 * sets + 2`` tiles. ``gone`` marks (1) the kinds that cannot come; without it,
    the kinds the hand holds four times."""
    if gone is None:
        k = key[0:9]
        m = SELF_PAIRS.get(k)
        if m is None:
            m = _self_pair(k)
        k = key[9:18]
        p = SELF_PAIRS.get(k)
        if p is None:
            p = _self_pair(k)
        k = key[18:27]
        s = SELF_PAIRS.get(k)
        if s is None:
            s = _self_pair(k)
        k = key[27:34]
        h = SELF_PAIRS.get(k)
        if h is None:
            h = _self_pair(k)
    else:
        m = PART_PAIRS.get(key[0:9] + gone[0:9])
        if m is None:
            m = part_pair(key[0:9], gone[0:9])
        p = PART_PAIRS.get(key[9:18] + gone[9:18])
        if p is None:
            p = part_pair(key[9:18], gone[9:18])
        s = PART_PAIRS.get(key[18:27] + gone[18:27])
        if s is None:
            s = part_pair(key[18:27], gone[18:27])
        h = PART_PAIRS.get(key[27:34] + gone[27:34])
        if h is None:
            h = part_pair(key[27:34], gone[27:34])
    mp = PAIR_COMBINED.get((m << 20) | p)
    if mp is None:
        mp = combine_pairs(m, p)
    sh = PAIR_COMBINED.get((s << 20) | h)
    if sh is None:
        sh = combine_pairs(s, h)
    whole = PAIR_COMBINED.get((mp << 20) | sh)
    if whole is None:
        whole = combine_pairs(mp, sh)
    d, e = PAIRS[whole]
    return VECTORS[e][2 * sets + 1] == VECTORS[d][2 * sets + 1]
