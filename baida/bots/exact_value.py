"""What a Wenling ready hand is worth, from the scorer itself: each way it can finish (every
wait kind by the own draw and by another player's discard, and a drawn 得) scored exactly
(``scoring.wenling_winner.best_reading``: 旁和, 无得 and 2张得, 单吊/嵌档/靠柄, 自摸 and
自摸得, the seat's triplets and flowers), then weighed by how often each one comes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import astuple

from ..evaluator import is_complete
from ..hand import Hand, Meld
from ..rules.options import WenlingOptions
from ..rules.wenling_tiles import WenlingTiles
from ..scoring.wenling_winner import best_reading
from ..tiles import NUM_KINDS, WILD, WINDS
from .bounded import BoundedTable
from .features import Seen

LIMIT = 500  # a 腊子 (three 得 held) and the cap of every total
# (hand, context) -> {(win tile, by discard): total}; the weights are applied per decision.
# Keys and values are made of bytes, strings and numbers only, so that the garbage collector
# stops tracking them (see ``bounded.py``).
_TOTALS: BoundedTable[tuple, dict[tuple[int, bool], int]] = BoundedTable(20_000)


def _options(seen: Seen) -> WenlingOptions:
    options = seen.rule_options  # Wenling's (the planner asks for exact values only there)
    assert isinstance(options, WenlingOptions)
    return options


class ReadyValuer:
    """Exact values of one seat's ready hands (Wenling), in what each loser pays (T/10).

    ``ron_weight(kind)``: how many times more often a live copy of ``kind`` comes as another
    player's discard than as the own draw (the planner's ``RON_FACTOR - 1``, or its
    ``discard_weight`` with weighted waits)."""

    def __init__(self, seen: Seen, ron_weight: Callable[[int], float]) -> None:
        self.seen = seen
        self.ron_weight = ron_weight
        self.options = _options(seen)
        specials = frozenset(seen.special_faces)
        faces = frozenset(k for k in range(NUM_KINDS) if k not in specials)
        # the indicator itself is not needed: the roles it gives are in the view
        self.tiles = WenlingTiles(-1, frozenset(seen.wild_faces), specials, faces)
        self.seat = WINDS.index(seen.seat_wind)  # the scorer's seat: the wind's index (E = 0)
        self.context = (self.seat, tuple(sorted(seen.flowers)), tuple(sorted(seen.wild_faces)),
                        tuple(sorted(specials)), astuple(self.options))

    def totals(
        self, counts: Sequence[int], wilds: int, melds: Sequence[Meld]
    ) -> dict[tuple[int, bool], int]:
        """The winner's total for each finishing tile (a kind, or ``WILD``) and way (by a
        discard or not); empty when the hand is not ready."""
        key = (bytes(counts), wilds, tuple((m.kind, m.tiles) for m in melds), self.context)
        cached = _TOTALS.table.get(key)
        if cached is not None:
            return cached
        out: dict[tuple[int, bool], int] = {}
        concealed = [k for k in range(NUM_KINDS) for _ in range(counts[k])] + [WILD] * wilds
        hand = Hand(concealed, list(melds), list(self.seen.flowers))
        work = list(counts)
        for k in range(NUM_KINDS):
            if k in self.tiles.specials or k in self.tiles.wilds or counts[k] >= 4:
                continue
            work[k] += 1
            complete = is_complete(work, wilds)
            work[k] -= 1
            if not complete:
                continue
            for by_discard in (False, True):
                way = "discard" if by_discard else "self_draw"
                scored = best_reading(hand, self.seat, k, way, self.options, self.tiles)
                if scored is not None:
                    out[(k, by_discard)] = scored.total
        if out:
            if wilds >= 2:
                out[(WILD, False)] = LIMIT  # the third 得: a 腊子
            else:
                scored = best_reading(hand, self.seat, WILD, "self_draw", self.options,
                                      self.tiles)
                if scored is not None:
                    out[(WILD, False)] = scored.total
        return _TOTALS.put(key, out)

    def value(self, counts: Sequence[int], wilds: int, melds: Sequence[Meld]) -> float | None:
        """Expected T/10 of a win of the ready hand (None if it is not ready or nothing it
        waits on is live)."""
        totals = self.totals(counts, wilds, melds)
        if not totals:
            return None
        seen = self.seen
        weight_sum = 0.0
        points = 0.0
        for (k, by_discard), total in totals.items():
            if k == WILD:
                w = float(seen.live_wilds)
            elif by_discard:
                w = seen.live[k] * self.ron_weight(k)
            else:
                w = float(seen.live[k])
            weight_sum += w
            points += w * total
        if weight_sum <= 0:
            return None
        return points / weight_sum / 10
