"""Shapes that know what the pair is made of: 单吊 as a pair wait (J-A4) and 抢杠 (J-A9).

``Shape.pair`` says whether the win tile can be one of the pair's tiles (``PAIR_WAIT``) and
whether the pair is the natural win tile beside one wild (``PAIR_WITH_WILD``). The search by
parts (``jiaxing_fast``) does not look at the pair, so the readings are split by their pair
here: the pair is set aside and the rest searched for sets only, or (for 抢杠) the group that
holds the robbed tile is set aside and the rest searched as usual.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..tiles import EAST, NUM_KINDS, WILD
from .jiaxing_fast import Recipe, best_shapes, fits
from .jiaxing_items import PAIR_WAIT, PAIR_WITH_WILD, Shape, triplet_unit
from .jiaxing_shapes import MeldSummary

Found = dict[Shape, Recipe]


def _with_tiles(melds: MeldSummary, kind: int, run: bool, triplet: bool) -> MeldSummary:
    """``melds`` plus a group of ``kind`` set aside: its suit or honour, a run, a triplet."""
    suits = melds.suits | (1 << (kind // 9)) if kind < 27 else melds.suits
    triplets = melds.triplets + triplet_unit(kind) if triplet else melds.triplets
    return MeldSummary(suits, melds.honours or kind >= 27, melds.sequence or run, triplets)


def _merge(out: Found, found: Found) -> None:
    for shape, recipe in found.items():
        if shape not in out:
            out[shape] = recipe


def _sets_holding(counts: Sequence[int], wilds: int, kind: int) -> Iterator[
    tuple[tuple[int, ...], tuple[int, ...], bool]
]:
    """Sets holding one natural ``kind`` besides ``counts``: (other naturals used, wild faces,
    is a run)."""
    if wilds >= 2:
        yield (), (kind, kind), False
    if counts[kind] >= 1 and wilds >= 1:
        yield (kind,), (kind,), False
    if counts[kind] >= 2:
        yield (kind, kind), (), False
    if kind >= 27:
        return
    rank = kind % 9
    for start in (kind - 2, kind - 1, kind):
        if start < kind - rank or start + 2 > kind - rank + 8:
            continue
        a, b = [p for p in (start, start + 1, start + 2) if p != kind]
        for a_nat in (True, False) if counts[a] else (False,):
            for b_nat in (True, False) if counts[b] else (False,):
                naturals = ((a,) if a_nat else ()) + ((b,) if b_nat else ())
                faces = ((a,) if not a_nat else ()) + ((b,) if not b_nat else ())
                if len(faces) <= wilds:
                    yield naturals, faces, True


def robbed_shapes(
    counts: list[int],
    wilds: int,
    melds: MeldSummary,
    values: Sequence[int],
    wild_triplets_score: bool,
    robbed: int,
    room: bytes | None = None,
) -> Found:
    """Every shape of a hand completed by a robbed tile, ``Shape.pair`` exact.

    The robbed tile is the hand's only natural tile of its kind (the other three are in the
    robbed 碰), so a reading either pairs it with a wild or puts it in a set.
    """
    out: Found = {}
    counts[robbed] -= 1
    try:
        left = _room_after(room, (robbed,))
        if wilds >= 1 and left is not False:
            _merge(out, best_shapes(
                counts, wilds - 1, _with_tiles(melds, robbed, False, False), values,
                wild_triplets_score, pair_needed=False, pair_bits=PAIR_WAIT | PAIR_WITH_WILD,
                extra_faces=(robbed,), room=left,
            ))
        for naturals, faces, run in list(_sets_holding(counts, wilds, robbed)):
            left = _room_after(room, faces)
            if left is False:
                continue
            for p in naturals:
                counts[p] -= 1
            scores = not run and (wild_triplets_score or not faces) and robbed >= EAST
            _merge(out, best_shapes(
                counts, wilds - len(faces), _with_tiles(melds, robbed, run, scores), values,
                wild_triplets_score, extra_faces=faces, room=left,
            ))
            for p in naturals:
                counts[p] += 1
    finally:
        counts[robbed] += 1
    return out


def pair_wait_shapes(
    counts: list[int],
    wilds: int,
    melds: MeldSummary,
    values: Sequence[int],
    wild_triplets_score: bool,
    win_tile: int,
    room: bytes | None = None,
) -> Found:
    """Every shape, with ``PAIR_WAIT`` on those whose pair can hold the win tile."""
    out: Found = {}
    if win_tile == WILD:
        # the pair is a natural tile and a wild, or two wilds of any face
        for kind in range(NUM_KINDS):
            left = _room_after(room, (kind,))
            if counts[kind] and left is not False:
                counts[kind] -= 1
                _merge(out, best_shapes(
                    counts, wilds - 1, _with_tiles(melds, kind, False, False), values,
                    wild_triplets_score, pair_needed=False, pair_bits=PAIR_WAIT,
                    extra_faces=(kind,), room=left,
                ))
                counts[kind] += 1
        if wilds >= 2:
            for face in _pair_faces(room):
                _merge(out, best_shapes(
                    counts, wilds - 2, _with_tiles(melds, face, False, False), values,
                    wild_triplets_score, pair_needed=False, pair_bits=PAIR_WAIT,
                    extra_faces=(face, face), room=_room_after(room, (face, face)) or None,
                ))
    else:
        pair_melds = _with_tiles(melds, win_tile, False, False)
        if counts[win_tile] >= 2:
            counts[win_tile] -= 2
            _merge(out, best_shapes(
                counts, wilds, pair_melds, values, wild_triplets_score, pair_needed=False,
                pair_bits=PAIR_WAIT, room=room,
            ))
            counts[win_tile] += 2
        left = _room_after(room, (win_tile,))
        if wilds >= 1 and left is not False:
            counts[win_tile] -= 1
            _merge(out, best_shapes(
                counts, wilds - 1, pair_melds, values, wild_triplets_score, pair_needed=False,
                pair_bits=PAIR_WAIT | PAIR_WITH_WILD, extra_faces=(win_tile,), room=left,
            ))
            counts[win_tile] += 1
    # every other reading: its pair cannot hold the win tile (or holds it less well)
    _merge(out, best_shapes(counts, wilds, melds, values, wild_triplets_score, room=room))
    return out


def _room_after(room: bytes | None, faces: tuple[int, ...]) -> bytes | None | bool:
    """The room left after ``faces`` (None: no limit), or False when they do not fit."""
    if room is None:
        return None
    left = fits(room, faces)
    return False if left is None else left


def _pair_faces(room: bytes | None) -> list[int]:
    """Faces for a pair of wilds alone: an honour and one tile of each suit, with room."""
    if room is None:
        return [EAST, 4, 13, 22]
    out = []
    for lo, hi in ((27, 34), (0, 9), (9, 18), (18, 27)):
        best = max(range(lo, hi), key=lambda k: room[k])
        if room[best] >= 2:
            out.append(best)
    return out
