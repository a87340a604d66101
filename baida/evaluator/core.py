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
from .capped import capped_shanten
from .live import GONE, has_live_wait
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
from .waitrows import waits_of

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
    return _vector_of(bytes(counts))


def _vector_of(b: bytes) -> tuple[int, ...]:
    """The distance vector of a hand's 34 counts as bytes."""
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
    waits, is not ready and counts 1. ``visible`` is as in ``waits``. A hand without wilds
    that holds two or more kinds four times is counted by ``capped_shanten``: no tile still
    missing, at any distance, may be a fifth copy of those kinds.
    """
    key = bytes(counts)
    distance = _vector_of(key)[2 * sets + 1] - wilds - 1
    if distance >= 0 and not wilds and visible is None and 4 in key and key.count(4) >= 2:
        return capped_shanten(key, sets)  # the shape's route may need a fifth copy
    if distance != 0 or (visible is None and 4 not in key):
        return distance  # no wait can be dead: the shape decides
    return 0 if _ready(key, wilds, sets, visible) else 1


def shanten_after_each(
    counts: Sequence[int], wilds: int, sets: int, kinds: Iterable[int], delta: int = 1
) -> list[int]:
    """``shanten(counts', wilds, sets)`` for each kind in ``kinds``, ``counts'`` being
    ``counts`` with one copy of that kind added (``delta=1``) or taken away (``delta=-1``).

    The same numbers as calling ``shanten`` once per kind, faster: one tile changes one part,
    so the other three parts are combined once per part instead of once per kind.
    """
    if delta not in (1, -1):
        raise ValueError(f"delta must be 1 or -1, got {delta!r}")
    key = bytes(counts)
    parts = (key[0:9], key[9:18], key[18:27], key[27:34])
    ids = [_part_id(parts[p], p) for p in range(4)]
    others: list[int | None] = [None, None, None, None]
    steps: list[tuple[int, ...] | None] = [None, None, None, None]
    index = 2 * sets + 1
    quads = key.count(4)
    capping = not wilds and quads > 0  # one copy more or fewer may leave two quads
    out = []
    for kind in kinds:
        part = kind // 9
        rest = others[part]
        if rest is None:
            rest = others[part] = _combined_without(ids, part)
        changed = steps[part]
        if changed is None:
            changed = steps[part] = _step_ids(parts[part], part, delta)
        vid = changed[kind - 9 * part]
        if vid < 0:
            raise ValueError(f"kind {kind} has no copy to take away")
        whole = COMBINED.get((vid << 20) | rest)
        if whole is None:
            whole = combine(vid, rest)
        distance = VECTORS[whole][index] - wilds - 1
        if distance == 0 or (
            capping and distance > 0 and quads - (key[kind] == 4) + (key[kind] + delta == 4) >= 2
        ):
            work = list(key)
            work[kind] += delta
            if 4 in work:  # a dead wait may make it not ready, a fifth copy farther
                distance = shanten(work, wilds, sets)
        out.append(distance)
    return out


_STEPS: tuple[dict[bytes, tuple[int, ...]], dict[bytes, tuple[int, ...]]] = ({}, {})


def _step_ids(key: bytes, part: int, delta: int) -> tuple[int, ...]:
    """The vector ids of one part's key with one copy more (``delta=1``) or fewer (-1) of each
    of its kinds in turn; -1 where there is no copy to take away."""
    table = _STEPS[delta > 0]
    got = table.get(key)
    if got is None:
        ids = []
        for i in range(len(key)):
            if key[i] + delta < 0:
                ids.append(-1)
                continue
            work = bytearray(key)
            work[i] += delta
            ids.append(_part_id(bytes(work), part))
        got = table[key] = tuple(ids)
    return got


def _part_id(key: bytes, part: int) -> int:
    """The distance-vector id of one part's key (``part`` 3: the honours)."""
    if part < 3:
        vid = SUIT_DIST.get(key)
        return suit_dist(key) if vid is None else vid
    vid = HONOUR_DIST.get(key)
    return honour_dist(key) if vid is None else vid


def _combined_without(ids: Sequence[int], skip: int) -> int:
    """The id of the other three parts' vectors combined (min-plus is commutative)."""
    rest = [vid for part, vid in enumerate(ids) if part != skip]
    first = COMBINED.get((rest[0] << 20) | rest[1])
    if first is None:
        first = combine(rest[0], rest[1])
    whole = COMBINED.get((first << 20) | rest[2])
    return combine(first, rest[2]) if whole is None else whole


def _ready(key: bytes, wilds: int, sets: int, visible: Sequence[int] | None) -> bool:
    """Whether a hand the tables call ready has a live wait (now, or after one discard).

    A kind is out of reach when the hand holds four (``counts``) or ``visible`` says four;
    ``live.has_live_wait`` answers for a hand of ``3 * sets + 1`` or ``3 * sets + 2`` tiles.
    (Discarding a wild is never the way: a hand that would wait after it is already complete.)
    """
    tiles = sum(key) + wilds - 3 * sets
    if tiles != 1 and tiles != 2:
        return True  # not a hand size: only the shape is asked
    if visible is None:
        return has_live_wait(key, sets)
    mine = int.from_bytes(key.translate(GONE), "little")
    seen = int.from_bytes(bytes(visible[: len(key)]).translate(GONE), "little")
    return has_live_wait(key, sets, (mine | seen).to_bytes(len(key), "little"))


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
    found = waits_of(bytes(counts), wilds)
    if visible is None or not found:
        return found
    return [kind for kind in found if visible[kind] < 4]


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


def _capped_missing(
    counts: Sequence[int], sets: int, suit: int | None, honours: bool, missing: int
) -> int:
    """``missing`` (the shape's tiles missing from one suit and/or the honours), or what
    ``capped_shanten`` counts when those tiles hold two or more kinds four times."""
    kept = [0] * 34
    if suit is not None:
        kept[9 * suit : 9 * suit + 9] = counts[9 * suit : 9 * suit + 9]
    if honours:
        kept[27:34] = counts[27:34]
    if missing < 1 or kept.count(4) < 2:
        return missing
    return capped_shanten(kept, sets) + 1


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
    pool = counts if kinds is None else bytes(counts[k] for k in kinds)
    if not isinstance(pool, (bytes, bytearray)):
        pool = bytes(pool)
    ones = pool.count(1)
    twos = pool.count(2)
    threes = len(pool) - pool.count(0) - ones - twos
    # the best sets + 1 kinds, each counted up to 3: triplets first, then pairs, singles, none
    left = sets + 1
    took_threes = min(threes, left)
    left -= took_threes
    took_twos = min(twos, left)
    left -= took_twos
    took_ones = min(ones, left)
    left -= took_ones
    triplet_missing = took_twos + 2 * took_ones + 3 * left
    # one chosen kind becomes the pair: one held fewer than 3 times then misses one tile less;
    # when all are held 3 times, the pair is one of them with a tile to spare
    best = triplet_missing - 1 if took_threes < sets + 1 else triplet_missing
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
            missing = vec[2 * sets + 1]
            if not wilds:  # as ``shanten`` of the pattern's tiles: a fifth copy may be on the route
                missing = _capped_missing(counts, sets, s, honours is not None, missing)
            best = min(best, missing)
        return best - wilds - 1
    if pattern == "quanlaotou":
        missing = _part_vector(counts, 3)[2 * sets + 1]
        if not wilds:
            missing = _capped_missing(counts, sets, None, True, missing)
        return missing - wilds - 1
    if pattern == "duiduihe":
        return triplet_shanten(counts, wilds, sets)
    raise ValueError(f"unknown pattern {pattern!r}; expected one of {', '.join(PATTERNS)}")
