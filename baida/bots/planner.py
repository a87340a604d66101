"""Plans for a hand: for each discard (or claim), the best target, its distance, acceptance,
value and the estimated chance to finish it before the wall runs out.

The chance is a staged negative binomial (``efficiency.completion_probability``): the hand
needs ``distance + 1`` improving tiles among the draws still to come; the first arrives with
the measured acceptance, the second with the acceptance of the improved hand (measured one ply
deeper, or estimated), the later ones with the typical acceptance of their distance. Where
wins on a discard are part of the game (Wenling) the last tile may also come from any
opponent's discard, which multiplies the chances of the final step. What the ruleset decides
(sets to make, targets, where the draws stop, how a win is valued) is asked of ``seen.rules``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..hand import Meld
from .efficiency import (
    RUN_PARTNERS,
    Target,
    acceptance,
    best_next_acceptance,
    completion_probability,
    distance,
)
from .exact_value import ReadyValuer
from .features import Seen
from .targets import (
    JiaxingContext,
    WenlingContext,
    jiaxing_value,
    open_targets,
    wenling_value,
)

LATER_STAGE_FACTOR = 0.8  # acceptance of an improved hand relative to the current one
TENPAI_ACCEPT = 6.0  # live tiles a typical ready hand waits on (without wilds)
STEP_ACCEPT = 9.0  # ... and how many more each further step away from ready accepts
RON_FACTOR = 2.2  # Wenling: own draw plus claimable discards per turn cycle, for the last tile
# With ``claims``: an improving kind held as a pair may also be 碰'd from three discards per turn
# cycle, one that completes a run 吃'd from the left seat's; later steps gain on average
PON_WEIGHT = 1.5
CHI_WEIGHT = 0.5
LATER_CLAIMS = 1.3
# With ``exact_ready`` (Wenling): a ready hand's value from the scorer (``exact_value``), brought
# to the scale of the approximate values of the hands further from ready by their mean ratio
# over ready hands of ``expert`` self-play (1.3; BENCHMARKS.md, "Exact values of ready hands")
EXACT_READY_SCALE = 1 / 1.3
# With ``weighted_waits`` (Wenling): how many times more often the three opponents discard a
# live copy of a kind in one turn cycle than this seat draws it, by the kind's category and how
# many copies this seat sees (0-3), past the first third of the wall. Measured over 600 hands
# of ``strong`` self-play (``bench/calibrate_opponents.py --ruleset wenling --measure discards
# --hands 600``): terminals and honours seen once or more are thrown three to four times as
# often as they are drawn, 4-6 one and a half to two times.
DISCARD_RATIOS = {
    "honour": (1.28, 3.94, 3.58, 3.47),
    "terminal": (2.47, 3.55, 4.19, 3.94),
    "two": (2.05, 2.65, 3.33, 3.14),  # 2 and 8
    "three": (1.35, 1.78, 2.23, 2.3),  # 3 and 7
    "middle": (1.3, 1.45, 2.25, 1.83),  # 4, 5 and 6
}


@dataclass(frozen=True, slots=True)
class Plan:
    """The outlook of one choice under its best target."""

    target: Target
    distance: int
    ukeire: int
    value: float
    probability: float

    @property
    def ev(self) -> float:
        return self.value * self.probability


class Planner:
    """Evaluates hypothetical hands of one seat with the seat's live-tile knowledge."""

    later_stage_factor = LATER_STAGE_FACTOR
    tenpai_accept = TENPAI_ACCEPT
    step_accept = STEP_ACCEPT
    ron_factor = RON_FACTOR
    hazard = 0.0  # per own draw: the chance the hand ends first (another player finishes)
    exact_ready_scale = EXACT_READY_SCALE

    def __init__(
        self,
        seen: Seen,
        use_values: bool = True,
        plain_only: bool = False,
        claims: bool = False,
        weighted_waits: bool = False,
        exact_ready: bool = False,
    ):
        self.seen = seen
        rules = seen.rules
        self.in_tai = rules.unit == "tai"  # values in 台 shares (Jiaxing), else in 和/10
        self.sets = rules.sets
        # wins on a discard: a ready hand's waits weighed by how often the others discard each
        self.weighted_waits = weighted_waits and rules.discard_wins
        # 和 points (Wenling): a ready hand valued by the scorer, each way to finish weighed
        self.ready_valuer = (
            ReadyValuer(seen, self.ron_weight)
            if exact_ready and use_values and not self.in_tai
            else None
        )
        self.use_values = use_values
        self.plain_only = plain_only  # where any shape wins: aim for it alone, no pattern
        self.claims = claims  # steps before the last may come from claimed discards too
        self.unseen = max(1, seen.unseen)
        if self.in_tai:
            self.jx = JiaxingContext(
                seat_wind=seen.seat_wind,
                round_wind=seen.round_wind if seen.round_wind is not None else 27,
                carry_fans=seen.carry_pool,
            )
        else:
            self.wl = WenlingContext(
                seat_wind=seen.seat_wind,
                specials=frozenset(k for k in seen.special_faces if k < 34),
                exposed_specials=sum(1 for f in seen.flowers if f in seen.special_faces and f < 34),
                seat_flowers=sum(1 for f in seen.flowers if f in _seat_flowers(seen.seat_wind)),
            )

    # -- basic facts -------------------------------------------------------------------------
    def draws_left(self, extra: int = 0) -> int:
        """Own draws still expected before the wall is exhausted."""
        seen = self.seen
        stop = seen.rules.draw_floor(seen.rule_options)
        left = max(0, seen.wall_remaining - stop)
        return left // 4 + extra

    def targets(self, melds: Sequence[Meld]) -> list[Target]:
        rules = self.seen.rules
        targets = open_targets(melds, rules, self.seen.options.get("require_pattern", True))
        if self.plain_only and not rules.pattern_needed:
            targets = [t for t in targets if t.kind == "any"]
        return targets

    def value(
        self, target: Target, counts: Sequence[int], wilds: int, melds: Sequence[Meld]
    ) -> float:
        if not self.use_values:
            return 1.0
        if self.in_tai:
            return jiaxing_value(target, counts, wilds, melds, self.jx)
        return wenling_value(target, counts, wilds, melds, self.wl)

    def stage_acceptance(self, remaining: int) -> float:
        """Typical live tiles that improve a hand ``remaining`` steps from complete (0 =
        tenpai): a ready hand waits on a few kinds, plus any live wild."""
        typical = self.tenpai_accept + self.step_accept * remaining + self.seen.live_wilds
        return typical * LATER_CLAIMS if self.claims else typical

    def probability(
        self,
        dist: int,
        ukeire: int,
        draws: int,
        p_next: float | None = None,
        discarded: float | None = None,
    ) -> float:
        """Chance to finish from ``dist`` with ``ukeire`` live improving tiles in ``draws``.

        Stage ``i`` (``dist - i`` steps from complete) succeeds per draw with the measured
        acceptance for the first stage, ``p_next`` (the measured second ply) or an estimate for
        the second, and the typical acceptance of its distance for the rest, never rising as
        the hand gets closer. ``discarded`` (Wenling, a ready hand): the live copies of its
        waits weighted by how often the others discard them (``discard_weight``), in place of
        the flat ``ron_factor``.
        """
        if dist < 0:
            return 1.0
        unseen = self.unseen
        stages = [ukeire / unseen]
        for i in range(1, dist + 1):
            if i == 1 and p_next is not None:
                p = p_next
            else:
                typical = self.stage_acceptance(dist - i) / unseen
                p = min(stages[-1] * self.later_stage_factor, typical)
            stages.append(p)
        if self.seen.rules.discard_wins:
            # the last tile may come from an opponent's discard too
            if dist == 0 and discarded is not None:
                ron = min(0.9, discarded / unseen)
                stages[-1] = 1 - (1 - stages[-1]) * (1 - ron)
            else:
                stages[-1] = 1 - (1 - stages[-1]) ** self.ron_factor
        return completion_probability(stages, draws, self.hazard)

    # -- evaluation of hands -----------------------------------------------------------------
    def waiting_plans(
        self,
        counts: list[int],
        wilds: int,
        melds: Sequence[Meld],
        draws: int,
        slack: int = 2,
    ) -> list[Plan]:
        """Plans of a hand one tile short (3n+1), best first, for every open target within
        ``slack`` of the best distance."""
        sets = self.sets - len(melds)
        targets = self.targets(melds)
        dists = [(distance(counts, wilds, sets, t), t) for t in targets]
        if not dists:
            return []
        best = min(d for d, _ in dists)
        # the scorer's value does not depend on the target: one per ready hand
        exact = (self.ready_valuer.value(counts, wilds, melds)
                 if best == 0 and self.ready_valuer is not None else None)
        plans = []
        for d, t in dists:
            if d > best + slack:
                continue
            _, u, kinds = acceptance(
                counts, wilds, sets, t, self.seen.live, self.seen.live_wilds, base=d
            )
            if self.claims and d > 0:  # a ready hand's last tile: the rule of the ruleset
                u = round(u + self.claimable(counts, t, kinds))
            v = self.value(t, counts, wilds, melds)
            if d == 0 and exact is not None:
                v = exact * self.exact_ready_scale
            discarded = self.discarded_waits(kinds) if d == 0 and self.weighted_waits else None
            plans.append(Plan(t, d, u, v, self.probability(d, u, draws, discarded=discarded)))
        plans.sort(key=lambda p: -p.ev)
        return plans

    def ron_weight(self, kind: int) -> float:
        """Wenling: how many times more often a live copy of ``kind`` comes as another
        player's discard than as the own draw, for a ready hand's last tile."""
        if self.weighted_waits:
            return discard_weight(kind, self.seen.visible[kind])
        return self.ron_factor - 1

    def discarded_waits(self, kinds: Sequence[int]) -> float:
        """A ready hand's waits as live copies weighted by how often the others discard them
        per turn cycle, in units of this seat's own draws (``DISCARD_RATIOS``)."""
        live, visible = self.seen.live, self.seen.visible
        return sum(live[k] * discard_weight(k, visible[k]) for k in kinds)

    def claimable(self, counts: Sequence[int], target: Target, kinds: Sequence[int]) -> float:
        """The extra acceptance that claims bring to the improving ``kinds``: each live copy
        weighs ``PON_WEIGHT`` more when the hand holds a pair of it, ``CHI_WEIGHT`` more when
        it completes a run with two held tiles (where 吃 is allowed and the target has runs)."""
        live = self.seen.live
        chis = (
            bool(self.seen.options.get("allow_chi", True))
            and not target.triplets
            and target.kind != "duiduihe"
        )
        extra = 0.0
        for k in kinds:
            weight = PON_WEIGHT if counts[k] >= 2 else 0.0
            if chis and any(counts[a] and counts[b] for a, b in RUN_PARTNERS[k]):
                weight += CHI_WEIGHT
            extra += live[k] * weight
        return extra

    def refine(
        self, plan: Plan, counts: list[int], wilds: int, melds: Sequence[Meld], draws: int
    ) -> Plan:
        """Re-estimate a plan's chance with the measured second-ply acceptance."""
        if plan.distance <= 0:
            return plan
        sets = self.sets - len(melds)
        second = best_next_acceptance(
            counts, wilds, sets, plan.target, self.seen.live, self.seen.live_wilds
        )
        prob = self.probability(plan.distance, plan.ukeire, draws, second / self.unseen)
        return Plan(plan.target, plan.distance, plan.ukeire, plan.value, prob)

    def discard_plans(
        self,
        counts: list[int],
        wilds: int,
        melds: Sequence[Meld],
        candidates: Sequence[int],
        draws: int,
        slack: int = 2,
    ) -> dict[int, list[Plan]]:
        """For each discard candidate of a full hand, its waiting plans (best first)."""
        out: dict[int, list[Plan]] = {}
        for k in candidates:
            if counts[k] == 0:
                continue
            counts[k] -= 1
            out[k] = self.waiting_plans(counts, wilds, melds, draws, slack)
            counts[k] += 1
        return out


def combined_ev(plans: Sequence[Plan]) -> float:
    """A hand's worth from its plans: the best, plus a little for a second way to finish."""
    if not plans:
        return 0.0
    evs = sorted((p.ev for p in plans), reverse=True)
    return evs[0] + (0.15 * evs[1] if len(evs) > 1 else 0.0)


def discard_category(kind: int) -> str:
    """The row of ``DISCARD_RATIOS`` a tile kind belongs to."""
    if kind >= 27:
        return "honour"
    rank = kind % 9 + 1
    return {1: "terminal", 9: "terminal", 2: "two", 8: "two", 3: "three", 7: "three"}.get(
        rank, "middle"
    )


def discard_weight(kind: int, visible: int) -> float:
    """How many times more often the opponents discard a live copy of ``kind`` per turn cycle
    than this seat draws it (Wenling, ``DISCARD_RATIOS``)."""
    return DISCARD_RATIOS[discard_category(kind)][min(3, max(0, visible))]


def _seat_flowers(seat_wind: int) -> tuple[int, int]:
    index = seat_wind - 27
    return (34 + index, 38 + index)
