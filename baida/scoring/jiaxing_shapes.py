"""Scoring shapes reading by reading, and the melds' share of every shape.

``shapes`` walks every reading of the evaluator (``baida.evaluator.readings``) over the given
wild faces and keeps the distinct ``Shape`` values: simple and slow, it is the reference the
search by parts (``jiaxing_fast``) is tested against. ``summarise_melds`` reduces the exposed
melds to what they add to every shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..evaluator import SEQ, TRIPLET, readings
from ..tiles import EAST, NUM_KINDS
from .jiaxing_items import PAIR_WAIT, PAIR_WITH_WILD, Shape, triplet_unit


class MeldSummary:
    """The melds' fixed contribution to every shape."""

    __slots__ = ("suits", "honours", "sequence", "triplets")

    def __init__(self, suits: int, honours: bool, sequence: bool, triplets: int) -> None:
        self.suits = suits
        self.honours = honours
        self.sequence = sequence
        self.triplets = triplets


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
                    triplets += triplet_unit(tile)  # a second one of a kind counts again
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
            triplets += triplet_unit(tile)
        if kind == "chi":
            sequence = True
    return MeldSummary(suits, honours, sequence, triplets)
