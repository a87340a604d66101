"""``efficient``: pattern-aware tile efficiency with live tiles.

Jiaxing: the distance of a hand is its shanten toward the nearest 台头和 pattern still open
(``baida.evaluator.pattern_shanten``, gated by the exposed melds); Wenling: the plain
wild-aware shanten. A discard is chosen by (distance, -acceptance), acceptance being the
number of *live* tiles (not seen by this seat) that lower the distance. Claims and kongs are
made only when they lower the distance. In Wenling it avoids discarding a 生牌 during the
生牌阶段 (包三家) and, at equal distance, prefers tiles the opponents have discarded.
"""

from __future__ import annotations

from typing import Any

from ..hand import Meld
from .base import Claim, HeuristicBot
from .features import Seen
from .planner import Planner
from .policy import action_type


class EfficientBot(HeuristicBot):
    name = "efficient"

    def _planner(self, seen: Seen) -> Planner:
        return Planner(seen, use_values=False, plain_only=True)

    def _best(
        self, planner: Planner, counts: list[int], wilds: int, melds: list
    ) -> tuple[int, int]:
        """(distance, -acceptance) of a hand one tile short under its best open target."""
        plans = planner.waiting_plans(counts, wilds, melds, planner.draws_left(), slack=0)
        if not plans:
            return (99, 0)
        return min((p.distance, -p.ukeire) for p in plans)

    def _safety(self, seen: Seen, kind: int) -> tuple[int, int]:
        """包三家 tie-breaks (Wenling): (生牌 in the 生牌阶段, not discarded by anyone yet)."""
        if not seen.rules.baosanjia:
            return (0, 0)
        fresh = kind not in seen.discarded_kinds
        return (int(fresh and seen.sheng_phase), int(fresh))

    def pick_discard(self, seen: Seen, candidates: list[int]) -> int:
        planner = self._planner(seen)
        counts = seen.counts
        scored = []
        for k in candidates:
            counts[k] -= 1
            dist, neg_u = self._best(planner, counts, seen.wilds, seen.melds)
            counts[k] += 1
            sheng, fresh = self._safety(seen, k)
            # a 生牌 in the 生牌阶段 is worth one step of distance to avoid
            scored.append(((dist + sheng, neg_u, fresh), k))
        best_key = min(s for s, _ in scored)
        return self.rng.choice([k for s, k in scored if s == best_key])

    def _full_best(self, planner: Planner, counts: list[int], wilds: int, melds: list) -> tuple:
        best: tuple[int, int] = (99, 0)
        for k in range(34):
            if counts[k]:
                counts[k] -= 1
                best = min(best, self._best(planner, counts, wilds, melds))
                counts[k] += 1
        return best

    def pick_claim(self, seen: Seen, claims: list[Claim]) -> Claim | None:
        planner = self._planner(seen)
        now = self._best(planner, seen.counts, seen.wilds, seen.melds)
        chosen: Claim | None = None
        best = now
        for c in claims:
            counts = list(seen.counts)
            for k in c.uses:
                counts[k] -= 1
            melds = seen.melds + [c.meld(seen.last_discard[0] if seen.last_discard else -1)]
            if c.type == "mkong":
                after = self._best(planner, counts, seen.wilds, melds)
            else:
                after = self._full_best(planner, counts, seen.wilds, melds)
            if after[0] < best[0]:
                best, chosen = after, c
        return chosen

    def pick_kong(self, seen: Seen, kongs: list[Any]) -> Any | None:
        planner = self._planner(seen)
        keep = self._full_best(planner, seen.counts, seen.wilds, seen.melds)
        for a in kongs:
            k = self.kong_kind(a)
            counts = list(seen.counts)
            if action_type(a) == "akong":
                counts[k] -= 4
                melds = seen.melds + [_kong_meld("akong", k)]
            else:
                counts[k] -= 1
                melds = [m for m in seen.melds if not (m.kind == "pon" and m.tile == k)]
                melds.append(_kong_meld("bukong", k))
            after = self._best(planner, counts, seen.wilds, melds)
            if after[0] <= keep[0]:
                return a
        return None

    def pick_santan(self, seen: Seen) -> bool:
        planner = self._planner(seen)
        dist, _ = self._best_now(planner, seen)
        return dist <= 2

    def _best_now(self, planner: Planner, seen: Seen) -> tuple[int, int]:
        total = sum(seen.counts) + seen.wilds
        if total % 3 == 2:
            return self._full_best(planner, seen.counts, seen.wilds, seen.melds)
        return self._best(planner, seen.counts, seen.wilds, seen.melds)


def _kong_meld(kind: str, tile: int) -> Meld:
    return Meld(kind, (tile,) * 4, None)
