"""Tile efficiency helpers: distances per target, acceptance, second ply, completion odds."""

from __future__ import annotations

import gc
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baida.bots import efficiency
from baida.bots.bounded import BoundedTable
from baida.bots.efficiency import (
    Target,
    acceptance,
    best_next_acceptance,
    completion_probability,
    discard_options,
    distance,
)
from baida.evaluator import pattern_shanten, shanten, triplet_shanten
from baida.tiles import counts34, parse_tiles

FULL_LIVE = [4] * 34


def hand(text: str) -> tuple[list[int], int]:
    tiles = parse_tiles(text)
    return counts34(tiles), sum(1 for t in tiles if t == 42)


def live_after(counts: list[int]) -> list[int]:
    return [4 - c for c in counts]


@st.composite
def random_hands(draw: st.DrawFn, size: int = 13) -> tuple[list[int], int, int]:
    rng = random.Random(draw(st.integers(0, 10**9)))
    wall = [k for k in range(34) for _ in range(4)]
    rng.shuffle(wall)
    wilds = draw(st.integers(0, 3))
    melds = draw(st.integers(0, 2))
    tiles = wall[: size - wilds - 3 * melds]
    return counts34(tiles), wilds, 4 - melds


@settings(max_examples=150, deadline=None)
@given(random_hands())
def test_distances_agree_with_the_evaluator(sample: tuple[list[int], int, int]) -> None:
    counts, wilds, sets = sample
    assert distance(counts, wilds, sets, Target("any")) == shanten(counts, wilds, sets)
    for suit in range(3):
        for kind in ("qingyise", "hunyise"):
            assert distance(counts, wilds, sets, Target(kind, suit)) == pattern_shanten(
                counts, wilds, sets, kind, suit
            )
    assert distance(counts, wilds, sets, Target("duiduihe")) == pattern_shanten(
        counts, wilds, sets, "duiduihe"
    )
    assert distance(counts, wilds, sets, Target("quanlaotou")) == pattern_shanten(
        counts, wilds, sets, "quanlaotou"
    )
    for suit in range(3):  # a pattern with 对对和: the triplets of the kinds it may hold
        own = bytes(counts[9 * suit : 9 * suit + 9])
        assert distance(counts, wilds, sets, Target("qingyise", suit, triplets=True)) == (
            triplet_shanten(own, wilds, sets)
        )
        assert distance(counts, wilds, sets, Target("hunyise", suit, triplets=True)) == (
            triplet_shanten(own + bytes(counts[27:34]), wilds, sets)
        )


def test_the_tables_hold_nothing_the_garbage_collector_walks() -> None:
    counts, wilds = hand("1112345678999m*")
    counts[0] -= 1  # 13 tiles with the wild
    live = live_after(counts)
    for target in ALL_TARGETS:
        acceptance(counts, wilds, 4, target, live, 3)
        best_next_acceptance(counts, wilds, 4, target, live, 3)
    # a pass stops tracking a tuple whose items are untracked: the second pass, a row's tuple of
    # two tuples
    gc.collect()
    gc.collect()
    tables = (efficiency._ROWS, efficiency._SUIT, efficiency._MIXED, efficiency._HONOURS,
              efficiency._TRIPLETS)
    assert all(t.table for t in tables)
    for table in tables:
        assert not any(gc.is_tracked(k) or gc.is_tracked(v) for k, v in table.table.items())


def test_a_bounded_table_empties_when_full() -> None:
    table: BoundedTable[bytes, int] = BoundedTable(2)
    assert table.put(b"a", 1) == 1 and table.put(b"b", 2) == 2
    assert table.put(b"c", 3) == 3
    assert table.table == {b"c": 3}


@settings(max_examples=100, deadline=None)
@given(random_hands())
def test_combined_targets_are_never_nearer_than_their_parts(
    sample: tuple[list[int], int, int],
) -> None:
    counts, wilds, sets = sample
    ddh = distance(counts, wilds, sets, Target("duiduihe"))
    for suit in range(3):
        hys = distance(counts, wilds, sets, Target("hunyise", suit))
        qys = distance(counts, wilds, sets, Target("qingyise", suit))
        hys_ddh = distance(counts, wilds, sets, Target("hunyise", suit, triplets=True))
        qys_ddh = distance(counts, wilds, sets, Target("qingyise", suit, triplets=True))
        assert hys <= qys
        assert hys_ddh >= max(hys, ddh)
        assert qys_ddh >= max(qys, ddh, hys_ddh)


def test_acceptance_of_a_ready_hand_counts_live_waits_and_wilds() -> None:
    counts, wilds = hand("123m456m789m11p23s")
    d, u, kinds = acceptance(counts, wilds, 4, Target("any"), live_after(counts), 3)
    assert d == 0
    assert sorted(kinds) == parse_tiles("1s4s")
    assert u == 4 + 4 + 3  # both sides fully live, plus three live wilds
    # what this seat has seen is not live any more
    live = live_after(counts)
    live[parse_tiles("4s")[0]] = 1
    assert acceptance(counts, wilds, 4, Target("any"), live, 0)[1] == 5


def test_acceptance_toward_a_pattern_ignores_other_suits() -> None:
    counts, wilds = hand("1235m789m1p EE C")
    target = Target("hunyise", 0)
    d, u, kinds = acceptance(counts, wilds, 4, target, live_after(counts), 0)
    assert d == pattern_shanten(counts, wilds, 4, "hunyise", 0)
    assert all(k < 9 or k >= 27 for k in kinds)
    assert u == sum(4 - counts[k] for k in kinds)


def test_complete_hand_has_no_acceptance() -> None:
    counts, wilds = hand("123m456m789m11p234s")
    assert acceptance(counts, wilds, 4, Target("any"), FULL_LIVE, 3)[:2] == (-1, 0)


def test_discard_options_find_the_useless_tile() -> None:
    counts, wilds = hand("123m456m789m11p23s9p")
    options = discard_options(counts, wilds, 4, Target("any"), live_after(counts), 3)
    best = min(options, key=lambda o: (o.distance, -o.ukeire))
    assert best.tile == parse_tiles("9p")[0]
    assert best.distance == 0
    assert counts == hand("123m456m789m11p23s9p")[0]  # restored


def test_wild_discard_is_offered_only_when_asked() -> None:
    counts, wilds = hand("123m456m789m11p2s*")
    plain = discard_options(counts, wilds, 4, Target("any"), FULL_LIVE, 2)
    assert all(o.tile >= 0 for o in plain)
    with_wild = discard_options(counts, wilds, 4, Target("any"), FULL_LIVE, 2, allow_wild=True)
    assert any(o.tile == -1 for o in with_wild)


def test_second_ply_is_positive_when_one_step_from_ready() -> None:
    counts, wilds = hand("123m456m78m11p23s9s")
    assert shanten(counts, wilds, 4) == 1
    live = live_after(counts)
    second = best_next_acceptance(counts, wilds, 4, Target("any"), live, 0)
    assert second > 0
    ready, wilds = hand("123m456m789m11p23s")
    assert best_next_acceptance(ready, wilds, 4, Target("any"), live_after(ready), 0) == 0


def test_completion_probability() -> None:
    assert completion_probability([], 5) == 1.0
    assert completion_probability([0.5], 0) == 0.0
    assert completion_probability([0.1], 3) == pytest.approx(1 - 0.9**3)
    two = completion_probability([0.5, 0.5], 2)
    assert two == pytest.approx(0.25)
    # more draws never hurt; a harder stage never helps
    assert completion_probability([0.2, 0.1], 10) < completion_probability([0.2, 0.1], 11)
    assert completion_probability([0.2, 0.05], 10) < completion_probability([0.2, 0.1], 10)


ALL_TARGETS = [Target("any"), Target("duiduihe"), Target("quanlaotou")] + [
    Target(kind, suit, triplets)
    for kind in ("qingyise", "hunyise")
    for suit in range(3)
    for triplets in (False, True)
]


def _reference_acceptance(counts, wilds, sets, target, live, live_wilds):
    """Acceptance asked one drawn kind at a time through ``distance``."""
    base = distance(counts, wilds, sets, target)
    if base < 0:
        return base, 0, []
    kinds = []
    for k in target.kinds():
        if live[k] > 0:
            drawn = list(counts)
            drawn[k] += 1
            if distance(drawn, wilds, sets, target) < base:
                kinds.append(k)
    return base, sum(live[k] for k in kinds) + live_wilds, kinds


def _reference_next(counts, wilds, sets, target, live, live_wilds, limit=6):
    base, _, kinds = _reference_acceptance(counts, wilds, sets, target, live, live_wilds)
    if base <= 0 or not kinds:
        return 0.0
    kinds.sort(key=lambda k: -live[k])
    acc = weight = 0.0
    for k in kinds[:limit]:
        best = 0
        for j in target.kinds():
            after = list(counts)
            after[k] += 1
            if after[j] == 0:
                continue
            after[j] -= 1
            d = distance(after, wilds, sets, target)
            if d < base:
                again = _reference_acceptance(after, wilds, sets, target, live, live_wilds)
                best = max(best, again[1])
        acc += live[k] * best
        weight += live[k]
    return acc / weight


@settings(max_examples=60, deadline=None)
@given(random_hands(), st.integers(0, 10**9))
def test_batched_acceptance_matches_one_kind_at_a_time(
    sample: tuple[list[int], int, int], seed: int
) -> None:
    counts, wilds, sets = sample
    rng = random.Random(seed)
    live = [max(0, 4 - c - rng.choice((0, 0, 1, 2, 4))) for c in counts]
    live_wilds = rng.randint(0, 3)
    for target in ALL_TARGETS:
        got = acceptance(list(counts), wilds, sets, target, live, live_wilds)
        assert got == _reference_acceptance(counts, wilds, sets, target, live, live_wilds), target
        work = list(counts)
        assert best_next_acceptance(work, wilds, sets, target, live, live_wilds) == pytest.approx(
            _reference_next(counts, wilds, sets, target, live, live_wilds)
        ), target
        assert work == counts  # restored

