"""The numbers a learned value (``value_model``) reads about one discard.

Each discard is described as the hand it leaves (its best two waiting plans: distance, live
improving tiles, chance and worth), what ``expert`` makes of it (its value and the parts of
it), the tile thrown (honour, terminal, how many copies are seen, 生) and the table around it
(draws left, wilds, melds, the opponents' chances and the 三摊 counts). Every number comes
from the seat's own view, so a model that reads them is a player like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from .efficiency import Target
from .expert import ActionValue, ExpertBot, Table
from .planner import Plan

TARGET_KINDS = ("any", "qingyise", "hunyise", "duiduihe", "quanlaotou")
PLAN_FIELDS = ("distance", "ukeire", "probability", "value")

FEATURES: tuple[str, ...] = (
    "expert_value", "own", "feed", "deal_in",
    *(f"plan1_{f}" for f in PLAN_FIELDS),
    *(f"plan2_{f}" for f in PLAN_FIELDS),
    "plan2_present", "plans", "distance_over_nearest",
    *(f"target_{t}" for t in TARGET_KINDS), "target_triplets",
    "honour", "terminal", "seen_copies", "sheng",
    "wilds", "melds", "draws_left", "seat",
    "opp_win_max", "opp_win_sum", "opp_value_max", "opp_melds_max", "opp_fits",
    "opp_pair_threat", "own_pair_threat",
)


def _plan_row(plan: Plan | None) -> list[float]:
    if plan is None:
        return [0.0] * len(PLAN_FIELDS)
    return [float(plan.distance), float(plan.ukeire), plan.probability, plan.value]


def _target_row(target: Target | None) -> list[float]:
    row = [1.0 if target is not None and target.kind == t else 0.0 for t in TARGET_KINDS]
    row.append(1.0 if target is not None and target.triplets else 0.0)
    return row


def discard_features(table: Table, kind: int, plans: Sequence[Plan], valued: ActionValue,
                     nearest: int) -> list[float]:
    """``FEATURES`` of discarding natural ``kind`` (whose waiting plans are ``plans``, best
    first); ``nearest`` is the smallest distance any discard leaves."""
    seen = table.seen
    first = plans[0] if plans else None
    second = plans[1] if len(plans) > 1 else None
    distance = first.distance if first is not None else 99
    opps = table.opponents
    chances = [table.win_chance(o) for o in opps]
    parts = valued.parts
    return [
        valued.value, parts.get("own", 0.0), parts.get("feed", 0.0), parts.get("deal_in", 0.0),
        *_plan_row(first), *_plan_row(second),
        1.0 if second is not None else 0.0, float(len(plans)), float(min(distance - nearest, 3)),
        *_target_row(first.target if first is not None else None),
        1.0 if kind >= 27 else 0.0,
        1.0 if kind < 27 and kind % 9 in (0, 8) else 0.0,
        float(seen.visible[kind]),
        1.0 if kind not in seen.discarded_kinds else 0.0,
        float(seen.wilds), float(len(seen.melds)), float(table.draws), float(seen.seat),
        max(chances, default=0.0), sum(chances), max((o.value for o in opps), default=0.0),
        float(max((o.melds_count for o in opps), default=0)),
        float(sum(1 for o in opps if o.fits(kind))),
        1.0 if any(ExpertBot._makes_pair(seen, o.seat, seen.seat) for o in opps) else 0.0,
        1.0 if any(ExpertBot._makes_pair(seen, seen.seat, o.seat) for o in opps) else 0.0,
    ]
