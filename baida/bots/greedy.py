"""``greedy``: lowest wild-aware shanten, nothing else.

Discards the tile that leaves the lowest ``baida.evaluator.shanten`` (ties: an honour, then a
terminal, then at random), claims and kongs whenever they lower it. It knows neither the
台头和 pattern gate nor which tiles are still live, and never defends: the second rung of the
ladder, above ``random``.
"""

from __future__ import annotations

from typing import Any

from ..evaluator import PATTERNS, pattern_shanten, shanten
from .base import Claim, HeuristicBot
from .features import Seen
from .policy import action_type


def _tie_rank(kind: int) -> int:
    if kind >= 27:
        return 0
    return 1 if kind % 9 in (0, 8) else 2


class GreedyBot(HeuristicBot):
    name = "greedy"

    def pick_discard(self, seen: Seen, candidates: list[int]) -> int:
        counts = seen.counts
        sets = seen.sets_needed
        best: list[int] = []
        best_key: tuple[int, int, int] | None = None
        for k in candidates:
            counts[k] -= 1
            key = (shanten(counts, seen.wilds, sets), self._pattern(seen, counts), _tie_rank(k))
            counts[k] += 1
            if best_key is None or key < best_key:
                best_key, best = key, [k]
            elif key == best_key:
                best.append(k)
        return self.rng.choice(best)

    @staticmethod
    def _pattern(seen: Seen, counts: list[int]) -> int:
        """Where a win needs a pattern (台头和): the nearest one as a tie-break (0 where any shape
        wins)."""
        if not seen.rules.pattern_needed:
            return 0
        sets = seen.sets_needed
        return min(pattern_shanten(counts, seen.wilds, sets, p) for p in PATTERNS)

    def _best_after(self, counts: list[int], wilds: int, sets: int) -> int:
        """Lowest shanten reachable by one discard from a full hand."""
        best = 99
        for k in range(34):
            if counts[k]:
                counts[k] -= 1
                best = min(best, shanten(counts, wilds, sets))
                counts[k] += 1
        return best

    def pick_claim(self, seen: Seen, claims: list[Claim]) -> Claim | None:
        now = shanten(seen.counts, seen.wilds, seen.sets_needed)
        chosen: Claim | None = None
        best = now
        for c in claims:
            counts = list(seen.counts)
            for k in c.uses:
                counts[k] -= 1
            if c.type == "mkong":
                after = shanten(counts, seen.wilds, seen.sets_needed - 1)
            else:
                after = self._best_after(counts, seen.wilds, seen.sets_needed - 1)
            if after < best:
                best, chosen = after, c
        return chosen

    def pick_kong(self, seen: Seen, kongs: list[Any]) -> Any | None:
        counts = seen.counts
        sets = seen.sets_needed
        keep = self._best_after(counts, seen.wilds, sets)
        for a in kongs:
            k = self.kong_kind(a)
            work = list(counts)
            if action_type(a) == "akong":
                work[k] -= 4
                after = shanten(work, seen.wilds, sets - 1)
            else:
                work[k] -= 1
                after = shanten(work, seen.wilds, sets)
            if after <= keep:
                return a
        return None
