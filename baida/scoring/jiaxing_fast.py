"""The best Jiaxing shapes by parts: a fast search equivalent to trying every reading.

A hand's concealed part splits into four independent parts (万, 筒, 条, honours) plus the
groups made of wilds alone. What a part contributes to the score is small: how many wilds it
uses, whether it holds the pair, whether it needs a run (suits) or which honour triplets it
makes (honours). So each suit part is reduced, once per distinct count vector and cached, to
its achievable (wilds, pair, run) triples with one set of wild faces for each; the honour part
is reduced per hand to the best triplets for each (wilds, pair); a group of wilds alone (two
for the pair or three for a set, as at most three wilds exist) takes the face that pays most.
Combining the parts gives every scoring shape that matters.

With no fifth copies (J-A18) each kind's ``room`` for wild faces is carried along. What the
pair is made of (单吊 as a pair wait, 抢杠) is ``jiaxing_pairs``' business; the test suite
checks all of it against every reading over all 34 faces.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..evaluator.tables import minus
from ..tiles import EAST
from .jiaxing_items import Shape, triplet_unit
from .jiaxing_shapes import MeldSummary

MAX_WILDS = 3

# A suit part's achievable features are a 16-bit mask: bit w*4 + p*2 + r is set when the part
# splits into groups (each holding a natural tile) with w wilds, p pairs (0/1), r = any run.
_P0 = 0x3333  # bits with p = 0
_R0 = 0x5555  # bits with r = 0
_R1 = 0xAAAA
_FULL = 0xFFFF

_MASKS: dict[bytes, int] = {}
_ROOM_MASKS: dict[tuple[bytes, bytes, int], int] = {}
_DECODED: dict[int, tuple[tuple[int, int, bool], ...]] = {}
_FACES: dict[tuple[bytes, int, int, bool, bytes | None], tuple[int, ...]] = {}
_EMPTY_OPTIONS: tuple[tuple[int, int, bool], ...] = ((0, 0, False),)


def _groups(counts: list[int], i: int):
    """Groups holding one natural ``i`` (the lowest left): (wilds, pair, run, naturals used,
    wild faces)."""
    c = counts[i]
    for used in range(min(c, 3), 0, -1):
        yield 3 - used, 0, False, (i,) * used, (i,) * (3 - used)
    for used in range(min(c, 2), 0, -1):
        yield 2 - used, 1, False, (i,) * used, (i,) * (2 - used)
    for start in (i - 2, i - 1, i):
        if start < 0 or start > 6:
            continue
        a, b = [p for p in (start, start + 1, start + 2) if p != i]
        for a_nat in (True, False) if a > i and counts[a] else (False,):
            for b_nat in (True, False) if b > i and counts[b] else (False,):
                used = (i,) + ((a,) if a_nat else ()) + ((b,) if b_nat else ())
                faces = ((a,) if not a_nat else ()) + ((b,) if not b_nat else ())
                yield len(faces), 0, True, used, faces


def _mask(key: bytes) -> int:
    """The feature mask of a suit part (9 counts), cached per count vector.

    ``_mask_room`` without a room limit, kept apart because this is the hot path.
    """
    found = _MASKS.get(key)
    if found is not None:
        return found
    counts = list(key)
    i = 0
    while i < 9 and counts[i] == 0:
        i += 1
    if i == 9:
        _MASKS[key] = 1
        return 1
    out = 0
    for dw, dp, run, used, _ in _groups(counts, i):
        src = _mask(minus(key, used))
        if dp:
            src &= _P0
        src = (src << (dw * 4 + dp * 2)) & _FULL
        if run:
            src = ((src & _R0) << 1) | (src & _R1)
        out |= src
    _MASKS[key] = out
    return out


def fits(room: bytes, faces: tuple[int, ...]) -> bytes | None:
    """``room`` (wilds each kind may still stand for) after ``faces``, or None if they do not
    fit (J-A18: no fifth copy)."""
    if not faces:
        return room
    arr = bytearray(room)
    for face in faces:
        if not arr[face]:
            return None
        arr[face] -= 1
    return bytes(arr)


def _mask_room(key: bytes, room: bytes, budget: int = MAX_WILDS) -> int:
    """``_mask`` for splits using at most ``budget`` wilds, each kind's wild faces limited by
    ``room`` (9 bytes; J-A18)."""
    room = bytes(min(r, budget) for r in room)
    cache_key = (key, room, budget)
    found = _ROOM_MASKS.get(cache_key)
    if found is not None:
        return found
    counts = list(key)
    i = 0
    while i < 9 and counts[i] == 0:
        i += 1
    if i == 9:
        _ROOM_MASKS[cache_key] = 1
        return 1
    out = 0
    for dw, dp, run, used, faces in _groups(counts, i):
        if dw > budget:
            continue
        left = fits(room, faces)
        if left is None:
            continue
        src = _mask_room(minus(key, used), left, budget - dw)
        if dp:
            src &= _P0
        src = (src << (dw * 4 + dp * 2)) & _FULL
        if run:
            src = ((src & _R0) << 1) | (src & _R1)
        out |= src
    _ROOM_MASKS[cache_key] = out
    return out


def _decode(mask: int) -> tuple[tuple[int, int, bool], ...]:
    """(wilds, pair, run) options of a mask; a run-free option hides the same one with a run."""
    found = _DECODED.get(mask)
    if found is not None:
        return found
    out = []
    for w in range(MAX_WILDS + 1):
        for p in (0, 1):
            bit = w * 4 + p * 2
            if mask >> bit & 1:
                out.append((w, p, False))
            elif mask >> (bit + 1) & 1:
                out.append((w, p, True))
    result = tuple(out)
    _DECODED[mask] = result
    return result


def _suit_options(key: bytes, room: bytes | None) -> tuple[tuple[int, int, bool], ...]:
    if not any(key):
        return _EMPTY_OPTIONS
    return _decode(_mask(key) if room is None else _mask_room(key, room))


def suit_faces(
    key: bytes, wilds: int, pair: int, runs: bool, room: bytes | None = None
) -> tuple[int, ...]:
    """Wild faces (0-8) of one split of a suit part with ``wilds`` wilds and ``pair`` pairs,
    run-free unless ``runs``, the faces within ``room`` if given."""
    cache_key = (key, wilds, pair, runs, room)
    found = _FACES.get(cache_key)
    if found is not None:
        return found
    counts = list(key)
    i = 0
    while i < 9 and counts[i] == 0:
        i += 1
    if i == 9:
        return ()
    for dw, dp, is_run, used, faces in _groups(counts, i):
        if dw > wilds or dp > pair or (is_run and not runs):
            continue
        left = None if room is None else fits(room, faces)
        if room is not None and left is None:
            continue
        rest = minus(key, used)
        w, p = wilds - dw, pair - dp
        mask = _mask(rest) if left is None else _mask_room(rest, left, w)
        bits = mask >> (w * 4 + p * 2)
        if bits & (3 if runs else 1):
            result = faces + suit_faces(rest, w, p, runs, left)
            _FACES[cache_key] = result
            return result
    raise AssertionError(f"no split of {list(key)} with {wilds} wilds, pair {pair}")


# per honour count: (wilds, pair, natural triplets, triplets with a wild, wild faces); four
# tiles and two wilds are two triplets, the second with wilds (J-A18: a 5th copy). A triplet of
# wilds alone beside a natural one is a free group (``_FreeGroups``). Five: the 抢杠 test of a
# universal wait adds a hypothetical tile to each kind, a fifth one to a kind held four times.
_HONOUR_CHOICES: dict[int, tuple[tuple[int, int, int, int, int], ...]] = {
    1: ((1, 1, 0, 0, 1), (2, 0, 0, 1, 2)),
    2: ((0, 1, 0, 0, 0), (1, 0, 0, 1, 1)),
    3: ((0, 0, 1, 0, 0),),
    4: ((1, 1, 1, 0, 1), (2, 0, 1, 1, 2)),
    5: ((0, 1, 1, 0, 0), (1, 0, 1, 1, 1)),
}


def honour_options(
    counts: Sequence[int],
    values: Sequence[int],
    wild_triplets_score: bool,
    room: bytes | None = None,
) -> dict[tuple[int, int], tuple[int, int, tuple[int, ...]]]:
    """Best (tai value, triplets, faces) of the honour part per (wilds, pair).

    ``values[k]`` is what one triplet of honour ``27 + k`` adds (each triplet scores, a second
    one of a kind too); a triplet completed with wilds counts only when
    ``wild_triplets_score``; ``room`` (34 bytes) limits the wild faces of each kind. The
    triplets are counted per honour as in ``Shape.triplets``.
    """
    states: dict[tuple[int, int], tuple[int, int, tuple[int, ...]]] = {(0, 0): (0, 0, ())}
    for k in range(7):
        c = counts[27 + k]
        if not c:
            continue
        choices = _HONOUR_CHOICES[c]
        limit = MAX_WILDS if room is None else room[27 + k]
        nxt: dict[tuple[int, int], tuple[int, int, tuple[int, ...]]] = {}
        unit = triplet_unit(27 + k)
        for (w, p), (value, mask, faces) in states.items():
            for dw, dp, natural, with_wild, n_faces in choices:
                if n_faces > limit:
                    continue
                w2 = w + dw
                p2 = p + dp
                if w2 > MAX_WILDS or p2 > 1:
                    continue
                scoring = natural + with_wild if wild_triplets_score else natural
                v2 = value + scoring * values[k]
                m2 = mask + scoring * unit
                old = nxt.get((w2, p2))
                if old is None or v2 > old[0]:
                    nxt[(w2, p2)] = (v2, m2, faces + (27 + k,) * n_faces)
        states = nxt
    return states


class Recipe(tuple):
    """How to write down the wild faces of a shape found here: per suit part (counts, wilds,
    pair, runs allowed), then the honour part's, the free group's and any fixed extra faces."""

    __slots__ = ()


def recipe_faces(recipe: Recipe) -> list[int]:
    """The wild faces (kinds 0-33) a recipe stands for."""
    parts, honour_faces, free_faces, extra_faces = recipe
    out: list[int] = []
    for base, (key, w, p, runs, room) in zip((0, 9, 18), parts, strict=True):
        if w:
            out.extend(base + f for f in suit_faces(key, w, p, runs, room))
    out.extend(honour_faces)
    out.extend(free_faces)
    out.extend(extra_faces)  # last: with a wild win tile completing the pair, that wild's face
    return out


def best_shapes(
    counts: Sequence[int],
    wilds: int,
    melds: MeldSummary,
    values: Sequence[int],
    wild_triplets_score: bool,
    *,
    pair_needed: bool = True,
    pair_bits: int = 0,
    extra_faces: tuple[int, ...] = (),
    room: bytes | None = None,
) -> dict[Shape, Recipe]:
    """The shapes worth scoring, each with the recipe of one reading that has it.

    ``pair_needed=False`` asks for sets only (the caller has set the pair aside);
    ``pair_bits`` is written into every ``Shape.pair``, ``extra_faces`` into every recipe;
    ``room`` (34 bytes, J-A18) is how many wilds may stand for each kind, None for any number.
    """
    raw = bytes(counts)
    keys = (raw[0:9], raw[9:18], raw[18:27])
    rooms = (None, None, None) if room is None else (room[0:9], room[9:18], room[18:27])
    man, pin, sou = (_suit_options(k, r) for k, r in zip(keys, rooms, strict=True))
    honours = honour_options(counts, values, wild_triplets_score, room)
    suits = melds.suits
    for s in range(3):
        if any(keys[s]):
            suits |= 1 << s
    has_honour = melds.honours or any(raw[27:34])
    free = _FreeGroups(values, wild_triplets_score, pair_bits, extra_faces, room)
    pairs_wanted = 1 if pair_needed else 0
    out: dict[Shape, Recipe] = {}
    for wm, pm, rm in man:
        for wp, pp, rp in pin:
            w1 = wm + wp
            p1 = pm + pp
            if w1 > wilds or p1 > 1:
                continue
            for ws, ps, rs in sou:
                w2 = w1 + ws
                p2 = p1 + ps
                if w2 > wilds or p2 > 1:
                    continue
                run = melds.sequence or rm or rp or rs
                parts = None
                for (wh, ph), (_, mask, fh) in honours.items():
                    w3 = w2 + wh
                    p3 = p2 + ph
                    if w3 > wilds or p3 > 1:
                        continue
                    left = wilds - w3
                    if p3 != pairs_wanted and not (p3 == 0 and left == 2 and pair_needed):
                        continue
                    if p3 == pairs_wanted and left not in (0, 3):
                        continue
                    if parts is None:
                        parts = ((keys[0], wm, pm, rm, rooms[0]), (keys[1], wp, pp, rp, rooms[1]),
                                 (keys[2], ws, ps, rs, rooms[2]))
                    triplets = melds.triplets + mask
                    if left == 0:
                        key = Shape(suits, has_honour, run, triplets, pair_bits, False)
                        if key not in out:
                            out[key] = Recipe((parts, fh, (), extra_faces))
                    else:
                        free.add(out, left, suits, has_honour, run, triplets, parts, fh)
    return out


class _FreeGroups:
    """Adds the shapes of a group of wilds alone: a pair (2) or a triplet (3)."""

    __slots__ = ("order", "wild_triplets_score", "pair_bits", "extra_faces", "room")

    def __init__(
        self,
        values: Sequence[int],
        wild_triplets_score: bool,
        pair_bits: int,
        extra_faces: tuple[int, ...],
        room: bytes | None,
    ) -> None:
        self.order = sorted(range(7), key=lambda k: -values[k])  # honours, best triplet first
        self.wild_triplets_score = wild_triplets_score
        self.pair_bits = pair_bits
        self.extra_faces = extra_faces
        self.room = room

    def add(
        self,
        out: dict[Shape, Recipe],
        size: int,
        suits: int,
        honours: bool,
        run: bool,
        triplets: int,
        parts: tuple,
        honour_faces: tuple[int, ...],
    ) -> None:
        free = self._room_left(parts, honour_faces)
        # an honour: for a triplet the best one, even a second triplet of a kind (J-A18)
        kind = next((k for k in self.order if free[EAST + k] >= size), None)
        if kind is not None:
            with_honour = triplets
            if size == 3 and self.wild_triplets_score:
                with_honour = triplets + triplet_unit(EAST + kind)
            key = Shape(suits, True, run, with_honour, self.pair_bits, False)
            if key not in out:
                out[key] = Recipe((parts, honour_faces, (EAST + kind,) * size, self.extra_faces))
        # a suit: the tile of that suit with the most room (any, without a limit)
        for s in range(3):
            if self.room is None:
                face = 9 * s + 4
            else:
                face = max(range(9 * s, 9 * s + 9), key=lambda k: (free[k], k == 9 * s + 4))
            if free[face] < size:
                continue
            key = Shape(suits | (1 << s), honours, run, triplets, self.pair_bits, False)
            if key not in out:
                out[key] = Recipe((parts, honour_faces, (face,) * size, self.extra_faces))

    def _room_left(self, parts: tuple, honour_faces: tuple[int, ...]) -> bytes | list[int]:
        if self.room is None:
            return _UNLIMITED
        left = list(self.room)
        for base, (key, w, p, runs, room) in zip((0, 9, 18), parts, strict=True):
            if w:
                for face in suit_faces(key, w, p, runs, room):
                    left[base + face] -= 1
        for face in honour_faces:
            left[face] -= 1
        return left


_UNLIMITED = bytes([MAX_WILDS] * 34)
