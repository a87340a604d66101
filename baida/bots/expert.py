"""``expert``: every legal action valued in expected points of the hand, the best one played.

A value has three parts, all in the table's points (Jiaxing shares ``s``, Wenling coins):

* **own**: what the hand that the action leaves is worth to this seat: the planner's chance to
  finish each target times its value (``strong``'s estimate), times what the other seats would
  pay (Jiaxing: the 三摊/承包 multipliers in force, RULES.md §A5.2), times the chance that nobody
  else finishes first (the opponents' win chances, ``opponents``);
* **loss**: what this seat expects to pay the others: each opponent's win chance times the value
  their melds show times what this seat would pay them;
* **what the action gives the others**: a discard an opponent may 碰/吃 raises their win chance
  (a step in the measured table); a third claim on this seat's discards makes a 承包 pair, after
  which this seat pays five shares when that opponent wins and receives five when it wins; in
  Wenling a discard may be won on (``danger``), and a 生牌 in the 生牌阶段 makes this seat pay for
  all three (包三家) unless the exemption holds.

放弃 (三摊) is worth exactly 0: a seat that gives up neither pays nor wins. ``evaluate`` returns
every legal action with its value and parts (``baida review`` shows them); ``choose`` plays the
best. Nothing here reads a clock: ``budget_ms`` sets how much of the search is done (the
second-ply breadth and whether a slower but safer shape is considered), so a decision is a pure
function of the view, the legal actions and the seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..hand import Meld
from ..rulesets import Jiaxing, Ruleset, Wenling, ruleset
from .base import Claim
from .danger import Opponent, deal_in_chance
from .efficiency import distance
from .features import Seen, read_view, view_dict
from .opponents import OpponentRead, chi_chance, pon_chance, read_opponents, win_chance_table
from .planner import Plan, Planner, combined_ev
from .policy import action_tile, action_type
from .simulation import simulate_offense
from .strong import CLAIM_MARGIN, NONWINNER_WEIGHT, REFINE_TOP, StrongBot, _efficiency_key

RACE_WEIGHT = 0.75  # how much the opponents' win chances cut this seat's own chance
RACE_FLOOR = 0.15
# The planner's chances rank shapes; they are not probabilities. Against the points 100 hands
# of ``strong`` self-play then won (bench/calibrate_opponents.py --measure own), the Jiaxing own
# estimate (race factor included) was low by 1.1x-4.7x for estimates above one share (3.6x
# overall, far more for the tiny early ones, whose hands still win by claims); 1.7 is the
# slope where decisions are close. A scale of 3 (feeding weighed less against the own hand) was
# tried on 2026-12-02 and not kept: its discards gained in bench/branch_eval.py, but against
# ``strong`` in the arena it did no better (BENCHMARKS.md, bench.variants:ScaledJiaxingExpert).
JIAXING_OWN_SCALE = 1.7
REPLACED_ANYWAY = 0.45  # Wenling: chance an opponent dealt in would have won anyway
LAZI_PER_PAYER = 50.0  # Wenling 腊子: T = 500
CONTINUE_GUESS = 0.5  # chance another asked seat also chooses 坚持
# Measured in 120 hands of ``strong`` self-play (bench/calibrate_opponents.py --measure pairs):
# the seat whose third claim made a 承包 pair went on to win 20 of those 34 hands.
PAIR_CLAIMER_WIN = 0.59
WENLING_TYPICAL_VALUE = 17.0  # T/10 of an average Wenling win (the arena's average 和 is ~170)
MIN_REFINE_SCALE = 0.3  # the unrefined discards never lose more than this to the second ply
NEAR_EQUAL = 0.01  # values this close (relative to the own part) count as equal
DEFAULT_BUDGET_MS = 100.0
CHEAP_BUDGET_MS = 20.0  # what 托管 plays (tuoguan.py)


@dataclass(slots=True)
class ActionValue:
    """One legal action with its estimated value (expected points) and the parts of it."""

    action: Any
    value: float
    parts: dict[str, float] = field(default_factory=dict)
    eligible: bool = True  # False: valued for the review, but outside what the bot plays
    rank: tuple[int, ...] = ()  # among near-equal values, the lowest rank is played


@dataclass(slots=True)
class Table:
    """The facts every valuation of one decision shares."""

    seen: Seen
    planner: Planner
    draws: int
    opponents: list[OpponentRead]
    race: float
    own_scale: float  # Jiaxing: the planner's estimate to expected points (the bot's scale)
    nonwinner_weight: float = NONWINNER_WEIGHT  # Wenling: the own non-winner total's weight

    @property
    def me(self) -> int:
        return self.seen.seat

    def in_pair(self, a: int, b: int) -> bool:
        return any({a, b} == set(p) for p in self.seen.santan_pairs)

    def multiplier(self, winner: int, payer: int) -> float:
        """Shares ``payer`` pays when ``winner`` self-draws (RULES.md §A5.2); 1 without 三摊."""
        seen = self.seen
        if not seen.rules.santan:
            return 1.0
        if seen.players[payer].gave_up:
            return 0.0
        if self.in_pair(winner, payer):
            return 5.0
        if any(winner in p or payer in p for p in seen.santan_pairs):
            return 2.0
        return 1.0

    def gain_multiplier(self) -> float:
        return sum(self.multiplier(self.me, o.seat) for o in self.opponents)

    def is_claimer(self, seat: int) -> bool:
        """Whether ``seat`` made the third claim of a 承包 pair (it is usually near a win)."""
        seen = self.seen
        threshold = int(seen.options.get("santan_threshold", 3))
        return any(
            seat in p and seen.claim_counts[seat][p[0] + p[1] - seat] >= threshold
            for p in seen.santan_pairs
        )

    def win_chance(self, opp: OpponentRead) -> float:
        if opp.can_win and self.is_claimer(opp.seat):
            return max(opp.win_chance, PAIR_CLAIMER_WIN)
        return opp.win_chance

    def baseline_loss(self) -> float:
        return sum(
            self.win_chance(o) * o.value * self.multiplier(o.seat, self.me) for o in self.opponents
        )

    def own(self, ev: float, counts: Sequence[int], melds: Sequence[Meld]) -> float:
        """Points this seat expects from its own win (and, in Wenling, its non-winner total)."""
        if self.planner.in_tai:
            return ev * self.gain_multiplier() * self.race * self.own_scale
        if not self.planner.use_values:  # chances only: at a typical hand's worth
            ev *= WENLING_TYPICAL_VALUE
        settle = StrongBot._nonwinner_points(self.planner, counts, melds, self.nonwinner_weight)
        return 3 * ev * self.race + settle

    def step(self, opp: OpponentRead) -> tuple[float, float]:
        """(win chance now, after one more meld) of ``opp``."""
        if not opp.can_win:
            return 0.0, 0.0
        after = win_chance_table(self.seen.rules, opp.melds_count + 1, self.seen.wall_remaining)
        return opp.win_chance, max(opp.win_chance, after)


class ExpertBot(StrongBot):
    """Expected-value play: own chances against what each choice gives the others."""

    name = "expert"
    wenling_speed = False  # True: Wenling plans ranked by chance alone (measured worse)
    # True: a slower Wenling discard only to avoid 包三家; False: whenever an opponent may be
    # ready or in the 生牌阶段 (the earlier rule, measured worse: BENCHMARKS.md)
    wenling_liable_slack = True
    jiaxing_own_scale = JIAXING_OWN_SCALE
    rollouts = 0  # > 0: the top discards' chances from simulated futures (simulation.py)
    # Jiaxing: discards, claims and kongs played as ``strong`` plays them (its scores, shown
    # by ``evaluate``); 坚持/放弃 by this bot's value
    jiaxing_strong_play = False
    # the rulesets (classes) where the planner counts the claims that can bring a step, not
    # only draws
    planner_claims: frozenset[type[Ruleset]] = frozenset()
    # Wenling: a ready hand's waits weighed by how often the others discard them
    # (``Planner(weighted_waits=True)``); False: every live copy alike
    weighted_waits = False
    # the rulesets whose ready hands are valued by the scorer (``Planner(exact_ready=True)``,
    # ``exact_value.py``); measured ahead of the approximate values in Wenling (BENCHMARKS.md)
    exact_ready: frozenset[type[Ruleset]] = frozenset({Wenling})
    feed_ordinary = True  # False: only a claim that makes a 承包 pair is weighed as a feed
    wenling_nonwinner_weight = NONWINNER_WEIGHT
    simulate_top = 4  # how many discards (by the planner's estimate) are simulated
    simulated_plans = 2  # ... and how many of each one's targets
    # a simulated chance is a probability, divided by this to be read like the planner's:
    # in Jiaxing ``own`` multiplies the planner's chances by ``jiaxing_own_scale``
    simulated_per_planned: dict[type[Ruleset], float] = {Jiaxing: JIAXING_OWN_SCALE, Wenling: 1.0}

    def __init__(self, seed: int | None = None, budget_ms: float = DEFAULT_BUDGET_MS) -> None:
        super().__init__(seed=seed)
        if budget_ms <= 0:
            raise ValueError(f"budget_ms must be positive, got {budget_ms!r}")
        self.budget_ms = float(budget_ms)
        self.refine_top = 4 if budget_ms >= 50 else 2 if budget_ms >= 10 else 0
        self.santan_rng = random.Random(seed)  # the 三摊 ties, apart from the play's

    def _second_ply_breadth(self) -> int:
        return min(REFINE_TOP, self.refine_top)  # ``strong``'s breadth at the full budget

    # -- the protocol ------------------------------------------------------------------------
    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        for decisive in ("lazi", "win"):  # a 腊子 is 500, at least any win
            for a in legal_actions:
                if action_type(a) == decisive:
                    return a
        santan = any(action_type(a) == "continue" for a in legal_actions)
        if self.jiaxing_strong_play and not santan and _plays(view, Jiaxing):
            return StrongBot.choose(self, view, legal_actions)
        return self.pick(self.evaluate(view, legal_actions), santan).action

    def pick(self, scored: Sequence[ActionValue], santan: bool = False) -> ActionValue:
        """The valued action ``choose`` plays: the best eligible one."""
        scored = [s for s in scored if s.eligible] or list(scored)
        best = max(scored, key=lambda s: s.value)
        # the estimates are rough: within a hair of the best, the surer shape wins (the
        # nearest, then the most live tiles), then the seed
        tolerance = NEAR_EQUAL * abs(best.parts.get("own", 0.0)) + 1e-9
        near = [s for s in scored if s.value >= best.value - tolerance]
        rng = self.santan_rng if santan and self.jiaxing_strong_play else self.rng
        return min(near, key=lambda s: (s.rank, rng.random()))

    def evaluate(self, view: Any, legal_actions: Sequence[Any]) -> list[ActionValue]:
        """Every legal action with its value; ``choose`` plays the best eligible one."""
        v = view_dict(view)
        seen = read_view(v)
        table = self._table(seen, v)
        by_type: dict[str, list[Any]] = {}
        for a in legal_actions:
            by_type.setdefault(action_type(a), []).append(a)
        strong_play = self.jiaxing_strong_play and isinstance(seen.rules, Jiaxing)
        if strong_play and "continue" not in by_type:
            return self._as_strong(table, by_type)
        out: list[ActionValue] = []
        if "continue" in by_type or "give_up" in by_type:
            out += [self._santan(table, a) for a in by_type.get("continue", [])]
            out += [
                ActionValue(a, 0.0, {"own": 0.0, "loss": 0.0}) for a in by_type.get("give_up", [])
            ]
        kongs = by_type.get("akong", []) + by_type.get("bukong", [])
        if "discard" in by_type:
            # a kong is valued by the planner alone: so are the discards it competes with
            out += self._discards(table, by_type["discard"], simulate=not kongs)
        if kongs:
            out += self._kongs(table, kongs)
        claims = [self._claim(a, seen) for t in ("pon", "mkong", "chi") for a in by_type.get(t, [])]
        if claims or "pass" in by_type:
            out += self._claims(table, claims, by_type.get("pass", []))
        for a in by_type.get("win", []) + by_type.get("lazi", []):
            out.append(self._win(table, a))
        return out

    def _as_strong(self, table: Table, by_type: dict[str, list[Any]]) -> list[ActionValue]:
        """``jiaxing_strong_play``: ``strong``'s scores of the actions, in expected points
        (times what the others pay), eligible exactly where ``strong`` may play them."""
        seen = table.seen
        payers = table.gain_multiplier()
        out: list[ActionValue] = []
        kongs = by_type.get("akong", []) + by_type.get("bukong", [])
        rated_kongs = self.kong_points(seen, kongs) if kongs else []
        declares = any(ok for _, _, ok in rated_kongs)  # then ``strong`` declares, no discard
        for a, points, ok in rated_kongs:
            out.append(ActionValue(a, points * payers, {"own": points * payers}, eligible=ok))
        by_kind: dict[int, Any] = {}
        for a in by_type.get("discard", []):
            by_kind.setdefault(action_tile(a), a)
        naturals = sorted(k for k in by_kind if k < 34 and k not in seen.wild_faces)
        scores, plans = self.discard_scores(seen, naturals) if naturals else ({}, {})
        for k, a in by_kind.items():
            value = scores.get(k, 0.0) * payers
            eligible = not declares and (k in scores or not scores)
            rank = self.discard_rank(seen, plans, k) if k in scores else ()
            out.append(ActionValue(a, value, {"own": value}, eligible=eligible, rank=rank))
        claims = [self._claim(a, seen) for t in ("pon", "mkong", "chi") for a in by_type.get(t, [])]
        if claims or "pass" in by_type:
            base, rated = self.claim_points(seen, claims)
            out += [
                ActionValue(a, base * payers, {"own": base * payers}, rank=(0,))
                for a in by_type.get("pass", [])
            ]
            margin = CLAIM_MARGIN * abs(base) * payers
            for c, points, ok in rated:
                own = points * payers
                out.append(ActionValue(c.action, own - margin, {"own": own}, ok, rank=(1,)))
        for a in by_type.get("win", []) + by_type.get("lazi", []):
            out.append(self._win(table, a))
        return out

    # -- the shared facts --------------------------------------------------------------------
    def _planner(self, seen: Seen) -> Planner:
        if self.wenling_speed and isinstance(seen.rules, Wenling):
            return Planner(seen, use_values=False, plain_only=True)
        return Planner(
            seen,
            use_values=self.use_values,
            claims=tuned_for(seen.rules, self.planner_claims),
            weighted_waits=self.weighted_waits,
            exact_ready=tuned_for(seen.rules, self.exact_ready),
        )

    def _table(self, seen: Seen, view: Mapping[str, Any]) -> Table:
        planner = self._planner(seen)
        table = Table(seen, planner, planner.draws_left(), read_opponents(seen, view), 1.0,
                      self.jiaxing_own_scale, self.wenling_nonwinner_weight)
        others = sum(table.win_chance(o) for o in table.opponents)
        table.race = max(RACE_FLOOR, 1 - RACE_WEIGHT * others)
        return table

    # -- discards ----------------------------------------------------------------------------
    def _discards(
        self, table: Table, discards: list[Any], simulate: bool = True
    ) -> list[ActionValue]:
        seen = table.seen
        counts = seen.counts
        by_kind: dict[int, Any] = {}
        for a in discards:
            by_kind.setdefault(action_tile(a), a)
        naturals = sorted(k for k in by_kind if k < 34 and k not in seen.wild_faces)
        plans = self._discard_plans(table, naturals)
        dist = {k: min((p.distance for p in ps), default=99) for k, ps in plans.items()}
        offense = {k: combined_ev(ps) for k, ps in plans.items()}
        if dist:
            d_min = min(dist.values())
            allowed = self._allowed(table, dist, d_min)
            self._refine(table, plans, offense, allowed, simulate)
        else:
            allowed = []
        loss = table.baseline_loss()
        # a slower shape is weighed for what it saves in feeding and dealing in, never for
        # its own estimate, which is too hopeful for hands further from ready
        fastest = [k for k in allowed if dist[k] == min(dist[j] for j in allowed)]
        ceiling = max((offense[k] for k in fastest), default=0.0)
        out = []
        for k, action in by_kind.items():
            if k not in plans:  # a wild (dead when discarded)
                own = self._wild_discard_own(table)
                out.append(ActionValue(action, own - loss, {"own": own, "loss": loss}))
                continue
            if k in allowed and k not in fastest:
                offense[k] = min(offense[k], ceiling)
            counts[k] -= 1
            own = table.own(offense[k], counts, seen.melds)
            counts[k] += 1
            feed = self._feed_cost(table, k, offense[k])
            deal_in = self._deal_in_cost(table, k, own) if seen.rules.discard_wins else 0.0
            value = own - loss - feed - deal_in
            parts = {"own": own, "loss": loss, "feed": feed, "deal_in": deal_in}
            rank = _efficiency_key(plans[k])
            out.append(ActionValue(action, value, parts, eligible=k in allowed, rank=rank))
        if any(av.eligible and action_tile(av.action) in plans for av in out):
            for av in out:
                av.eligible = av.eligible and action_tile(av.action) in plans
        return out

    def _discard_plans(self, table: Table, naturals: Sequence[int]) -> dict[int, list[Plan]]:
        """Each natural discard's waiting plans (best first), from the planner."""
        seen = table.seen
        return table.planner.discard_plans(seen.counts, seen.wilds, seen.melds, naturals,
                                           table.draws)

    def _allowed(self, table: Table, dist: dict[int, int], d_min: int) -> list[int]:
        """The discards weighed: the nearest shapes, and one step slower ones where the
        liability can be real (a Jiaxing opponent one claim away from a 承包 pair with this
        seat; in Wenling only when every nearest discard is a 生牌 that would make this seat
        pay for all three, and then only the slower discards that would not)."""
        seen = table.seen
        nearest = [k for k in dist if dist[k] == d_min]
        slower = [k for k in dist if dist[k] == d_min + 1]
        if seen.rules.baosanjia:
            if not self.wenling_liable_slack:
                return nearest + slower if self._threatened(seen) else nearest
            if all(self._liable(seen, k) for k in nearest):
                return nearest + [k for k in slower if not self._liable(seen, k)]
            return nearest
        if any(self._makes_pair(seen, o.seat, seen.seat) for o in table.opponents):
            return nearest + slower
        return nearest

    def _liable(self, seen: Seen, kind: int) -> bool:
        """Wenling: whether discarding ``kind`` would make this seat 被包 if it is won on."""
        return (seen.sheng_phase and kind not in seen.discarded_kinds
                and not self._exempt(seen, kind))

    def _refine(
        self, table: Table, plans: dict, offense: dict[int, float], allowed: list,
        simulate: bool = True,
    ) -> None:
        """The second ply for the most promising discards (``strong``'s refinement), or
        their simulated chances when ``rollouts`` is set."""
        if simulate and self.rollouts > 0 and table.draws > 0:
            self._simulate(table, plans, offense, allowed)
            return
        seen, planner, draws = table.seen, table.planner, table.draws
        counts = seen.counts
        ranked = sorted(allowed, key=lambda k: -offense[k])
        ratios = []
        for k in ranked[: self.refine_top]:
            counts[k] -= 1
            refined = [
                planner.refine(p, counts, seen.wilds, seen.melds, draws) for p in plans[k][:2]
            ]
            counts[k] += 1
            before = offense[k]
            after = combined_ev(refined + plans[k][2:])
            if after <= 0 < before:
                continue  # the second ply found no improving draw it could measure: keep
            offense[k] = after
            if before > 0:
                ratios.append(after / before)
        # the second ply usually lowers an estimate; scale the unrefined ones alike
        scale = min(1.0, max(MIN_REFINE_SCALE, min(ratios))) if ratios else 1.0
        for k in plans:
            if k not in ranked[: self.refine_top]:
                offense[k] *= scale * 0.98

    def _simulate(
        self, table: Table, plans: dict, offense: dict[int, float], allowed: list
    ) -> None:
        """The most promising discards' chances from simulated futures (``simulation``)."""
        seen = table.seen
        simulate_offense(
            seen, plans, offense, allowed, table.draws, self.rng, self.rollouts,
            self.simulate_top, self.simulated_plans,
            seen.rules.pick(self.simulated_per_planned, 1.0),
        )

    def _wild_discard_own(self, table: Table) -> float:
        seen = table.seen
        if seen.rules.wild_discard_forfeits:
            return 0.0  # a player who discards a 得 can no longer win
        plans = table.planner.waiting_plans(seen.counts, seen.wilds - 1, seen.melds, table.draws)
        return table.own(combined_ev(plans), seen.counts, seen.melds)

    def _feed_cost(self, table: Table, kind: int, own_ev: float) -> float:
        """Expected points lost by the claims an opponent may make on ``kind``."""
        seen = table.seen
        cost = 0.0
        for opp in table.opponents:
            chance = pon_chance(seen, opp, kind) + chi_chance(seen, opp, kind)
            if chance <= 0:
                continue
            now, after = table.step(opp)
            pay = table.multiplier(opp.seat, table.me)
            if not self._makes_pair(seen, opp.seat, table.me):
                if not self.feed_ordinary:
                    continue
                # an ordinary claim: a measured step in their chance, at their hand's worth;
                # counted only where a one-suit run of claims shows the tile completes it
                loss = (after - now) * opp.value * pay if opp.fits(kind) else 0.0
            else:  # a 承包 pair: five shares either way between us from then on
                after = max(after, PAIR_CLAIMER_WIN)
                loss = (after - now) * opp.value * pay + after * opp.value * (5 - pay)
                mine = table.multiplier(table.me, opp.seat)
                loss -= own_ev * table.race * table.own_scale * (5 - mine)
            cost += min(0.95, chance) * loss
        return cost

    def _deal_in_cost(self, table: Table, kind: int, own: float) -> float:
        """Wenling: expected points lost when an opponent wins on ``kind``."""
        seen = table.seen
        opps = table.opponents
        dangers = [Opponent(list(o.discards), list(o.melds), can_win=o.can_win) for o in opps]
        turns = [len(o.discards) for o in opps]
        chances = deal_in_chance(kind, dangers, turns, seen.visible)
        liable = self._liable(seen, kind)
        cost = 0.0
        for opp, chance in zip(opps, chances, strict=True):
            if liable:  # pays all three, and the others' totals (RULES.md §B6)
                loss = 3 * opp.value + 0.5 * opp.value - REPLACED_ANYWAY * opp.value
            else:
                loss = (1 - REPLACED_ANYWAY) * opp.value
            cost += chance * (loss + max(own, 0.0))
        return cost

    @staticmethod
    def _makes_pair(seen: Seen, claimer: int, discarder: int) -> bool:
        """Whether one more claim of ``claimer`` on ``discarder`` makes them 承包方 (三摊)."""
        if not seen.rules.santan or not seen.options.get("santan_enabled", True):
            return False
        if any({claimer, discarder} == set(p) for p in seen.santan_pairs):
            return False
        threshold = int(seen.options.get("santan_threshold", 3))
        return seen.claim_counts[claimer][discarder] == threshold - 1

    # -- claims ------------------------------------------------------------------------------
    def _claims(self, table: Table, claims: list[Claim], passes: list[Any]) -> list[ActionValue]:
        seen, planner, draws = table.seen, table.planner, table.draws
        loss = table.baseline_loss()
        base_ev, base_dist = self._waiting_ev(planner, seen.counts, seen.wilds, seen.melds, draws)
        own_pass = table.own(base_ev, seen.counts, seen.melds)
        out = [
            ActionValue(a, own_pass - loss, {"own": own_pass, "loss": loss}, rank=(0,))
            for a in passes
        ]
        from_seat = seen.last_discard[0] if seen.last_discard else -1
        for c in claims:
            counts = list(seen.counts)
            for k in c.uses:
                counts[k] -= 1
            melds = seen.melds + [c.meld(from_seat)]
            if c.type == "mkong":
                ev, dist = self._waiting_ev(planner, counts, seen.wilds, melds, draws + 1)
            else:
                ev, dist = self._hand_ev(planner, counts, seen.wilds, melds, draws)
            own = table.own(ev, counts, melds)
            parts = {"own": own, "loss": loss}
            value = own - loss
            eligible = dist <= base_dist  # a claim that slows the hand is never made
            if from_seat >= 0 and self._makes_pair(seen, table.me, from_seat):
                # a 承包方 far from ready pays five shares; a ready one may gain five, but
                # that hope never pays for a claim that does not help the hand itself
                pair = self._pair_change(table, from_seat, ev)
                parts["liability"] = pair
                value -= max(0.0, pair)
                eligible = eligible and dist <= 0
            margin = CLAIM_MARGIN * abs(own_pass)  # a claim shows the hand: only for a clear gain
            out.append(ActionValue(c.action, value - margin, parts, eligible, rank=(1,)))
        return out

    def _pair_change(self, table: Table, partner: int, own_ev: float) -> float:
        """Expected points lost by becoming ``partner``'s mutual 承包方 (may be negative)."""
        opp = next(o for o in table.opponents if o.seat == partner)
        gain = own_ev * table.race * table.own_scale * (5 - table.multiplier(table.me, partner))
        pay = table.win_chance(opp) * opp.value * (5 - table.multiplier(partner, table.me))
        return pay - gain

    # -- kongs -------------------------------------------------------------------------------
    def _kongs(self, table: Table, kongs: list[Any]) -> list[ActionValue]:
        seen, planner, draws = table.seen, table.planner, table.draws
        loss = table.baseline_loss()
        out = []
        for a in kongs:
            k = action_tile(a)
            counts = list(seen.counts)
            if action_type(a) == "akong":
                counts[k] -= 4
                melds = seen.melds + [Meld("akong", (k,) * 4, None)]
            else:
                counts[k] -= 1
                melds = [m for m in seen.melds if not (m.kind == "pon" and m.tile == k)]
                melds.append(Meld("bukong", (k,) * 4, None))
            ev, _ = self._waiting_ev(planner, counts, seen.wilds, melds, draws + 1)
            own = table.own(ev, counts, melds)
            out.append(ActionValue(a, own - loss, {"own": own, "loss": loss}))
        return out

    # -- 三摊 ----------------------------------------------------------------------------------
    def _santan(self, table: Table, action: Any) -> ActionValue:
        """坚持: a race to the first self-draw between this hand (its best plan's chance to
        finish before the wall ends) and the opponents still playing (their measured win
        chances, the new 承包方 near a win), settled at the multipliers after the pair."""
        seen, planner, draws = table.seen, table.planner, table.draws
        if (sum(seen.counts) + seen.wilds) % 3 == 2:
            ev, _ = self._hand_ev(planner, seen.counts, seen.wilds, seen.melds, draws)
            plans = []
        else:
            plans = planner.waiting_plans(seen.counts, seen.wilds, seen.melds, draws)
            ev = combined_ev(plans)
        best = max(plans, key=lambda p: p.ev, default=None)
        mine, value = (best.probability, best.value) if best else (0.0, 0.0)
        if best is None and ev > 0:
            value = _floor_value(seen)
            mine = min(1.0, ev / value)
        in_pairs = {s for p in seen.santan_pairs for s in p}
        rivals = []  # (opponent, share of the time it keeps playing)
        for opp in table.opponents:
            if opp.gave_up or not opp.can_win:
                continue
            rivals.append((opp, 1.0 if opp.seat in in_pairs else CONTINUE_GUESS))
        # the measured 59% of a new 承包方 is already a race result: race with its table chance
        firsts = race_first([mine] + [o.win_chance * k for o, k in rivals], draws)
        own = firsts[0] * value * sum(2.0 if o.seat in in_pairs else k for o, k in rivals)
        loss = sum(
            first * opp.value * (2.0 if opp.seat in in_pairs else 1.0)
            for first, (opp, _) in zip(firsts[1:], rivals, strict=True)
        )
        return ActionValue(action, own - loss, {"own": own, "loss": loss})

    # -- wins --------------------------------------------------------------------------------
    def _win(self, table: Table, action: Any) -> ActionValue:
        """A win's worth: the best completed target's value times what the others pay."""
        seen = table.seen
        if action_type(action) == "lazi":
            return ActionValue(action, 3 * LAZI_PER_PAYER, {"own": 3 * LAZI_PER_PAYER})
        counts = list(seen.counts)
        robbed = seen.last_discard if seen.phase == "claim" else None
        if robbed is not None:
            counts[robbed[1]] += 1
        valuer = StrongBot._planner(self, seen)  # with values, whatever this bot ranks by
        value = 0.0
        for target in valuer.targets(seen.melds):
            if distance(counts, seen.wilds, seen.sets_needed, target) < 0:
                value = max(value, valuer.value(target, counts, seen.wilds, seen.melds))
        value = value or _floor_value(seen)
        payers = table.gain_multiplier()  # 3 without 三摊 multipliers
        return ActionValue(action, value * payers, {"own": value * payers})


def race_first(chances: Sequence[float], draws: int) -> list[float]:
    """Chance that each player finishes first, given each one's chance to finish alone within
    ``draws`` draws: constant per-draw hazards, turn order ignored."""
    if draws <= 0:
        return [0.0] * len(chances)
    hazards = [1 - (1 - min(c, 0.999)) ** (1 / draws) for c in chances]
    total = sum(hazards)
    if total <= 0:
        return [0.0] * len(chances)
    anyone = 1 - (1 - min(total, 1.0)) ** draws
    return [h / total * anyone for h in hazards]


def tuned_for(rules: Ruleset, classes: frozenset[type[Ruleset]]) -> bool:
    """Whether a setting measured per ruleset (``planner_claims``, ``exact_ready``) holds for
    ``rules``: it is one of ``classes`` or a variant of one."""
    return isinstance(rules, tuple(classes))


def _plays(view: Any, rules_class: type[Ruleset]) -> bool:
    """Whether the view's table plays ``rules_class`` (or a variant of it)."""
    return isinstance(ruleset(view_dict(view).get("ruleset")), rules_class)


def _floor_value(seen: Seen) -> float:
    """The least a win is worth (Jiaxing 2 台, Wenling T = 30)."""
    return seen.rules.least_win
