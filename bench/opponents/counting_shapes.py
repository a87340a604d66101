"""CountingBot's shapes: tile names and the distance (tiles still missing) to a finishing shape.

Part of the outside opponent ``bench.opponents.counting``; like it, it imports nothing from
``baida``.
"""

from __future__ import annotations

from functools import lru_cache

# --------------------------------------------------------------------------- tiles

SUITS = "mps"
HONORS = "ESWNCFP"
NKINDS = 34
MAX_SLOTS = 5  # Wenling: five sets


def face_to_kind(face: str) -> int | None:
    """1m..9m -> 0..8, 1p..9p -> 9..17, 1s..9s -> 18..26, E S W N C F P -> 27..33."""
    if len(face) == 2 and face[0].isdigit() and face[1] in SUITS:
        return SUITS.index(face[1]) * 9 + int(face[0]) - 1
    if len(face) == 1 and face in HONORS:
        return 27 + HONORS.index(face)
    return None  # flowers


def kind_to_face(kind: int) -> str:
    if kind >= 27:
        return HONORS[kind - 27]
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


# --------------------------------------------------------------------------- distance
#
# A group (one suit, or the honours) is summarised by a table T[j][e]: the most of its tiles
# that can be kept in a finished hand using at most j set slots and at most e (0/1) pair.
# Blocks: set (3 tiles, 1 slot), partial set (2 tiles, 1 slot), seed (1 tile, 1 slot),
# pair (2 tiles, the eye), half pair (1 tile, the eye). The distance of a hand is then
# (3 * slots + 2) - kept - wilds: the tiles still missing (0 = complete, 1 = ready).

_W = MAX_SLOTS + 1
_ZERO = (0,) * (2 * _W)


def _shift(sub: tuple[int, ...], slots: int, eye: int, gain: int, out: list[int]) -> None:
    for j in range(slots, _W):
        for e in range(eye, 2):
            v = sub[(j - slots) * 2 + (e - eye)] + gain
            if v > out[j * 2 + e]:
                out[j * 2 + e] = v


@lru_cache(maxsize=1 << 19)
def group_table(counts: tuple[int, ...], seq: bool) -> tuple[int, ...]:
    """The table of a group; ``seq`` allows runs (a suit outside the 对对和 target)."""
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        return _ZERO
    c = list(counts)
    out = [0] * (2 * _W)
    c[i] -= 1
    rest1 = group_table(tuple(c), seq)
    _shift(rest1, 0, 0, 0, out)  # tile unused
    _shift(rest1, 1, 0, 1, out)  # seed of a set
    _shift(rest1, 0, 1, 1, out)  # half of the pair
    if counts[i] >= 2:
        c[i] -= 1
        rest2 = group_table(tuple(c), seq)
        _shift(rest2, 0, 1, 2, out)  # the pair
        _shift(rest2, 1, 0, 2, out)  # a partial triplet
        if counts[i] >= 3:
            c[i] -= 1
            _shift(group_table(tuple(c), seq), 1, 0, 3, out)  # triplet
            c[i] += 1
        c[i] += 1
    c[i] += 1  # back to counts
    if seq:
        if i + 1 < n and counts[i + 1]:
            c[i] -= 1
            c[i + 1] -= 1
            _shift(group_table(tuple(c), seq), 1, 0, 2, out)  # two in a row
            if i + 2 < n and counts[i + 2]:
                c[i + 2] -= 1
                _shift(group_table(tuple(c), seq), 1, 0, 3, out)  # run
                c[i + 2] += 1
            c[i] += 1
            c[i + 1] += 1
        if i + 2 < n and counts[i + 2]:
            c[i] -= 1
            c[i + 2] -= 1
            _shift(group_table(tuple(c), seq), 1, 0, 2, out)  # gapped
    return tuple(out)


@lru_cache(maxsize=1 << 17)
def fold(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * (2 * _W)
    for j in range(_W):
        for e in range(2):
            best = 0
            for j1 in range(j + 1):
                j2 = j - j1
                for e1 in range(e + 1):
                    v = a[j1 * 2 + e1] + b[j2 * 2 + (e - e1)]
                    if v > best:
                        best = v
            out[j * 2 + e] = best
    return tuple(out)


def kept_of(tables: list[tuple[int, ...]], slots: int) -> int:
    acc = tables[0]
    for t in tables[1:]:
        acc = fold(acc, t)
    return acc[slots * 2 + 1]


def split(counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [counts[0:9], counts[9:18], counts[18:27], counts[27:34]]


def distance_from_kept(kept: int, wilds: int, slots: int) -> int:
    return max(0, 3 * slots + 2 - kept - wilds)


# Targets. A target is (name, suit or None); Jiaxing allows a target only if the melds fit it.
#   "std": any shape (Wenling).  "hy": one suit plus honours.  "qys": one suit only.
#   "qlt": honours only.  "ddh": triplets only.  "hyddh" / "qysddh": both.
# Jiaxing value in 台 (patterns stack with 对对和 as the rules say).
TARGET_TAI = {"hy": 2, "qys": 4, "qlt": 12, "ddh": 2, "hyddh": 4, "qysddh": 6}


def target_kept(groups: list[tuple[int, ...]], name: str, suit: int | None, slots: int) -> int:
    seq = name in ("std", "hy", "qys")
    if name in ("std", "ddh"):
        tabs = [group_table(groups[0], seq), group_table(groups[1], seq),
                group_table(groups[2], seq), group_table(groups[3], False)]
    elif name == "qlt":
        tabs = [group_table(groups[3], False)]
    elif name in ("hy", "hyddh"):
        tabs = [group_table(groups[suit], seq), group_table(groups[3], False)]
    else:  # qys, qysddh
        tabs = [group_table(groups[suit], seq)]
    return kept_of(tabs, slots)


def target_distance(counts: tuple[int, ...], wilds: int, slots: int, name: str,
                    suit: int | None = None) -> int:
    return distance_from_kept(target_kept(split(counts), name, suit, slots), wilds, slots)


@lru_cache(maxsize=200_000)
def hand_distance(counts: tuple[int, ...], wilds: int, slots: int,
                  targets: tuple[tuple[str, int | None], ...]) -> int:
    """Tiles missing to the nearest allowed target (0: complete, 1: ready)."""
    groups = split(counts)
    best = 99
    for name, suit in targets:
        d = distance_from_kept(target_kept(groups, name, suit, slots), wilds, slots)
        if d < best:
            best = d
    return best


def std_distance(counts: tuple[int, ...], wilds: int = 0, slots: int = 4) -> int:
    """Distance to any 'sets + pair' shape (public helper, used by the tests)."""
    return hand_distance(counts, wilds, slots, (("std", None),))


def counts_of(faces: list[str] | str) -> tuple[int, ...]:
    """Counts of natural kinds from faces (a list or a notation string such as '123m55pEE')."""
    if isinstance(faces, str):
        out: list[str] = []
        digits = ""
        for ch in faces.replace(" ", ""):
            if ch.isdigit():
                digits += ch
            elif ch in SUITS:
                out.extend(f"{d}{ch}" for d in digits)
                digits = ""
            else:
                out.append(ch)
        faces = out
    c = [0] * NKINDS
    for f in faces:
        k = face_to_kind(f)
        if k is not None:
            c[k] += 1
    return tuple(c)
