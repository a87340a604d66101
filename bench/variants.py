"""Earlier rules of the project's bots, and candidates that were measured and not kept, so that
a change can be measured against them in the arena
(``--bots expert,bench.variants:EarlierWenlingExpert``) or with ``bench.branch_eval``
(``--kind any:bench.variants:ScaledJiaxingExpert``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from baida.bots.expert import ExpertBot
from baida.bots.features import Seen
from baida.bots.planner import Planner
from baida.bots.policy import action_type
from baida.bots.simulation import race_hazard, simulate_offense
from baida.bots.strong import StrongBot


class EarlierWenlingExpert(ExpertBot):
    """``expert`` before 2026-12-02: in Wenling a discard one step slower was weighed whenever
    an opponent might be ready or the 生牌阶段 was on (``wenling_liable_slack = False``)."""

    name = "expert-earlier-wenling"
    wenling_liable_slack = False


class ScaledJiaxingExpert(ExpertBot):
    """A candidate measured on 2026-12-02 and not kept: in Jiaxing the own hand's estimate
    scaled by 3 instead of 1.7, so that feeding an opponent weighs less against it
    (BENCHMARKS.md)."""

    name = "expert-scale-3"
    jiaxing_own_scale = 3.0


class SimulatingExpert(ExpertBot):
    """A candidate: the top discards' chances from 64 simulated futures (simulation.py)."""

    name = "expert-simulating"
    rollouts = 64


class SimulatingStrong(StrongBot):
    """A probe: ``strong`` with its four most promising discards' chances from simulated
    futures (64 in Jiaxing, 32 in Wenling) instead of the second ply."""

    name = "strong-simulating"
    rollouts = {"jiaxing": 64, "wenling": 32}
    simulate_top = 4

    def _hazard(self, seen: Seen, draws: int) -> float:
        return 0.0

    def _refine_offense(
        self, seen: Seen, planner: Planner, plans: dict, offense: dict[int, float], draws: int
    ) -> None:
        simulate_offense(
            seen, plans, offense, list(offense), draws, self.rng, self.rollouts[seen.ruleset],
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


class SimulatingPairsOnlyExpert(ExpertBot):
    """A candidate: simulated chances, and only third claims (承包 pairs) weighed as feeds."""

    name = "expert-simulating-pairs"
    rollouts = 64
    feed_ordinary = False


class ClaimAwareExpert(ExpertBot):
    """A candidate: ``expert`` whose planner counts claims (``Planner(claims=True)``)."""

    name = "expert-claim-aware"
    planner_claims = frozenset({"jiaxing", "wenling"})


class StrongPlayExpert(ExpertBot):
    """``expert`` with ``jiaxing_strong_play``: in Jiaxing it plays as ``StrongSantan`` does."""

    name = "expert-strong-play"
    jiaxing_strong_play = True
