"""Win test, shanten, waits and pattern distances for hands with wild tiles.

All functions take the concealed non-wild tiles as a 34-count sequence (``counts``), the
number of wild tiles held (``wilds``) and how many sets the concealed part must still form
(``sets``: 4 in Jiaxing and 5 in Wenling, minus the melds already exposed). A complete
concealed part has ``3 * sets + 2`` tiles; a hand one tile short has ``3 * sets + 1``.
Seven pairs is not a winning shape in either ruleset, so only sets + one pair count.

Wilds may stand for any of the 34 kinds here, a fifth copy included; rulesets that restrict
the faces (Wenling's specials, Jiaxing's ``wild_fifth_copy = false``) filter readings. Waits
and readiness are about tiles that can still come: a kind whose four copies are all in hand
(or otherwise out of reach, ``visible``) is no wait, and a hand with only such waits is not
ready.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import tables
from .tables import (
    COMBINED,
    HONOUR_DIST,
    NEED,
    SUIT_DIST,
    VECTORS,
    combine,
    honour_dist,
    need_code,
    suit_dist,
)

PATTERNS = ("qingyise", "hunyise", "duiduihe", "quanlaotou")


def is_complete(counts: Sequence[int], wilds: int = 0) -> bool:
    """Whether the tiles plus ``wilds`` wilds form sets and exactly one pair.

    The number of sets is implied by the tile count, which must be 3n + 2.
    """
    b = bytes(counts)
    try:
        m = NEED[b[:9]]
        p = NEED[b[9:18]]
        s = NEED[b[18:27]]
        h = NEED[b[27:]]
    except KeyError:
        m, p, s, h = (NEED.get(k) or need_code(k) for k in (b[:9], b[9:18], b[18:27], b[27:34]))
    low = (m | p | s | h) & 0xFF
    # sum of n0 over the parts, plus the smallest n1 - n0 (the part that holds the pair)
    return ((m + p + s + h) >> 16) + (low & -low).bit_length() - 5 <= wilds


def _distance_vector(counts: Sequence[int]) -> tuple[int, ...]:
    b = bytes(counts)
    k = b[0:9]
    m = SUIT_DIST.get(k)
    if m is None:
        m = suit_dist(k)
    k = b[9:18]
    p = SUIT_DIST.get(k)
    if p is None:
        p = suit_dist(k)
    k = b[18:27]
    s = SUIT_DIST.get(k)
    if s is None:
        s = suit_dist(k)
    k = b[27:34]
    h = HONOUR_DIST.get(k)
    if h is None:
        h = honour_dist(k)
    mp = COMBINED.get((m << 20) | p)
    if mp is None:
        mp = combine(m, p)
    sh = COMBINED.get((s << 20) | h)
    if sh is None:
        sh = combine(s, h)
    whole = COMBINED.get((mp << 20) | sh)
    if whole is None:
        whole = combine(mp, sh)
    return VECTORS[whole]


def shanten(
    counts: Sequence[int], wilds: int = 0, sets: int = 4, visible: Sequence[int] | None = None
) -> int:
    """Tiles away from ready (0 = ready, -1 = complete) for ``sets`` sets and a pair.

    Ready means at least one live wait (``waits``): a hand of ``3 * sets + 1`` tiles whose
    every wait is dead, or one of ``3 * sets + 2`` whose every discard leaves only dead
    waits, is not ready and counts 1. ``visible`` is as in ``waits``.
    """
    distance = _distance_vector(counts)[2 * sets + 1] - wilds - 1
    if distance != 0 or (visible is None and 4 not in counts):
        return distance  # no wait can be dead: the shape decides
    return 0 if _ready(counts, wilds, sets, visible) else 1


def _ready(counts: Sequence[int], wilds: int, sets: int, visible: Sequence[int] | None) -> bool:
    """Whether a hand the tables call ready has a live wait (now, or after one discard)."""
    tiles = sum(counts) + wilds
    seen = counts if visible is None else visible
    if tiles == 3 * sets + 1:
        return bool(waits(counts, wilds, seen))
    if tiles != 3 * sets + 2:
        return True  # not a hand size: only the shape is asked
    work = list(counts)
    for kind in range(34):
        if work[kind]:
            work[kind] -= 1
            found = _distance_vector(work)[2 * sets + 1] - wilds - 1 == 0 and waits(
                work, wilds, seen
            )
            work[kind] += 1
            if found:
                return True
    # discarding a wild keeps every natural tile
    return wilds > 0 and bool(waits(counts, wilds - 1, seen))


def waits(
    counts: Sequence[int], wilds: int = 0, visible: Sequence[int] | None = None
) -> list[int]:
    """The kinds (0-33) the hand can still draw that complete it: ``3n + 1`` tiles with wilds.

    A kind whose four copies are all out of reach is no wait: those in ``counts`` (the hand
    holds all four) and, when given, ``visible``: the copies of each kind the player knows
    cannot come (its own hand included; a caller may add its melds, the table, or 4 for a
    kind with no natural tile in play, such as the wild's face). A drawn wild is not a wait:
    the wild rules decide what it completes.
    """
    work = list(counts)
    out = []
    for kind in range(34):
        if work[kind] >= 4 or (visible is not None and visible[kind] >= 4):
            continue
        work[kind] += 1
        if is_complete(work, wilds):
            out.append(kind)
        work[kind] -= 1
    return out


def held_copies(
    counts: Sequence[int], melds: Iterable[Sequence[int]], absent: Iterable[int] = ()
) -> list[int]:
    """``visible`` for ``waits`` from the player's own tiles: its concealed counts, the tiles
    of its melds, and 4 for each kind in ``absent`` (no natural copy in play: wilds, specials).
    """
    out = list(counts[:34])
    for tiles in melds:
        for kind in tiles:
            if kind < 34:
                out[kind] += 1
    for kind in absent:
        if kind < 34:
            out[kind] = 4
    return out


def _part_vector(counts: Sequence[int], part: int) -> tuple[int, ...]:
    b = bytes(counts)
    if part < 3:
        key = b[9 * part : 9 * part + 9]
        vid = SUIT_DIST.get(key)
        return VECTORS[suit_dist(key) if vid is None else vid]
    key = b[27:34]
    vid = HONOUR_DIST.get(key)
    return VECTORS[honour_dist(key) if vid is None else vid]


def triplet_shanten(
    counts: Sequence[int], wilds: int, sets: int, kinds: Sequence[int] | None = None
) -> int:
    """Shanten toward ``sets`` triplets and a pair (对对和) using only ``kinds`` (default all).

    The best ``sets + 1`` kinds by count become the triplets and the pair; a wild fills one
    missing tile.
    """
    pool = counts if kinds is None else [counts[k] for k in kinds]
    have = sorted((min(c, 3) for c in pool), reverse=True)[: sets + 1]
    have += [0] * (sets + 1 - len(have))
    triplet_missing = sum(3 - c for c in have)
    best = min(triplet_missing - (3 - c) + (2 - min(c, 2)) for c in have)
    return best - wilds - 1


def pattern_shanten(
    counts: Sequence[int], wilds: int, sets: int, pattern: str, suit: int | None = None
) -> int:
    """Shanten toward one 台头和 pattern, ignoring tiles that cannot belong to it.

    ``pattern`` is one of ``qingyise`` (one suit, ``suit`` 0-2 or the best), ``hunyise``
    (one suit plus honours), ``duiduihe`` (triplets only) or ``quanlaotou`` (honours only).
    The caller rules out patterns that the exposed melds already break.
    """
    if pattern == "qingyise" or pattern == "hunyise":
        suits = range(3) if suit is None else (suit,)
        best = tables.INF
        honours = _part_vector(counts, 3) if pattern == "hunyise" else None
        for s in suits:
            vec = _part_vector(counts, s)
            if honours is not None:
                vec = VECTORS[combine(tables._intern(vec), tables._intern(honours))]
            best = min(best, vec[2 * sets + 1])
        return best - wilds - 1
    if pattern == "quanlaotou":
        return _part_vector(counts, 3)[2 * sets + 1] - wilds - 1
    if pattern == "duiduihe":
        return triplet_shanten(counts, wilds, sets)
    raise ValueError(f"unknown pattern {pattern!r}; expected one of {', '.join(PATTERNS)}")
