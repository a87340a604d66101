"""Per-part tables keyed by count vectors, filled at first use and kept for the process.

A hand's 34 kinds fall into four *parts*: the three suits (9 kinds each, sequences allowed)
and the honours (7 kinds, triplets and pairs only). Everything the evaluator answers is a
combination of per-part facts, so each part's count vector (as ``bytes``) is the key of:

* ``NEED[part]``: the fewest wilds ``n0`` that complete every tile of the part into sets, and
  ``n1`` into sets plus one pair, packed as ``n0 << 16 | 1 << (n1 - n0 + 4)``: summing four
  parts' codes adds their ``n0``, and OR-ing their low bits marks the smallest ``n1 - n0``
  (always in -1..2), so the win test needs no ``min`` call.
* ``dist_id(part)``: the id of a distance vector ``d[2k + p]`` = the fewest tiles missing to
  form ``k`` sets (k = 0..5) and ``p`` pairs (p = 0..1) out of the part's tiles, the rest
  being thrown away. Vectors are interned, and combined part by part through a second
  cached table (``combine``), so a shanten number costs a handful of dictionary lookups.

Entries are computed by an exhaustive recursion on first sight of a key and cached. The same
recursion, told which kinds can no longer come (``dist_without``), gives the vectors that
``capped.capped_shanten`` combines for hands holding two or more quads.
"""

from __future__ import annotations

from functools import cache

MAX_SETS = 5
VEC_LEN = 2 * (MAX_SETS + 1)
INF = 99

NEED: dict[bytes, int] = {}  # 9-byte suit keys and 7-byte honour keys share one table
SUIT_DIST: dict[bytes, int] = {}
HONOUR_DIST: dict[bytes, int] = {}

_vec_ids: dict[tuple[int, ...], int] = {}
VECTORS: list[tuple[int, ...]] = []
COMBINED: dict[int, int] = {}


def _groups_with_lowest(counts: bytes, i: int, sequences: bool, allow_pair: bool):
    """Every group that holds one copy of kind ``i`` (the lowest left) and naturals only at or
    above ``i``: yields (is_pair, naturals used as a tuple of indices, the kinds missing)."""
    c = counts[i]
    for used in range(1, min(c, 3) + 1):
        yield False, (i,) * used, (i,) * (3 - used)
    if allow_pair:
        for used in range(1, min(c, 2) + 1):
            yield True, (i,) * used, (i,) * (2 - used)
    if not sequences:
        return
    for start in (i - 2, i - 1, i):
        if start < 0 or start + 2 > 8:
            continue
        others = [p for p in (start, start + 1, start + 2) if p != i]
        # every choice of natural (where one is left) or missing for the other two positions,
        # as (natural, missing)
        choices: list[list[tuple[tuple[int, ...], tuple[int, ...]]]] = []
        for p in others:
            opts: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), (p,))]
            if p > i and counts[p] > 0:
                opts.append(((p,), ()))
            choices.append(opts)
        for first, first_missing in choices[0]:
            for second, second_missing in choices[1]:
                yield False, (i,) + first + second, first_missing + second_missing


def minus(counts: bytes, used: tuple[int, ...]) -> bytes:
    """``counts`` with one copy of each index in ``used`` taken away."""
    arr = bytearray(counts)
    for p in used:
        arr[p] -= 1
    return bytes(arr)


@cache
def _needs(counts: bytes, sequences: bool) -> tuple[int, int]:
    """Fewest wilds completing all of ``counts`` into sets, and into sets and exactly one pair
    (one recursion for both: a group that is not the pair leaves both questions to the rest)."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return 0, 2
    best0 = best1 = INF
    for is_pair, used, missing in _groups_with_lowest(counts, i, sequences, True):
        rest0, rest1 = _needs(minus(counts, used), sequences)
        if is_pair:
            if len(missing) + rest0 < best1:
                best1 = len(missing) + rest0
            continue
        if len(missing) + rest0 < best0:
            best0 = len(missing) + rest0
        if len(missing) + rest1 < best1:
            best1 = len(missing) + rest1
    return best0, best1


# groups made of missing tiles only: 3 per set and 2 for the pair
_FROM_NOTHING = tuple(3 * (j // 2) + 2 * (j % 2) for j in range(VEC_LEN))
_NOTHING = (0,) + (INF,) * (VEC_LEN - 1)  # no kind of the part can come


def relax(best: list[int], sub: tuple[int, ...], missing: int, is_pair: bool) -> None:
    """Lower ``best`` by one more group (a pair or a set) missing ``missing`` tiles, on top of
    the rest's distance vector ``sub``."""
    if is_pair:
        for k in range(MAX_SETS + 1):
            value = sub[2 * k] + missing
            if value < best[2 * k + 1]:
                best[2 * k + 1] = value
    else:
        for k in range(MAX_SETS):
            for p in (0, 1):
                value = sub[2 * k + p] + missing
                if value < best[2 * (k + 1) + p]:
                    best[2 * (k + 1) + p] = value


@cache
def _dist(counts: bytes, sequences: bool, gone: bytes) -> tuple[int, ...]:
    """Distance vector d[2k+p]: fewest tiles missing for k sets and p pairs from ``counts``;
    none of the missing tiles of a kind marked in ``gone`` (``b""``: every kind can come)."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return _NOTHING if gone and 0 not in gone else _FROM_NOTHING
    best = list(_dist(minus(counts, (i,)), sequences, gone))  # throw one copy of i away
    for is_pair, used, kinds in _groups_with_lowest(counts, i, sequences, True):
        if gone and any(gone[k] for k in kinds):
            continue  # a tile that can no longer come
        sub = _dist(minus(counts, used), sequences, gone)
        relax(best, sub, len(kinds), is_pair)
    return tuple(best)


def _intern(vec: tuple[int, ...]) -> int:
    vid = _vec_ids.get(vec)
    if vid is None:
        vid = len(VECTORS)
        _vec_ids[vec] = vid
        VECTORS.append(vec)
    return vid


def need_code(key: bytes) -> int:
    """Fill and return ``NEED[key]`` for a suit (9 bytes) or the honours (7 bytes)."""
    if len(key) == 9:
        n0, n1 = _needs(key, True)
    else:
        n0, n1 = _needs(bytes(sorted(key)), False)
    code = (n0 << 16) | (1 << (n1 - n0 + 4))
    NEED[key] = code
    return code


def suit_dist(key: bytes) -> int:
    vid = _intern(_dist(key, True, b""))
    SUIT_DIST[key] = vid
    return vid


def honour_dist(key: bytes) -> int:
    vid = _intern(_dist(bytes(sorted(key)), False, b""))
    HONOUR_DIST[key] = vid
    return vid


def dist_without(key: bytes, gone: bytes) -> int:
    """The id of the distance vector of a suit (9 bytes) or the honours (7) where no missing
    tile may be of a kind marked in ``gone`` (not kept in ``SUIT_DIST``/``HONOUR_DIST``)."""
    return _intern(_dist(key, len(key) == 9, gone))


def combine(a: int, b: int) -> int:
    """The id of the min-plus combination of distance vectors ``a`` and ``b``."""
    va, vb = VECTORS[a], VECTORS[b]
    out = [INF] * VEC_LEN
    for ka in range(MAX_SETS + 1):
        for pa in (0, 1):
            x = va[2 * ka + pa]
            for kb in range(MAX_SETS + 1 - ka):
                for pb in (0, 1 - pa):
                    j = 2 * (ka + kb) + pa + pb
                    value = x + vb[2 * kb + pb]
                    if value < out[j]:
                        out[j] = value
    vid = _intern(tuple(out))
    COMBINED[(a << 20) | b] = vid
    return vid
