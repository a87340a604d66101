"""Every reading of a complete hand: its split into sets and a pair, and each wild's face.

A reading is a tuple of ``Group`` values, sorted, so two readings compare equal exactly when
they split the hand the same way with the same wild faces. ``readings`` yields each distinct
reading once, lazily, so a caller that stops early pays only for what it used.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from functools import cache
from itertools import combinations_with_replacement, product
from typing import NamedTuple

SEQ, TRIPLET, PAIR = "seq", "triplet", "pair"
ALL_FACES = frozenset(range(34))
SEQUENCE_STARTS = tuple(s * 9 + r for s in range(3) for r in range(7))


class Group(NamedTuple):
    """One set or the pair of a reading, with the faces its wild tiles take."""

    shape: str  # "seq", "triplet" or "pair"
    tile: int  # the lowest tile of a sequence, the kind of a triplet or pair
    wild_faces: tuple[int, ...] = ()

    @property
    def tiles(self) -> tuple[int, ...]:
        """The kinds the group stands for, wilds substituted."""
        if self.shape == SEQ:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (3 if self.shape == TRIPLET else 2)

    @property
    def is_set(self) -> bool:
        return self.shape != PAIR


Reading = tuple[Group, ...]


def _with_lowest(
    counts: list[int], i: int, wilds: int, pair_open: bool, faces: Collection[int]
) -> Iterator[tuple[Group, tuple[int, ...]]]:
    """Groups holding one natural ``i`` (the lowest left): (group, naturals used)."""
    c = counts[i]
    for used in range(min(c, 3), 0, -1):
        need = 3 - used
        if need <= wilds and (need == 0 or i in faces):
            yield Group(TRIPLET, i, (i,) * need), (i,) * used
    if pair_open:
        for used in range(min(c, 2), 0, -1):
            need = 2 - used
            if need <= wilds and (need == 0 or i in faces):
                yield Group(PAIR, i, (i,) * need), (i,) * used
    if i >= 27:
        return
    rank = i % 9
    for start in (i - 2, i - 1, i):
        if start < i - rank or start + 2 > i - rank + 8:
            continue
        positions = [p for p in (start, start + 1, start + 2) if p != i]
        options: list[list[tuple[bool, int]]] = []
        for p in positions:
            opts = []
            if p > i and counts[p] > 0:
                opts.append((True, p))
            if p in faces:
                opts.append((False, p))
            options.append(opts)
        for a in options[0]:
            for b in options[1]:
                wild_faces = tuple(p for natural, p in (a, b) if not natural)
                if len(wild_faces) > wilds:
                    continue
                used = (i,) + tuple(p for natural, p in (a, b) if natural)
                yield Group(SEQ, start, wild_faces), used


@cache
def _wild_group_options(faces: frozenset[int]) -> tuple[tuple[Group, ...], tuple[Group, ...]]:
    """Every all-wild set and every all-wild pair whose faces are allowed."""
    sets = [Group(TRIPLET, f, (f,) * 3) for f in sorted(faces)]
    sets += [
        Group(SEQ, s, (s, s + 1, s + 2))
        for s in SEQUENCE_STARTS
        if s in faces and s + 1 in faces and s + 2 in faces
    ]
    pairs = tuple(Group(PAIR, f, (f, f)) for f in sorted(faces))
    return tuple(sets), pairs


def _pure_wild_groups(
    wilds: int, pair_open: bool, faces: Collection[int]
) -> Iterator[tuple[Group, ...]]:
    """Every way the leftover wilds form whole sets (and the pair, if still open)."""
    n_sets, rest = divmod(wilds - (2 if pair_open else 0), 3)
    if rest or n_sets < 0:
        return
    if n_sets == 0 and not pair_open:
        yield ()
        return
    frozen = faces if isinstance(faces, frozenset) else frozenset(faces)
    set_options, pair_options = _wild_group_options(frozen)
    for sets in combinations_with_replacement(set_options, n_sets):
        if pair_open:
            for pair in pair_options:
                yield sets + (pair,)
        else:
            yield sets


@cache
def _part_splits(key: bytes, offset: int) -> tuple[tuple[Reading, ...], tuple[Reading, ...]]:
    """The splits of one part's natural tiles: (into sets only, into sets and one pair).

    ``key`` is the part's count vector (9 bytes for a suit, 7 for the honours) and ``offset``
    its first kind. Computed once per distinct part and cached.
    """
    sequences = len(key) == 9
    work = list(key)
    found: tuple[set[Reading], set[Reading]] = (set(), set())
    stack: list[Group] = []

    def walk(i: int, has_pair: bool) -> None:
        while i < len(work) and work[i] == 0:
            i += 1
        if i == len(work):
            found[has_pair].add(tuple(sorted(stack)))
            return
        kind = offset + i
        options: list[tuple[Group, tuple[int, ...]]] = []
        if work[i] >= 3:
            options.append((Group(TRIPLET, kind), (i, i, i)))
        if not has_pair and work[i] >= 2:
            options.append((Group(PAIR, kind), (i, i)))
        if sequences and i <= 6 and work[i + 1] and work[i + 2]:
            options.append((Group(SEQ, kind), (i, i + 1, i + 2)))
        for group, used in options:
            for p in used:
                work[p] -= 1
            stack.append(group)
            walk(i, has_pair or group.shape == PAIR)
            stack.pop()
            for p in used:
                work[p] += 1

    walk(0, False)
    return tuple(sorted(found[0])), tuple(sorted(found[1]))


def _natural_readings(counts: Sequence[int]) -> Iterator[Reading]:
    """Readings of a hand without wilds: per-part splits, the pair in exactly one part."""
    b = bytes(counts)
    parts = [
        _part_splits(b[0:9], 0),
        _part_splits(b[9:18], 9),
        _part_splits(b[18:27], 18),
        _part_splits(b[27:34], 27),
    ]
    for pair_part in range(4):
        choices = [parts[p][1 if p == pair_part else 0] for p in range(4)]
        if not all(choices):
            continue
        for combo in product(*choices):
            yield tuple(sorted(combo[0] + combo[1] + combo[2] + combo[3]))


def readings(
    counts: Sequence[int], wilds: int = 0, faces: Collection[int] = ALL_FACES
) -> Iterator[Reading]:
    """Each distinct reading of ``counts`` (34 kinds) plus ``wilds`` as sets and one pair.

    ``faces`` limits what a wild may stand for (Wenling's specials, for example).
    """
    work = list(counts)
    total = sum(work) + wilds
    if total % 3 != 2:
        return
    if wilds == 0:
        yield from _natural_readings(work)
        return
    seen: set[Reading] = set()
    stack: list[Group] = []

    def walk(start: int, wilds_left: int, pair_open: bool) -> Iterator[Reading]:
        i = start
        while i < 34 and work[i] == 0:
            i += 1
        if i == 34:
            for tail in _pure_wild_groups(wilds_left, pair_open, faces):
                reading = tuple(sorted(stack + list(tail)))
                if reading not in seen:
                    seen.add(reading)
                    yield reading
            return
        for group, used in list(_with_lowest(work, i, wilds_left, pair_open, faces)):
            for p in used:
                work[p] -= 1
            stack.append(group)
            still_open = pair_open and group.shape != PAIR
            yield from walk(i, wilds_left - len(group.wild_faces), still_open)
            stack.pop()
            for p in used:
                work[p] += 1

    yield from walk(0, wilds, True)


def wild_faces_of(reading: Reading) -> list[int]:
    """The faces of all the wilds in a reading, groups in order."""
    return [face for group in reading for face in group.wild_faces]
