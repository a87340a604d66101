"""The planner's claim-aware steps (``Planner(claims=True)``): which improving tiles a claim
can also bring, checked against a reference that enumerates the runs, and what it changes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from baida.bots.arena import engine_seed
from baida.bots.efficiency import Target, acceptance
from baida.bots.features import Seen, read_view
from baida.bots.planner import (
    CHI_WEIGHT,
    DISCARD_RATIOS,
    PON_WEIGHT,
    Planner,
    discard_weight,
)
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


def test_discard_weight_reads_the_measured_table_by_category_and_copies_seen() -> None:
    cases = {"E": "honour", "C": "honour", "1m": "terminal", "9p": "terminal", "2s": "two",
             "8m": "two", "3p": "three", "7s": "three", "4m": "middle", "5p": "middle",
             "6s": "middle"}
    for face, category in cases.items():
        kind = parse_tiles(face)[0]
        for seen_copies in range(4):
            assert discard_weight(kind, seen_copies) == DISCARD_RATIOS[category][seen_copies]
        assert discard_weight(kind, 7) == DISCARD_RATIOS[category][3]


def test_weighted_waits_weigh_a_ready_hand_by_what_the_others_discard() -> None:
    seen = _seen("wenling")
    hand = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p"
    draws = 8
    checked = 0
    for single in ("E", "5s"):
        counts = counts34(parse_tiles(f"{hand} {single}"))
        kind = parse_tiles(single)[0]
        if seen.live[kind] == 0 or kind in seen.wild_faces | seen.special_faces:
            continue
        flat = Planner(seen).waiting_plans(list(counts), 0, [], draws)
        weighted_planner = Planner(seen, weighted_waits=True)
        weighted = weighted_planner.waiting_plans(list(counts), 0, [], draws)
        ready = [p for p in weighted if p.distance == 0]
        assert ready
        checked += 1
        for p in ready:
            _, u, kinds = acceptance(list(counts), 0, 5, p.target, seen.live, seen.live_wilds)
            assert kind in kinds
            weight = sum(seen.live[k] * discard_weight(k, seen.visible[k]) for k in kinds)
            assert weighted_planner.discarded_waits(kinds) == weight
            assert p.probability == weighted_planner.probability(0, u, draws, discarded=weight)
        # further from ready nothing changes
        by_target = {p.target: p for p in flat}
        for p in weighted:
            if p.distance > 0:
                assert p == by_target[p.target]
    assert checked  # the seed's wilds and specials left at least one single wait to test


def test_more_discarded_waits_finish_more_often_and_jiaxing_ignores_the_option() -> None:
    planner = Planner(_seen("wenling"), weighted_waits=True)
    chances = [planner.probability(0, 4, 6, discarded=w) for w in (0.0, 4.0, 12.0, 40.0)]
    assert chances == sorted(chances) and chances[0] < chances[-1]
    jiaxing = _seen()
    counts = counts34(parse_tiles("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p E"))
    assert not Planner(jiaxing, weighted_waits=True).weighted_waits
    assert Planner(jiaxing, weighted_waits=True).waiting_plans(list(counts), 0, [], 8) == (
        Planner(jiaxing).waiting_plans(list(counts), 0, [], 8)
    )


def test_the_discard_tally_counts_the_others_discards_until_the_seat_decides_again() -> None:
    from collections import defaultdict

    from bench.calibrate_opponents import tally_discards

    east, five_m = parse_tiles("E")[0], parse_tiles("5m")[0]
    live, visible = [0] * 34, [0] * 34
    live[east], visible[east] = 2, 1
    live[five_m] = 3
    log = [
        ("decide", 0, live, visible, 10, 60),  # the first third of the wall: left out
        ("discard", 0, east),
        ("decide", 0, live, visible, 10, 30),
        ("discard", 1, east),
        ("discard", 0, east),  # this seat's own discard does not count
        ("decide", 2, [0] * 34, [0] * 34, 10, 29),
        ("discard", 2, five_m),
        ("discard", 3, east),
        ("decide", 0, [0] * 34, visible, 10, 27),  # the seat decides again: stop
        ("discard", 1, five_m),
    ]
    discarded: dict = defaultdict(float)
    expected: dict = defaultdict(float)
    tally_discards(log, discarded, expected)
    assert dict(discarded) == {("honour", 1): 2, ("middle", 0): 1}
    assert dict(expected) == {("honour", 1): 2 / 10, ("middle", 0): 3 / 10}
