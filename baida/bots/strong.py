"""``strong``: expected value of the hand's plans, with defence in Wenling.

Every choice (discard, claim, kong, 三摊) is scored by the hand it leaves: for each open
target (the 台头和 patterns in Jiaxing; the plain shape and the pattern fans in Wenling) the
value of finishing it (``targets``) times the chance of finishing it before the wall runs out
(``planner``: distance, acceptance of live tiles, and for the most promising discards the
measured acceptance one ply deeper). In Wenling the expected loss of dealing in is subtracted:
the chance each opponent is ready and waits on the tile (``danger``) times what it would cost,
three times more for a 生牌 in the 生牌阶段 (包三家).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..evaluator import held_copies, waits
from ..hand import Meld
from .base import Claim, HeuristicBot
from .danger import Opponent, deal_in_chance, tenpai_likelihood
from .features import Seen
from .planner import Plan, Planner, combined_ev
from .policy import action_type
from .targets import wenling_nonwinner_total

REFINE_TOP = 3  # discards whose plans get the second-ply estimate
OPPONENT_HAND = 8.0  # Wenling: what a typical opponent win costs each payer (T/10)
FLUSH_HAND = 20.0  # ... when their melds show a one-suit hand
REPLACED_ANYWAY = 0.45  # chance an opponent who is dealt in would have won anyway
SANTAN_WIN_GAIN = 5.0  # shares received when a continuing non-承包方 wins (2 + 2 + 1)
SANTAN_LOSS = 2.0  # shares paid when a 承包方 wins
NONWINNER_WEIGHT = 1.5  # Wenling: two other non-winners × the chance (~3/4) someone else wins
CLAIM_MARGIN = 0.05  # a claim shows the hand: made only when it beats passing by this much


class StrongBot(HeuristicBot):
    name = "strong"

    use_values = True
    refine_top = REFINE_TOP
    widen_for_value = False  # let value (not only defence) trade one step of speed

    def _planner(self, seen: Seen) -> Planner:
        return Planner(seen, use_values=self.use_values)

    # -- discards ----------------------------------------------------------------------------
    def pick_discard(self, seen: Seen, candidates: list[int]) -> int:
        scores, plans = self.discard_scores(seen, candidates)
        if not scores:
            return candidates[0]
        best = max(scores.values())
        near = [k for k in scores if scores[k] >= best - abs(best) * 0.01 - 1e-12]
        # among near-equal choices: the nearest shape, then the most live tiles
        # then the tile least likely to hand an opponent its third claim on us (三摊)
        return min(near, key=lambda k: (*self.discard_rank(seen, plans, k), self.rng.random()))

    @staticmethod
    def discard_rank(seen: Seen, plans: dict, kind: int) -> tuple[int, int, int]:
        """How near-equal discards are ordered (lowest first)."""
        return (*_efficiency_key(plans[kind]), _santan_risk(seen, kind))

    def discard_scores(
        self, seen: Seen, candidates: list[int]
    ) -> tuple[dict[int, float], dict[int, list[Plan]]]:
        """The score of every discard the bot weighs (the others are left out), and the
        plans of every candidate."""
        planner = self._planner(seen)
        draws = planner.draws_left()
        counts = seen.counts
        plans = planner.discard_plans(counts, seen.wilds, seen.melds, candidates, draws)
        dist = {k: min((p.distance for p in ps), default=99) for k, ps in plans.items()}
        if not dist:
            return {}, plans
        d_min = min(dist.values())
        # speed first: only discards that keep the nearest shape, unless defence asks more
        defend = seen.rules.discard_wins and self._threatened(seen)
        widen = defend or self.widen_for_value
        allowed = [k for k in plans if dist[k] == d_min or (widen and dist[k] == d_min + 1)]
        offense = {k: combined_ev(plans[k]) for k in allowed}
        self._refine_offense(seen, planner, plans, offense, draws)
        scores = dict(offense)
        if not planner.in_tai:  # 和 points: three payers, the non-winners' totals, dealing in
            for k in scores:
                counts[k] -= 1
                settle = self._nonwinner_points(planner, counts, seen.melds)
                counts[k] += 1
                own = 3 * offense[k]
                scores[k] = own + settle - self._danger_cost(seen, k, own)
        return scores, plans

    def _refine_offense(
        self, seen: Seen, planner: Planner, plans: dict, offense: dict[int, float], draws: int
    ) -> None:
        """The second ply for the most promising discards (in place)."""
        counts = seen.counts
        ranked = sorted(offense, key=lambda k: -offense[k])
        ratios = []
        breadth = self._second_ply_breadth()
        for k in ranked[:breadth]:
            counts[k] -= 1
            refined = [
                planner.refine(p, counts, seen.wilds, seen.melds, draws) for p in plans[k][:2]
            ]
            counts[k] += 1
            before = offense[k]
            offense[k] = combined_ev(refined + plans[k][2:])
            if before > 0:
                ratios.append(offense[k] / before)
        # the second ply usually lowers an estimate; scale the unrefined ones alike
        scale = min(1.0, min(ratios)) if ratios else 1.0
        for k in ranked[breadth:]:
            offense[k] *= scale * 0.98

    def _second_ply_breadth(self) -> int:
        """How many of the most promising discards get the second ply."""
        return self.refine_top

    def _threatened(self, seen: Seen) -> bool:
        """Wenling: whether defence may outweigh one step of speed."""
        if seen.sheng_phase:
            return True
        for p in seen.players:
            if p.seat == seen.seat or p.discarded_wild:
                continue
            opp = Opponent(p.discards, p.melds)
            if tenpai_likelihood(opp, len(p.discards)) >= 0.4:
                return True
        return False

    def _danger_cost(self, seen: Seen, kind: int, own_points: float) -> float:
        """Expected points lost by discarding ``kind`` (Wenling)."""
        opps = [p for p in seen.players if p.seat != seen.seat]
        opponents = [Opponent(p.discards, p.melds, can_win=not p.discarded_wild) for p in opps]
        turns = [len(p.discards) for p in opps]
        chances = deal_in_chance(kind, opponents, turns, seen.visible)
        liable = (
            seen.sheng_phase and kind not in seen.discarded_kinds and not self._exempt(seen, kind)
        )
        cost = 0.0
        for opp, chance in zip(opponents, chances, strict=True):
            hand = FLUSH_HAND if opp.flush_suit() is not None else OPPONENT_HAND
            loss = (1 - REPLACED_ANYWAY) * hand
            if liable:
                loss = 3 * hand + hand * 0.5  # pays for all three, plus the others' totals
            cost += chance * (loss + own_points)
        return cost

    @staticmethod
    def _exempt(seen: Seen, kind: int) -> bool:
        """包三家 exemption: the hand before the discard is all 生牌 and not ready after it."""
        if any(c and k in seen.discarded_kinds for k, c in enumerate(seen.counts)):
            return False
        counts = list(seen.counts)
        counts[kind] -= 1
        # not ready as the engine judges it: no wait it can still draw (docs/evaluator.md)
        absent = seen.wild_faces | seen.special_faces
        held = held_copies(counts, (m.tiles for m in seen.melds), absent)
        return not waits(counts, seen.wilds, held)

    # -- claims ------------------------------------------------------------------------------
    def _hand_ev(
        self, planner: Planner, counts: list[int], wilds: int, melds: Sequence[Meld], draws: int
    ) -> tuple[float, int]:
        """Best (EV, distance) of a full hand over its discards."""
        cands = [k for k in range(34) if counts[k]]
        plans = planner.discard_plans(counts, wilds, melds, cands, draws, slack=1)
        best = (0.0, 99)
        for ps in plans.values():
            ev = combined_ev(ps)
            dist = min((p.distance for p in ps), default=99)
            if ev > best[0] or (ev == best[0] and dist < best[1]):
                best = (ev, dist)
        return best

    def _waiting_ev(
        self, planner: Planner, counts: list[int], wilds: int, melds: Sequence[Meld], draws: int
    ) -> tuple[float, int]:
        plans = planner.waiting_plans(counts, wilds, melds, draws, slack=1)
        return combined_ev(plans), min((p.distance for p in plans), default=99)

    def _points(
        self, planner: Planner, ev: float, counts: list[int], melds: Sequence[Meld]
    ) -> float:
        """A hand's worth in points: Jiaxing shares (EV), Wenling three payers' T/10 times the
        chance to win, plus the settlement between non-winners it would earn."""
        if planner.in_tai:
            return ev
        return 3 * ev + self._nonwinner_points(planner, counts, melds)

    @staticmethod
    def _nonwinner_points(
        planner: Planner,
        counts: Sequence[int],
        melds: Sequence[Meld],
        weight: float = NONWINNER_WEIGHT,
    ) -> float:
        """Wenling: non-winners settle (T_X - T_Y)/10, so each point of our non-winner total
        is worth 1/10 from each of the two other non-winners when someone else wins."""
        return weight * wenling_nonwinner_total(counts, melds, planner.wl) / 10

    def pick_claim(self, seen: Seen, claims: list[Claim]) -> Claim | None:
        base, rated = self.claim_points(seen, claims)
        chosen: Claim | None = None
        best = base + CLAIM_MARGIN * abs(base) + 1e-9
        for c, points, allowed in rated:
            if allowed and points > best:
                best, chosen = points, c
        return chosen

    def claim_points(
        self, seen: Seen, claims: list[Claim]
    ) -> tuple[float, list[tuple[Claim, float, bool]]]:
        """The points of passing, and of each claim with whether it may be made at all (not
        when it slows the hand, or makes this seat a 承包方 far from ready)."""
        planner = self._planner(seen)
        draws = planner.draws_left()
        base_ev, base_dist = self._waiting_ev(planner, seen.counts, seen.wilds, seen.melds, draws)
        base = self._points(planner, base_ev, seen.counts, seen.melds)
        from_seat = seen.last_discard[0] if seen.last_discard else -1
        rated: list[tuple[Claim, float, bool]] = []
        for c in claims:
            counts = list(seen.counts)
            for k in c.uses:
                counts[k] -= 1
            melds = seen.melds + [c.meld(from_seat)]
            if c.type == "mkong":
                ev, dist = self._waiting_ev(planner, counts, seen.wilds, melds, draws + 1)
            else:
                ev, dist = self._hand_ev(planner, counts, seen.wilds, melds, draws)
            # a 承包方 far from ready risks paying five shares
            allowed = dist <= base_dist and not (self._forms_santan(seen, from_seat) and dist > 0)
            rated.append((c, self._points(planner, ev, counts, melds), allowed))
        return base, rated

    @staticmethod
    def _forms_santan(seen: Seen, from_seat: int) -> bool:
        if not seen.rules.santan or from_seat < 0:
            return False
        return seen.claim_counts[seen.seat][from_seat] >= 2  # the default threshold is 3

    # -- kongs -------------------------------------------------------------------------------
    def pick_kong(self, seen: Seen, kongs: list[Any]) -> Any | None:
        best: tuple[float, Any] | None = None
        for a, points, acceptable in self.kong_points(seen, kongs):
            if acceptable and (best is None or points > best[0]):
                best = (points, a)
        return best[1] if best else None

    def kong_points(self, seen: Seen, kongs: list[Any]) -> list[tuple[Any, float, bool]]:
        """Each kong with its points and whether it is declared rather than discarding (it
        keeps the hand as near and about as valuable)."""
        planner = self._planner(seen)
        draws = planner.draws_left()
        keep_ev, keep_dist = self._hand_ev(planner, seen.counts, seen.wilds, seen.melds, draws)
        keep = self._points(planner, keep_ev, seen.counts, seen.melds)
        out = []
        for a in kongs:
            k = self.kong_kind(a)
            counts = list(seen.counts)
            if action_type(a) == "akong":
                counts[k] -= 4
                melds = seen.melds + [Meld("akong", (k,) * 4, None)]
            else:
                counts[k] -= 1
                melds = [m for m in seen.melds if not (m.kind == "pon" and m.tile == k)]
                melds.append(Meld("bukong", (k,) * 4, None))
            ev, dist = self._waiting_ev(planner, counts, seen.wilds, melds, draws + 1)
            points = self._points(planner, ev, counts, melds)
            out.append((a, points, dist <= keep_dist and points >= keep - 0.05 * abs(keep)))
        return out

    # -- 三摊 ----------------------------------------------------------------------------------
    def pick_santan(self, seen: Seen) -> bool:
        planner = self._planner(seen)
        draws = planner.draws_left()
        total = sum(seen.counts) + seen.wilds
        if total % 3 == 2:
            ev, _ = self._hand_ev(planner, seen.counts, seen.wilds, seen.melds, draws)
            plans: list[Plan] = []
        else:
            plans = planner.waiting_plans(seen.counts, seen.wilds, seen.melds, draws)
            ev = combined_ev(plans)
        # ev = value × chance of our win; a 承包方 is quick (three claims), assume they win
        # about half of the hands we do not
        win_chance = min(1.0, max((p.probability for p in plans), default=ev / 4))
        lose_chance = 0.5 * (1 - win_chance) * min(1.0, draws / 12)
        return SANTAN_WIN_GAIN * ev - SANTAN_LOSS * 4.0 * lose_chance > 0


def _santan_risk(seen: Seen, kind: int) -> int:
    """三摊 (Jiaxing): how many opponents one claim away from it with us could claim ``kind``."""
    if not seen.rules.santan:
        return 0
    risk = 0
    for x in range(4):
        if x == seen.seat or seen.claim_counts[x][seen.seat] < 2:
            continue
        if {x, seen.seat} in [set(pair) for pair in seen.santan_pairs]:
            continue  # already partners: one more claim changes nothing
        could_pon = seen.visible[kind] <= 2 and kind not in seen.players[x].discards
        could_chi = x == (seen.seat + 1) % 4 and kind < 27
        risk += could_pon or could_chi
    return risk


def _efficiency_key(plans: Sequence[Plan]) -> tuple[int, int]:
    if not plans:
        return (99, 0)
    return min((p.distance, -p.ukeire) for p in plans)
