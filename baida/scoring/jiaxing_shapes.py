"""The distinct scoring shapes of a Jiaxing winning hand, over wild faces and splits.

A wild can matter only through what it makes of the hand: the group it completes with natural
tiles (so a face next to a natural tile), or a group of wilds alone, whose face matters only
by its suit or honour (a triplet of one kind is never worse than a run of the same suit). So
the search runs over a small set of faces: every honour, every suit tile within two ranks of
a natural tile in hand, the least-used tile of each suit and the wild's own face. The test
suite checks this against a search over all 34 faces.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..evaluator import SEQ, TRIPLET, readings
from ..tiles import EAST, NUM_KINDS
from .jiaxing_items import PAIR_WAIT, PAIR_WITH_WILD, Shape

HONOUR_FACES = frozenset(range(27, 34))


class MeldSummary:
    """The melds' fixed contribution to every shape."""

    __slots__ = ("suits", "honours", "sequence", "triplets")

    def __init__(self, suits: int, honours: bool, sequence: bool, triplets: int) -> None:
        self.suits = suits
        self.honours = honours
        self.sequence = sequence
        self.triplets = triplets


def relevant_faces(counts: Sequence[int], naturals: Sequence[int], wild_kind: int) -> set[int]:
    """The faces a wild needs to be tried as (see the module docstring).

    ``counts`` are the concealed natural tiles, ``naturals`` every natural tile of the hand
    (melds included), used to pick each suit's least-used tile.
    """
    faces = set(HONOUR_FACES)
    faces.add(wild_kind)
    for suit in range(3):
        lo = suit * 9
        best = lo + 4
        for kind in range(lo, lo + 9):
            if counts[kind]:
                for near in range(max(lo, kind - 2), min(lo + 8, kind + 2) + 1):
                    faces.add(near)
            if naturals[kind] < naturals[best]:
                best = kind
        faces.add(best)
    return faces


def shapes(
    counts: Sequence[int],
    wilds: int,
    melds: MeldSummary,
    *,
    faces: set[int],
    wild_triplets_score: bool,
    win_tile: int | None,
    pair_bits: bool,
    self_face: int | None,
    face_limit: Sequence[int] | None,
) -> dict[Shape, list[int]]:
    """Every distinct ``Shape`` of the concealed part ``counts`` + ``wilds``, with the wild
    faces of one reading that has it.

    ``win_tile`` (a kind, or ``WILD``) and ``pair_bits`` ask for ``Shape.pair``; ``self_face``
    (the wild kind) asks for ``Shape.wilds_as_self``; ``face_limit`` gives, per kind, how many
    wilds may take that face (no fifth copy, J-A18).
    """
    out: dict[Shape, list[int]] = {}
    for reading in readings(counts, wilds, faces):
        suits = melds.suits
        honours = melds.honours
        sequence = melds.sequence
        triplets = melds.triplets
        pair = 0
        faces_used: list[int] = []
        for shape, tile, wild_faces in reading:
            if tile < 27:
                suits |= 1 << (tile // 9)
            else:
                honours = True
            if wild_faces:
                faces_used.extend(wild_faces)
            if shape == SEQ:
                sequence = True
            elif shape == TRIPLET:
                if tile >= EAST and (wild_triplets_score or not wild_faces):
                    triplets |= 1 << (tile - EAST)
            elif pair_bits:
                if win_tile is not None and win_tile < NUM_KINDS:
                    if tile == win_tile and len(wild_faces) < 2:
                        pair |= PAIR_WAIT
                        if len(wild_faces) == 1:
                            pair |= PAIR_WITH_WILD
                elif wild_faces:
                    pair |= PAIR_WAIT
        if face_limit is not None and faces_used:
            if any(faces_used.count(f) > face_limit[f] for f in set(faces_used)):
                continue
        as_self = self_face is not None and all(f == self_face for f in faces_used)
        key = Shape(suits, honours, sequence, triplets, pair, as_self)
        if key not in out:
            out[key] = faces_used
    return out


def summarise_melds(melds: Sequence[tuple[str, int]]) -> MeldSummary:
    """Melds as (kind, lowest tile) pairs to their fixed contribution."""
    suits = 0
    honours = False
    sequence = False
    triplets = 0
    for kind, tile in melds:
        if tile < 27:
            suits |= 1 << (tile // 9)
        else:
            honours = True
            triplets |= 1 << (tile - EAST)
        if kind == "chi":
            sequence = True
    return MeldSummary(suits, honours, sequence, triplets)
