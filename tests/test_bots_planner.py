"""The planner's claim-aware steps (``Planner(claims=True)``): which improving tiles a claim
can also bring, checked against a reference that enumerates the runs, and what it changes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from baida.bots.arena import engine_seed
from baida.bots.efficiency import Target, acceptance
from baida.bots.features import Seen, read_view
from baida.bots.planner import CHI_WEIGHT, PON_WEIGHT, Planner
from baida.engine import Round
from baida.tiles import counts34, parse_tiles


def _seen(ruleset: str = "jiaxing", **options: object) -> Seen:
    view = Round.from_seed(ruleset, engine_seed(3)).view(0).to_json()
    view["options"] = {**view.get("options", {}), **options}
    return read_view(view)


def _reference_extra(seen: Seen, counts: list[int], target: Target, kinds: list[int]) -> float:
    """Per improving kind: 碰 needs two held; 吃 needs a run k-2..k, k-1..k+1 or k..k+2 of one
    suit whose two other tiles are held (and 吃 allowed, and a target with runs)."""
    chi_ok = seen.options.get("allow_chi", True) and not target.triplets
    chi_ok = chi_ok and target.kind != "duiduihe"
    extra = 0.0
    for k in kinds:
        weight = PON_WEIGHT if counts[k] >= 2 else 0.0
        if chi_ok and k < 27:
            suit, pos = divmod(k, 9)
            for start in range(pos - 2, pos + 1):
                run = [9 * suit + start + j for j in range(3)] if 0 <= start <= 6 else []
                if run and all(counts[t] >= 1 for t in run if t != k):
                    weight += CHI_WEIGHT
                    break
        extra += seen.live[k] * weight
    return extra


hands = st.lists(st.integers(0, 33), min_size=13, max_size=13).filter(
    lambda ks: all(ks.count(k) <= 4 for k in ks)
)
targets = st.sampled_from(
    [Target("any"), Target("duiduihe"), Target("hunyise", 1), Target("qingyise", 0, True)]
)


@settings(max_examples=150, deadline=None)
@given(hands, targets, st.booleans())
def test_claimable_agrees_with_the_run_enumeration(
    kinds_held: list[int], target: Target, allow_chi: bool
) -> None:
    seen = _seen(allow_chi=allow_chi)
    counts = [0] * 34
    for k in kinds_held:
        counts[k] += 1
    planner = Planner(seen, claims=True)
    _, _, kinds = acceptance(counts, 0, 4, target, seen.live, seen.live_wilds)
    assert planner.claimable(counts, target, kinds) == _reference_extra(
        seen, counts, target, kinds
    )


def test_claims_raise_the_chance_of_a_step_but_not_of_the_last_tile() -> None:
    seen = _seen()
    one_away = counts34(parse_tiles("1m 1m 5m 5m 2p 3p 4p 6s 7s 8s E E 9p"))
    ready = counts34(parse_tiles("1m 1m 1m 2m 3m 4m 6m 7m 8m 9m 9m E E"))
    draws = 10
    plain = Planner(seen).waiting_plans(list(one_away), 0, [], draws)
    claiming = Planner(seen, claims=True).waiting_plans(list(one_away), 0, [], draws)
    by_target = {p.target: p for p in plain}
    raised = [p for p in claiming if p.target in by_target and p.distance > 0]
    assert raised
    for p in raised:
        assert p.ukeire >= by_target[p.target].ukeire
        assert p.probability >= by_target[p.target].probability
    assert any(p.ukeire > by_target[p.target].ukeire for p in raised)
    ready_plain = {p.target: p for p in Planner(seen).waiting_plans(list(ready), 0, [], draws)}
    ready_claiming = Planner(seen, claims=True).waiting_plans(list(ready), 0, [], draws)
    waits = [p for p in ready_claiming if p.distance == 0]
    assert waits  # ready for 混一色 (9m or E): the last tile is self-drawn only
    for p in waits:
        assert p == ready_plain[p.target]
