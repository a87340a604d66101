"""Earlier rules of the project's bots, and candidates that were measured and not kept, so that
a change can be measured against them in the arena
(``--bots expert,bench.variants:EarlierWenlingExpert``) or with ``bench.branch_eval``
(``--kind any:bench.variants:ScaledJiaxingExpert``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from baida.bots.efficiency import Target
from baida.bots.expert import ExpertBot, Table, tuned_for
from baida.bots.features import Seen
from baida.bots.learned import LearnedBot
from baida.bots.planner import Planner
from baida.bots.policy import action_type
from baida.bots.search import SearchBot
from baida.bots.simulation import race_hazard, simulate_offense
from baida.bots.strong import StrongBot
from baida.hand import Meld
from baida.rulesets import Jiaxing, Ruleset, Wenling


class _ApproximateReady:
    """Mixin: Wenling ready hands valued as before 2026-12-05 (``targets.wenling_value``), so
    that the candidates measured against that ``expert`` play as they were measured."""

    exact_ready: frozenset[type[Ruleset]] = frozenset()


class EarlierWenlingExpert(_ApproximateReady, ExpertBot):
    """``expert`` before 2026-12-02: in Wenling a discard one step slower was weighed whenever
    an opponent might be ready or the 生牌阶段 was on (``wenling_liable_slack = False``)."""

    name = "expert-earlier-wenling"
    wenling_liable_slack = False


class ScaledJiaxingExpert(_ApproximateReady, ExpertBot):
    """A candidate measured on 2026-12-02 and not kept: in Jiaxing the own hand's estimate
    scaled by 3 instead of 1.7, so that feeding an opponent weighs less against it
    (BENCHMARKS.md)."""

    name = "expert-scale-3"
    jiaxing_own_scale = 3.0


class SimulatingExpert(_ApproximateReady, ExpertBot):
    """A candidate: the top discards' chances from 64 simulated futures (simulation.py)."""

    name = "expert-simulating"
    rollouts = 64


class SimulatingStrong(StrongBot):
    """A probe: ``strong`` with its four most promising discards' chances from simulated
    futures (64 in Jiaxing, 32 in Wenling) instead of the second ply."""

    name = "strong-simulating"
    rollouts = {Jiaxing: 64, Wenling: 32}
    simulate_top = 4

    def _hazard(self, seen: Seen, draws: int) -> float:
        return 0.0

    def _refine_offense(
        self, seen: Seen, planner: Planner, plans: dict, offense: dict[int, float], draws: int
    ) -> None:
        simulate_offense(
            seen, plans, offense, list(offense), draws, self.rng, seen.rules.pick(self.rollouts),
            self.simulate_top, hazard=self._hazard(seen, draws),
        )


class RacingStrong(SimulatingStrong):
    """A probe: ``SimulatingStrong`` with each simulated finish discounted by the chance
    that an opponent finished first (``simulation.race_hazard``)."""

    name = "strong-racing"

    def _hazard(self, seen: Seen, draws: int) -> float:
        return race_hazard(seen, draws)


class ExpertSantan:
    """Mixin: 坚持/放弃 (三摊) decided by ``expert``, everything else by the class it precedes."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed=seed)  # type: ignore[call-arg]
        self.judge = ExpertBot(seed=seed)

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if any(action_type(a) == "continue" for a in legal_actions):
            return self.judge.choose(view, legal_actions)
        return super().choose(view, legal_actions)  # type: ignore[misc]


class StrongSantan(ExpertSantan, StrongBot):
    """A probe: ``strong``, with ``expert``'s 坚持/放弃 (what the 三摊 judgement alone is worth)."""

    name = "strong-santan"


class SimulatingStrongSantan(ExpertSantan, SimulatingStrong):
    """A candidate: ``SimulatingStrong``, with ``expert``'s 坚持/放弃."""

    name = "strong-simulating-santan"


class RacingStrongSantan(ExpertSantan, RacingStrong):
    """A candidate: ``RacingStrong``, with ``expert``'s 坚持/放弃."""

    name = "strong-racing-santan"


class SimulatingPairsOnlyExpert(_ApproximateReady, ExpertBot):
    """A candidate: simulated chances, and only third claims (承包 pairs) weighed as feeds."""

    name = "expert-simulating-pairs"
    rollouts = 64
    feed_ordinary = False


class ClaimAwareExpert(_ApproximateReady, ExpertBot):
    """A candidate: ``expert`` whose planner counts claims (``Planner(claims=True)``)."""

    name = "expert-claim-aware"
    planner_claims = frozenset({Jiaxing, Wenling})


class StrongPlayExpert(_ApproximateReady, ExpertBot):
    """``expert`` with ``jiaxing_strong_play``: in Jiaxing it plays as ``StrongSantan`` does."""

    name = "expert-strong-play"
    jiaxing_strong_play = True


class _CommittedPlanner(Planner):
    """A Wenling planner that only aims for the one-suit patterns of ``suit``."""

    def __init__(self, seen: Seen, suit: int) -> None:
        super().__init__(seen)
        self.suit = suit

    def targets(self, melds: Sequence[Meld]) -> list[Target]:
        return [
            t for t in super().targets(melds)
            if t.kind in ("hunyise", "qingyise") and t.suit == self.suit
        ]


def committed_suit(seen: Seen, max_off: int) -> int | None:
    """The suit a Wenling hand commits to for 混一色: at most ``max_off`` concealed tiles outside
    it and the honours, and no exposed meld of another suit."""
    meld_suits = {m.tile // 9 for m in seen.melds if m.tile < 27}
    best: tuple[int, int] | None = None
    for suit in range(3):
        if meld_suits - {suit}:
            continue
        off = sum(c for k, c in enumerate(seen.counts) if k < 27 and k // 9 != suit)
        if off <= max_off and (best is None or off < best[0]):
            best = (off, suit)
    return None if best is None else best[1]


class HunyiseExpert(_ApproximateReady, ExpertBot):
    """``expert`` that, in Wenling, plays only for 混一色/清一色 once at most five concealed
    tiles are outside one suit and the honours (Wenling bots almost never win with a pattern)."""

    name = "expert-hunyise"
    max_off = 5

    def _planner(self, seen: Seen) -> Planner:
        if isinstance(seen.rules, Wenling):
            suit = committed_suit(seen, self.max_off)
            if suit is not None:
                return _CommittedPlanner(seen, suit)
        return super()._planner(seen)


class SettlingExpert(_ApproximateReady, ExpertBot):
    """``expert`` with twice the weight on its Wenling non-winner total."""

    name = "expert-settling"
    wenling_nonwinner_weight = 3.0


class RacingWenlingExpert(_ApproximateReady, ExpertBot):
    """``expert`` with half the weight on its Wenling non-winner total."""

    name = "expert-racing-wenling"
    wenling_nonwinner_weight = 0.75


class _StoppingPlanner(Planner):
    """A planner whose win values include what a win saves: the others' expected wins."""

    stop_bonus = 0.0  # per payer, in the planner's value unit (T/10)

    def value(
        self, target: Target, counts: Sequence[int], wilds: int, melds: Sequence[Meld]
    ) -> float:
        return super().value(target, counts, wilds, melds) + self.stop_bonus


class StoppingExpert(_ApproximateReady, ExpertBot):
    """``expert`` that values its own Wenling win at its points plus the loss the win stops
    (``stop_weight`` times what it expects to pay the others, spread over the three payers)."""

    name = "expert-stopping"
    stop_weight = 1.0

    def _planner(self, seen: Seen) -> Planner:
        if isinstance(seen.rules, Wenling):
            return _StoppingPlanner(seen, claims=tuned_for(seen.rules, self.planner_claims))
        return super()._planner(seen)

    def _table(self, seen: Seen, view: Mapping[str, Any]) -> Table:
        table = super()._table(seen, view)
        if isinstance(table.planner, _StoppingPlanner):
            table.planner.stop_bonus = self.stop_weight * table.baseline_loss() / 3
        return table


class StoppingExpert2(StoppingExpert):
    """... at twice that."""

    name = "expert-stopping-2"
    stop_weight = 2.0


class HalfFeedExpert(_ApproximateReady, ExpertBot):
    """``expert`` that weighs what a discard feeds the others (the claims it gives them) at
    half: between ``expert`` (all of it) and ``StrongSantan`` (ties only), which measured
    alike in Jiaxing."""

    name = "expert-half-feed"

    def _feed_cost(self, table: Table, kind: int, own_ev: float) -> float:
        return 0.5 * super()._feed_cost(table, kind, own_ev)


class WaitingExpert(_ApproximateReady, ExpertBot):
    """A candidate: ``expert`` whose Wenling ready hands weigh each wait by how often the
    others discard it (``Planner(weighted_waits=True)``)."""

    name = "expert-waiting"
    weighted_waits = True


class ClaimWaitingExpert(WaitingExpert):
    """``WaitingExpert`` whose planner also counts claims (``ClaimAwareExpert``'s steps)."""

    name = "expert-claim-waiting"
    planner_claims = frozenset({Wenling})


# -- exact values of ready hands (Wenling) -------------------------------------------------


class ScaledExactWaitExpert(ExpertBot):
    """The candidate that became ``expert``'s Wenling play on 2026-12-05 (ready hands valued by
    the scorer, ``Planner(exact_ready=True)``); now the same play as ``expert``."""

    name = "expert-scaled-exact-waits"


class ApproximateReadyExpert(_ApproximateReady, ExpertBot):
    """``expert`` before 2026-12-05: Wenling ready hands valued by ``targets.wenling_value``."""

    name = "expert-approximate-ready"


class ExactWaitExpert(ExpertBot):
    """A candidate measured on 2026-12-04 and not kept: the scorer's values of ready hands
    unscaled (1.3 times the approximate values of the other plans, on average)."""

    name = "expert-exact-waits"

    def _planner(self, seen: Seen) -> Planner:
        planner = super()._planner(seen)
        planner.exact_ready_scale = 1.0
        return planner


class _RacingPlans:
    """Mixin: Wenling plans' chances discounted per draw by the chance that another player
    finishes first (``Planner.hazard`` from ``simulation.race_hazard``)."""

    def _planner(self, seen: Seen) -> Planner:
        planner = super()._planner(seen)  # type: ignore[misc]
        if isinstance(seen.rules, Wenling):
            planner.hazard = race_hazard(seen, planner.draws_left())
        return planner


class RacingPlanExpert(_RacingPlans, _ApproximateReady, ExpertBot):
    """A candidate measured on 2026-12-04 and not kept: ``expert`` (with the approximate
    values of ready hands) whose plans are discounted by the race (``_RacingPlans``)."""

    name = "expert-racing-plans"


class ExactRacingExpert(_RacingPlans, ExpertBot):
    """A candidate measured on 2026-12-04 and not kept: ``RacingPlanExpert``'s discount with
    the scorer's values of ready hands."""

    name = "expert-exact-racing"


class WideSearch(SearchBot):
    """``search`` confirming on up to 32 fresh worlds (budget 88 rollouts), in either ruleset."""

    name = "search-wide"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed=seed, worlds=8, max_worlds=40)


class LooseSearch(SearchBot):
    """``search`` playing a confirmed leader at 1.5 standard errors instead of 2."""

    name = "search-loose"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed=seed, z=1.5)


class HorizonSearch(SearchBot):
    """``search`` whose rollouts stop at the seat's third own turn, valued there by ``expert``
    (less noisy than a hand's end, and biased by ``expert``'s own estimate)."""

    name = "search-horizon"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed=seed, horizon=3)


class LearnedJiaxing(LearnedBot):
    """A candidate measured on 2026-12-06 and not kept: ``expert`` whose choice among its best
    three discards is made by the perceptron trained on 10,000 Jiaxing self-play hands'
    final points (benchmarks-history.md, "A learned value over `expert`'s best discards")."""

    name = "learned-jiaxing"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed=seed,
                         model=Path(__file__).with_name("models") / "jiaxing_value_mc.json")
