"""Tile efficiency with wilds: distances to a target shape, acceptance (ukeire) and win odds.

A *target* is a shape the hand may finish as: ``any`` (sets and a pair, the plain wild-aware
shanten) or one of the 台头和 patterns, optionally restricted to one suit and combined with
对对和. Every distance here is a shanten number (0 = tenpai, -1 = complete) of the concealed
part, computed by ``baida.evaluator`` on the tiles that can belong to the target; the rest of
the hand is dead weight that has to be thrown away, which the shanten number accounts for.

Distances are memoised on the part of the hand that matters for the target, so the same
suit shape met again (a very common event while scanning discards and draws) costs one
dictionary lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from ..evaluator import shanten, shanten_after_each, triplet_shanten
from .bounded import BoundedTable

NUM = 34
HONOUR_SLICE = slice(27, 34)


def _run_partners(kind: int) -> tuple[tuple[int, int], ...]:
    if kind >= 27:
        return ()
    rank, base = kind % 9, kind - kind % 9
    pairs = ((rank - 2, rank - 1), (rank - 1, rank + 1), (rank + 1, rank + 2))
    return tuple((base + a, base + b) for a, b in pairs if 0 <= a and b <= 8)


# per kind, the pairs of kinds that make a run (顺子) with it, lowest first; none for honours
RUN_PARTNERS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_run_partners(k) for k in range(NUM))


@dataclass(frozen=True, slots=True)
class Target:
    """A finishing shape: ``kind`` in any/qingyise/hunyise/duiduihe/quanlaotou, ``suit`` 0-2
    for the one-suit patterns, ``triplets`` when 对对和 is required on top of the kind."""

    kind: str
    suit: int | None = None
    triplets: bool = False

    @property
    def label(self) -> str:
        name = self.kind
        if self.suit is not None:
            name += "mps"[self.suit]
        if self.triplets and self.kind != "duiduihe":
            name += "+duiduihe"
        return name

    def kinds(self) -> range | tuple[int, ...]:
        """The tile kinds that can belong to the target."""
        if self.kind == "quanlaotou":
            return tuple(range(27, 34))
        if self.kind == "qingyise":
            assert self.suit is not None
            return tuple(range(9 * self.suit, 9 * self.suit + 9))
        if self.kind == "hunyise":
            assert self.suit is not None
            return tuple(range(9 * self.suit, 9 * self.suit + 9)) + tuple(range(27, 34))
        return range(NUM)


# A pattern's distance is the plain shanten of the tiles that can belong to it (the others are
# thrown away), exactly what ``pattern_shanten`` computes (the tests check the agreement); it
# is linear in the number of wilds (each wild stands for one missing tile), so the caches hold
# the wild-free distance and the caller subtracts the wilds; a suit's shape is the same in
# every suit, so one-suit parts are cached without their suit.


# keyed by the part's bytes and then the number of sets
_SUIT: BoundedTable[bytes, int] = BoundedTable(100_000)  # one suit, the same in every suit
_MIXED: BoundedTable[bytes, int] = BoundedTable(200_000)  # one suit, then the honours
_HONOURS: BoundedTable[bytes, int] = BoundedTable(20_000)
_TRIPLETS: BoundedTable[bytes, int] = BoundedTable(200_000)  # 对对和: the kinds it may hold


def _suit_only(part: bytes, sets: int) -> int:
    return shanten([*part, *bytes(25)], 0, sets)


def _suit_and_honours(part: bytes, sets: int) -> int:
    return shanten([*part[:9], *bytes(18), *part[9:]], 0, sets)


def _honours_only(part: bytes, sets: int) -> int:
    return shanten([*bytes(27), *part], 0, sets)


def _triplets(pool: bytes, sets: int) -> int:
    return triplet_shanten(pool, 0, sets)


def _cached(table: BoundedTable[bytes, int], part: bytes, sets: int,
            compute: Callable[[bytes, int], int]) -> int:
    key = part + bytes((sets,))
    got = table.table.get(key)
    return table.put(key, compute(part, sets)) if got is None else got


def distance(counts: Sequence[int], wilds: int, sets: int, target: Target) -> int:
    """Shanten of the concealed part (``counts`` of 34 kinds plus ``wilds``) toward ``target``."""
    kind = target.kind
    if kind == "any":
        return shanten(counts, wilds, sets)
    if kind == "quanlaotou":  # honours only: always triplets and a pair
        return _cached(_HONOURS, bytes(counts[27:34]), sets, _honours_only) - wilds
    if kind == "duiduihe":
        return _cached(_TRIPLETS, bytes(counts), sets, _triplets) - wilds
    assert target.suit is not None
    lo = 9 * target.suit
    pool = bytes(counts[lo : lo + 9])
    if kind == "hunyise":
        pool += bytes(counts[27:34])
    elif kind != "qingyise":
        raise ValueError(f"unknown target kind {kind!r}")
    if target.triplets:  # the pools' lengths (9, 16, 34) keep them apart
        return _cached(_TRIPLETS, pool, sets, _triplets) - wilds
    if kind == "qingyise":
        return _cached(_SUIT, pool, sets, _suit_only) - wilds
    return _cached(_MIXED, pool, sets, _suit_and_honours) - wilds


# the kinds changed and the distance after each change (two tuples: no object per kind)
Row = tuple[tuple[int, ...], tuple[int, ...]]


_KIND_CODES = {"any": 0, "qingyise": 1, "hunyise": 2, "duiduihe": 3, "quanlaotou": 4}
_ROWS: BoundedTable[bytes, Row] = BoundedTable(65_536)  # ~22 MB when full


def _row(counts: Sequence[int], wilds: int, sets: int, target: Target, delta: int) -> Row:
    """The kinds and the distance toward ``target`` with one copy more (``delta=1``) of each of the
    target's kinds, or one fewer (-1) of each it holds; kept per hand, since the second ply
    meets the same hand after several orders of draw and discard."""
    key = bytes(counts)
    suit = 3 if target.suit is None else target.suit
    code = (wilds, sets, _KIND_CODES[target.kind], suit, target.triplets, delta > 0)
    cache_key = key + bytes(code)
    row = _ROWS.table.get(cache_key)
    if row is None:
        if delta > 0:
            kinds = _target_kinds(target)
        else:
            kinds = tuple(k for k in target.kinds() if key[k] > 0)
        if target.kind == "any":
            after = shanten_after_each(key, wilds, sets, kinds, delta)
        else:
            after = _pattern_distances(list(key), wilds, sets, target, kinds, delta)
        row = _ROWS.put(cache_key, (kinds, tuple(after)))
    return row


@cache
def _target_kinds(target: Target) -> tuple[int, ...]:
    """``target.kinds()`` as one shared tuple (every draw row of the target holds it)."""
    return tuple(target.kinds())


def _pattern_distances(
    counts: list[int], wilds: int, sets: int, target: Target, kinds: Sequence[int], delta: int
) -> list[int]:
    """``distance`` after changing each of ``kinds`` by ``delta``. A triplet pattern's distance
    depends only on how many copies each kind has, so kinds held equally often share one."""
    by_copies = target.triplets or target.kind == "duiduihe"
    known: dict[int, int] = {}
    out = []
    for k in kinds:
        held = counts[k]
        if not (by_copies and held in known):
            counts[k] += delta
            known[held] = distance(counts, wilds, sets, target)
            counts[k] -= delta
        out.append(known[held])
    return out


def acceptance(
    counts: list[int],
    wilds: int,
    sets: int,
    target: Target,
    live: Sequence[int],
    live_wilds: int,
    base: int | None = None,
) -> tuple[int, int, list[int]]:
    """For a hand one tile short (3n+1): its distance, how many live tiles lower it, and which
    kinds do. ``counts`` is modified in place and restored."""
    if base is None:
        base = distance(counts, wilds, sets, target)
    if base < 0:
        return base, 0, []
    total = 0
    kinds: list[int] = []
    for k, d in zip(*_row(counts, wilds, sets, target, 1), strict=True):
        if live[k] > 0 and d < base:
            total += live[k]
            kinds.append(k)
    if live_wilds > 0:
        total += live_wilds  # a wild lowers any distance that is not already complete
    return base, total, kinds


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """The outlook after discarding ``tile`` (a kind, or the wild marker -1)."""

    tile: int
    target: Target
    distance: int
    ukeire: int
    improving: tuple[int, ...]


WILD_DISCARD = -1


def discard_options(
    counts: list[int],
    wilds: int,
    sets: int,
    target: Target,
    live: Sequence[int],
    live_wilds: int,
    allow_wild: bool = False,
) -> list[DiscardOption]:
    """Every distinct discard of a full hand (3n+2) scored for ``target``."""
    out: list[DiscardOption] = []
    for k in range(NUM):
        if counts[k] == 0:
            continue
        counts[k] -= 1
        d, u, imp = acceptance(counts, wilds, sets, target, live, live_wilds)
        counts[k] += 1
        out.append(DiscardOption(k, target, d, u, tuple(imp)))
    if allow_wild and wilds > 0:
        d, u, imp = acceptance(counts, wilds - 1, sets, target, live, live_wilds)
        out.append(DiscardOption(WILD_DISCARD, target, d, u, tuple(imp)))
    return out


def best_next_acceptance(
    counts: list[int],
    wilds: int,
    sets: int,
    target: Target,
    live: Sequence[int],
    live_wilds: int,
    limit: int = 6,
) -> float:
    """Average over improving draws of the best acceptance after drawing and discarding.

    This is the second ply of the efficiency search: the first draw's acceptance is known, this
    says how good the hand will be *after* it improves. ``limit`` caps how many improving kinds
    are examined (the most numerous first) to bound the cost.
    """
    base, _, kinds = acceptance(counts, wilds, sets, target, live, live_wilds)
    if base <= 0 or not kinds:
        return 0.0
    kinds.sort(key=lambda k: -live[k])
    weight = 0.0
    acc = 0.0
    for k in kinds[:limit]:
        counts[k] += 1
        live_k = live[k]
        best = 0
        for j, d in zip(*_row(counts, wilds, sets, target, -1), strict=True):
            if d < base:
                counts[j] -= 1
                _, u, _ = acceptance(counts, wilds, sets, target, live, live_wilds, base=d)
                if u > best:
                    best = u
                counts[j] += 1
        counts[k] -= 1
        acc += live_k * best
        weight += live_k
    return acc / weight if weight else 0.0


def completion_probability(stages: Sequence[float], draws: int, hazard: float = 0.0) -> float:
    """Chance of ``len(stages)`` successes within ``draws`` tries, the ``i``-th success having
    probability ``stages[i]`` per try (a staged negative binomial); ``hazard``: the chance per
    try that the tries stop before it (another player finishes first)."""
    need = len(stages)
    if need == 0:
        return 1.0
    if draws <= 0:
        return 0.0
    ps = [min(max(p, 0.0), 1.0) for p in stages]
    go_on = 1.0 - min(max(hazard, 0.0), 1.0)
    # dist[j] = probability of j successes so far
    dist = [0.0] * (need + 1)
    dist[0] = 1.0
    for _ in range(draws):
        nxt = [0.0] * (need + 1)
        nxt[need] = dist[need]
        for j in range(need):
            p = ps[j]
            nxt[j] += dist[j] * (1 - p) * go_on
            nxt[j + 1] += dist[j] * p * go_on
        dist = nxt
    return dist[need]
