"""Danger of a discard in Wenling, estimated from what the seat can see.

Wenling allows wins on discards (RULES.md §B2), so every discard may end the hand for an
opponent. Nothing about an opponent's hand is visible except their discards and melds, and
there is no furiten rule, so the estimate combines soft evidence:

* **tenpai likelihood** of each opponent, from the turn and the number of exposed melds;
* **genbutsu**: a kind the opponent discarded is less likely to be their wait (not safe,
  since Wenling has no furiten, but players rarely throw what they need);
* **suji**: a suit tile 3 away from one the opponent discarded is a less likely two-sided wait;
* **live tiles**: a wait needs tiles the opponent holds; when every other copy of a kind is
  visible, a pair wait on it is impossible, and when a neighbour is gone a sequence wait
  through that neighbour is impossible (no-chance / kabe);
* **flush signals**: melds all in one suit make that suit (and honours) more dangerous.

A 百搭/得 in the opponent's hand can stand for any missing tile, so nothing drops to zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..hand import Meld
from .efficiency import RUN_PARTNERS


@dataclass(slots=True)
class Opponent:
    """What a seat can see of one opponent."""

    discards: list[int] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    can_win: bool = True  # e.g. false after they discarded a 得

    def flush_suit(self) -> int | None:
        """The one suit of their melds when they have two or more melds and all share it."""
        suits = {m.tile // 9 for m in self.melds if m.tile < 27}
        if len(self.melds) >= 2 and len(suits) == 1:
            return next(iter(suits))
        return None


def tenpai_likelihood(opp: Opponent, turn: int, sets_needed: int = 5) -> float:
    """A rough chance that ``opp`` is ready, from their own turn count and exposed melds."""
    if not opp.can_win:
        return 0.0
    melds = len(opp.melds)
    progress = 0.035 * turn + 0.16 * melds * 5 / sets_needed
    return max(0.01, min(0.9, progress - 0.1))


def _base_weight(kind: int) -> float:
    """Relative chance that a tile kind is in a random ready hand's wait."""
    if kind >= 27:
        return 0.55  # honours: pair waits only
    rank = kind % 9
    if rank in (0, 8):
        return 0.7
    if rank in (1, 7):
        return 0.85
    return 1.0


def wait_weight(kind: int, opp: Opponent, visible: Sequence[int]) -> float:
    """Relative chance that ``kind`` completes ``opp``'s hand, if they are ready."""
    weight = _base_weight(kind)
    if kind in opp.discards:
        recent = kind in opp.discards[-3:]
        weight *= 0.25 if recent else 0.4
    left = 4 - visible[kind]  # copies not seen by us (the opponent may hold some)
    if kind >= 27:
        weight *= (0.15, 0.45, 0.85, 1.0, 1.0)[max(0, min(4, left))]
    else:
        sides = 0.0
        shape_possible = 0.0
        # two-sided waits through (r+1, r+2) and (r-2, r-1); closed wait (r-1, r+1)
        for a, b in RUN_PARTNERS[kind]:
            sides += 1
            if visible[a] < 4 and visible[b] < 4:
                shape_possible += 1
        seq_share = shape_possible / sides if sides else 0.0
        pair_share = (0.15, 0.45, 0.85, 1.0, 1.0)[max(0, min(4, left))]
        weight *= 0.7 * seq_share + 0.3 * pair_share
        weight *= _suji_factor(kind, opp.discards)
    suit = opp.flush_suit()
    if suit is not None:
        if kind < 27 and kind // 9 == suit:
            weight *= 2.0
        elif kind < 27:
            weight *= 0.3
    return max(weight, 0.03)


def _suji_factor(kind: int, discards: Sequence[int]) -> float:
    rank = kind % 9
    base = kind - rank
    covered = 0
    sides = 0
    for other in (rank - 3, rank + 3):
        if 0 <= other <= 8:
            sides += 1
            if base + other in discards:
                covered += 1
    if sides == 0 or covered == 0:
        return 1.0
    return 0.55 if covered == sides else 0.8


def deal_in_chance(
    kind: int, opponents: Sequence[Opponent], turns: Sequence[int], visible: Sequence[int]
) -> list[float]:
    """Per opponent, the estimated chance that discarding ``kind`` lets them win on it."""
    out = []
    for opp, turn in zip(opponents, turns, strict=True):
        ready = tenpai_likelihood(opp, turn)
        # a ready hand waits on about 2-3 kinds out of 34; normalise the weight to that
        out.append(min(0.95, ready * wait_weight(kind, opp, visible) * 0.09))
    return out
