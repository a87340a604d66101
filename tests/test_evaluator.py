"""The hand evaluator against small, obviously correct references.

References used here: a plain recursive decomposition (naturals only) tried with every wild
face, and, for shanten without wilds, the independent ``mahjong`` package.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from baida.evaluator import (
    held_copies,
    is_complete,
    pattern_shanten,
    readings,
    shanten,
    shanten_after_each,
    triplet_shanten,
    waits,
    wild_faces_of,
)
from baida.evaluator.capped import capped_shanten
from baida.tiles import WILD, counts34, parse_tiles

# --- references ---------------------------------------------------------------------------


@cache
def _decompositions(counts: tuple[int, ...], pair_open: bool) -> frozenset[tuple]:
    """Every split of ``counts`` into sets (+ one pair if ``pair_open``), as sorted tuples."""
    first = next((k for k, c in enumerate(counts) if c), None)
    if first is None:
        return frozenset({()}) if not pair_open else frozenset()
    out = set()
    work = list(counts)
    options = []
    if work[first] >= 3:
        options.append((("triplet", first), (first,) * 3))
    if pair_open and work[first] >= 2:
        options.append((("pair", first), (first,) * 2))
    if first < 27 and first % 9 <= 6 and work[first + 1] and work[first + 2]:
        options.append((("seq", first), (first, first + 1, first + 2)))
    for group, used in options:
        for t in used:
            work[t] -= 1
        rest = _decompositions(tuple(work), pair_open and group[0] != "pair")
        out.update(tuple(sorted((group,) + r)) for r in rest)
        for t in used:
            work[t] += 1
    return frozenset(out)


def ref_splits(counts: list[int], wilds: int) -> set[tuple]:
    """Every reading as a multiset of groups, trying every face for every wild."""
    found: set[tuple] = set()
    for faces in product(range(34), repeat=wilds):
        work = list(counts)
        for f in faces:
            work[f] += 1
        found |= _decompositions(tuple(work), True)
    return found


def ref_complete(counts: list[int], wilds: int) -> bool:
    return bool(ref_splits(counts, wilds))


# --- strategies ---------------------------------------------------------------------------

SEQUENCES = [("seq", s * 9 + r) for s in range(3) for r in range(7)]
SETS = SEQUENCES + [("triplet", k) for k in range(34)]


@st.composite
def winning_hands(draw, sets: int = 4, max_wilds: int = 2):
    """A complete concealed part built from random sets and a pair, some tiles made wild."""
    tiles: list[int] = []
    for _ in range(sets):
        shape, tile = draw(st.sampled_from(SETS))
        tiles += [tile, tile + 1, tile + 2] if shape == "seq" else [tile] * 3
    pair = draw(st.integers(0, 33))
    tiles += [pair, pair]
    wilds = draw(st.integers(0, max_wilds))
    positions = draw(st.permutations(range(len(tiles))))[:wilds]
    naturals = [t for i, t in enumerate(tiles) if i not in positions]
    return counts34(naturals), wilds


@st.composite
def random_hands(draw, size: int, max_wilds: int = 1):
    wilds = draw(st.integers(0, max_wilds))
    kinds = draw(st.lists(st.integers(0, 33), min_size=size - wilds, max_size=size - wilds))
    counts = counts34(kinds)
    assume(max(counts) <= 4)
    return counts, wilds


@st.composite
def hands_holding_four(draw, max_wilds: int = 1, fours: int = 1, size: int = 13):
    """``size`` tiles around ``fours`` kinds held four times (so that dead waits are common)."""
    held = draw(st.lists(st.integers(0, 33), min_size=fours, max_size=fours, unique=True))
    tiles = [kind for kind in held for _ in range(4)]
    while len(tiles) < size:
        shape, tile = draw(st.sampled_from(SETS))
        group = [tile, tile + 1, tile + 2] if shape == "seq" else [tile] * 3
        if len(tiles) + 3 > size:
            group = [draw(st.integers(0, 33))]
        tiles += group
    counts = counts34(tiles)
    assume(max(counts) <= 4)
    wilds = draw(st.integers(0, max_wilds))
    spare = [k for k in range(34) if counts[k] and k not in held]
    for kind in draw(st.permutations(spare))[:wilds]:
        counts[kind] -= 1
    return counts, wilds


def several_fours(max_wilds: int = 0):
    """Hands of 13 or 14 tiles holding two or three kinds four times."""
    return st.one_of(
        *(hands_holding_four(max_wilds, fours, size) for fours in (2, 3) for size in (13, 14))
    )


# --- tests -------------------------------------------------------------------------------


def hand(text: str) -> tuple[list[int], int]:
    tiles = parse_tiles(text)
    return counts34(tiles), tiles.count(WILD)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m456m789m234m55m", True),
        ("123m456m789m234m5m*", True),
        ("FFF123s45s*NN", True),
        ("11122233344455m", True),
        ("123m456m789m11p2p3p5s", False),
        ("1m4m7m1p4p7p1s4s7sESWNC", False),
        ("********ESWNCF", False),
        ("***ESWNCFP11m222p", False),
        ("***111m222p333s44s", True),
    ],
)
def test_known_hands(text, expected):
    counts, wilds = hand(text)
    assert is_complete(counts, wilds) is expected
    assert (shanten(counts, wilds, (sum(counts) + wilds - 2) // 3) == -1) is expected


@settings(max_examples=examples(300), deadline=None)
@given(winning_hands())
def test_constructed_winning_hands_are_complete(case):
    counts, wilds = case
    assert is_complete(counts, wilds)
    assert shanten(counts, wilds, 4) == -1


@settings(max_examples=examples(300), deadline=None)
@given(random_hands(14, max_wilds=2))
def test_win_test_matches_every_face_reference(case):
    counts, wilds = case
    assert is_complete(counts, wilds) == ref_complete(counts, wilds)


@settings(max_examples=examples(150), deadline=None)
@given(st.one_of(winning_hands(max_wilds=2), random_hands(14, max_wilds=2)))
def test_readings_are_exactly_every_split(case):
    counts, wilds = case
    ours = set()
    for reading in readings(counts, wilds):
        assert len(wild_faces_of(reading)) == wilds
        ours.add(tuple(sorted((g.shape, g.tile) for g in reading)))
        substituted = counts34(t for g in reading for t in g.tiles)
        natural_plus_faces = list(counts)
        for f in wild_faces_of(reading):
            natural_plus_faces[f] += 1
        assert substituted == natural_plus_faces
    assert ours == ref_splits(counts, wilds)


def test_readings_restricted_faces():
    counts, wilds = hand("123m456m789m234m5m*")
    every = list(readings(counts, wilds))
    assert {tuple(wild_faces_of(r)) for r in every} == {(1,), (4,)}
    no_five = list(readings(counts, wilds, faces=frozenset(range(34)) - {4}))
    assert {tuple(wild_faces_of(r)) for r in no_five} == {(1,)}


def test_pure_wild_groups_take_every_face():
    counts, wilds = hand("123m456m789m11p***")
    faces = {tuple(wild_faces_of(r)) for r in readings(counts, wilds)}
    # a pure-wild set: any triplet (34) or any sequence (21); the 11p pair can also be a set
    assert (27, 27, 27) in faces and (0, 1, 2) in faces
    assert len(faces) >= 55


@settings(max_examples=examples(200), deadline=None)
@given(random_hands(13, max_wilds=2))
def test_waits_match_reference(case):
    counts, wilds = case
    expected = []
    for kind in range(34):
        if counts[kind] == 4:
            continue  # the hand holds all four: no fifth can come
        counts[kind] += 1
        if ref_complete(counts, wilds) if wilds < 2 else is_complete(counts, wilds):
            expected.append(kind)
        counts[kind] -= 1
    assert waits(counts, wilds) == expected
    assert (shanten(counts, wilds, 4) == 0) == bool(expected)


mahjong_shanten = pytest.importorskip("mahjong.shanten")


@settings(max_examples=examples(400), deadline=None)
@given(random_hands(13, max_wilds=0))
def test_shanten_without_wilds_matches_mahjong_package(case):
    counts, _ = case
    reference = mahjong_shanten.Shanten().calculate_shanten_for_regular_hand(counts)
    assert shanten(counts, 0, 4) == reference


def test_two_kinds_held_four_times_count_the_fifth_copy_on_the_route():
    # the shape is one exchange from ready, but every such exchange waits on a fifth 1m or 4m
    counts, _ = hand("1111m4444m678m12p")
    assert not any(  # no exchange makes it ready with a live wait, so it is 2 from ready
        shanten(_exchanged(counts, out, draw), 0, 4) == 0
        for out in range(34)
        if counts[out]
        for draw in range(34)
        if counts[draw] < 4 and draw != out
    )
    assert mahjong_shanten.Shanten().calculate_shanten_for_regular_hand(counts) == 2
    assert shanten(counts, 0, 4) == 2


@settings(max_examples=examples(100), deadline=None)
@given(random_hands(13, max_wilds=2))
def test_a_wild_is_the_best_face(case):
    counts, wilds = case
    if wilds == 0:
        return
    best = 99
    for face in range(34):
        counts[face] += 1
        best = min(best, shanten(counts, wilds - 1, 4))
        counts[face] -= 1
    assert shanten(counts, wilds, 4) == best


def test_wenling_sizes():
    counts, wilds = hand("123m456m789m123p456p7p*")  # 17 tiles, 5 sets + pair
    assert is_complete(counts, wilds)
    assert shanten(counts, wilds, 5) == -1
    counts, wilds = hand("123m456m789m123p456p7p")
    assert shanten(counts, wilds, 5) == 0


def test_pattern_shanten():
    counts, wilds = hand("123m456m789m1p2p3s4sE")
    best_suit = pattern_shanten(counts, wilds, 4, "qingyise")
    assert best_suit == pattern_shanten(counts, 0, 4, "qingyise", 0)
    assert pattern_shanten(counts, wilds, 4, "qingyise", 0) == 4  # 3 m sets: a set and a pair to go
    counts, wilds = hand("EEESSSWWWCCF*")
    assert pattern_shanten(counts, wilds, 4, "quanlaotou") == 0
    assert pattern_shanten(counts, wilds, 4, "duiduihe") == 0
    counts, wilds = hand("123m456m789m123p4p")
    assert pattern_shanten(counts, wilds, 4, "duiduihe") >= 3
    with pytest.raises(ValueError, match="unknown pattern"):
        pattern_shanten(counts, 0, 4, "qiduizi")


@settings(max_examples=examples(100), deadline=None)
@given(st.one_of(random_hands(13, max_wilds=1), several_fours()),
       st.sampled_from(["qingyise", "hunyise", "quanlaotou"]))
def test_pattern_shanten_is_shanten_of_the_kept_tiles(case, pattern):
    counts, wilds = case
    for suit in range(3):
        if pattern == "quanlaotou" and suit:
            break
        kept = [
            c
            if (k >= 27 and pattern != "qingyise") or (k // 9 == suit and pattern != "quanlaotou")
            else 0
            for k, c in enumerate(counts)
        ]
        chosen = None if pattern == "quanlaotou" else suit
        assert pattern_shanten(counts, wilds, 4, pattern, chosen) == shanten(kept, wilds, 4)


# --- waits are tiles that can still come (issue 10, fix 4) --------------------------------


def test_a_kind_held_four_times_is_no_wait():
    counts, _ = hand("1234446666m123p")  # 6m would be a 单吊 on a fifth 6m
    assert waits(counts) == [parse_tiles("5m")[0]]
    assert shanten(counts, 0, 4) == 0
    counts, _ = hand("456789m678p2222s")  # its only wait, 2s, is dead: not ready
    assert waits(counts) == []
    assert shanten(counts, 0, 4) == 1
    counts, _ = hand("456789m678p2222s3s")  # throw a 2s: waits on 3s
    assert shanten(counts, 0, 4) == 0


def test_visible_copies_are_not_waits():
    counts, _ = hand("123m456m789m123p5p")
    five_p = parse_tiles("5p")[0]
    assert waits(counts) == [five_p]
    seen = list(counts)
    seen[five_p] = 4  # e.g. a 碰 of 5p beside the one held, or 5p is the wild's face
    assert waits(counts, 0, seen) == []
    assert shanten(counts, 0, 4, seen) == 1
    assert held_copies(counts, [(five_p,) * 3]) == seen
    assert held_copies(counts, [], absent=[five_p]) == seen


@settings(max_examples=examples(300), deadline=None)
@given(hands_holding_four())
def test_ready_means_a_live_wait_and_a_dead_one_is_one_exchange_away(case):
    counts, wilds = case
    live = [k for k in range(34) if counts[k] < 4 and is_complete(
        [c + (k == i) for i, c in enumerate(counts)], wilds)]
    assert waits(counts, wilds) == live
    value = shanten(counts, wilds, 4)
    if live:
        assert value == 0
    elif value == 1 and _distance_without_dead_waits(counts, wilds) == 0:
        # every wait is dead: throwing one tile and drawing a live one makes it ready
        assert any(
            shanten(_exchanged(counts, out, draw), wilds, 4, _plus(counts, draw)) == 0
            for out in range(34) if counts[out]
            for draw in range(34) if counts[draw] < 4
        )


def _distance_without_dead_waits(counts: list[int], wilds: int, sets: int = 4) -> int:
    from baida.evaluator.core import _distance_vector

    return _distance_vector(counts)[2 * sets + 1] - wilds - 1


def _exchanged(counts: list[int], out: int, draw: int) -> list[int]:
    work = list(counts)
    work[out] -= 1
    work[draw] += 1
    return work


def _plus(counts: list[int], draw: int) -> list[int]:
    work = list(counts)
    work[draw] += 1
    return work


@settings(max_examples=examples(300), deadline=None)
@given(st.one_of(hands_holding_four(max_wilds=0), several_fours()))
def test_shanten_of_hands_holding_four_matches_mahjong_package(case):
    """The ``mahjong`` package does not count a fifth copy either, as a wait or on the way."""
    counts, _ = case
    reference = mahjong_shanten.Shanten().calculate_shanten_for_regular_hand(counts)
    assert shanten(counts, 0, 4) == reference


@settings(max_examples=examples(150), deadline=None)
@given(st.one_of(hands_holding_four(0, 2), hands_holding_four(0, 3)))
def test_one_from_ready_exactly_when_one_exchange_makes_it_ready(case):
    """Brute force at the boundary: draw any kind that can still come, throw any tile."""
    counts, _ = case
    value = shanten(counts, 0, 4)
    if value < 1:
        return
    reachable = any(
        shanten(_exchanged(counts, out, draw), 0, 4, _plus(counts, draw)) == 0
        for out in range(34) if counts[out]
        for draw in range(34) if counts[draw] < 4 and draw != out
    )
    assert reachable == (value == 1)


@settings(max_examples=examples(100), deadline=None)
@given(random_hands(16, max_wilds=0), random_hands(17, max_wilds=0))
def test_the_fifth_copy_rule_changes_nothing_below_two_fours(case16, case17):
    """Wenling's five sets: with at most one kind held four times, the capped count is the
    shape's (with a dead wait at distance 0 counted as one), as with four sets."""
    for (counts, _), sets in ((case16, 5), (case17, 5)):
        capped = capped_shanten(counts, sets)
        plain = shanten(counts, 0, sets)
        if counts.count(4) < 2:
            assert capped == plain
        assert capped >= _distance_without_dead_waits(counts, 0, sets)


# --- the bots' batch queries give the one-at-a-time answers ------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(
    st.one_of(random_hands(13, max_wilds=2), random_hands(14, max_wilds=2), hands_holding_four(),
              several_fours(max_wilds=1)),
    st.sampled_from([1, -1]),
)
def test_shanten_after_each_is_shanten_of_each_changed_hand(case, delta):
    counts, wilds = case
    for sets in (4, 5):
        kinds = [k for k in range(34) if counts[k] > 0] if delta < 0 else list(range(34))
        batch = shanten_after_each(counts, wilds, sets, kinds, delta)
        for kind, got in zip(kinds, batch, strict=True):
            changed = list(counts)
            changed[kind] += delta
            assert got == shanten(changed, wilds, sets), (kind, delta, sets)


def test_shanten_after_each_refuses_to_take_away_a_kind_not_held():
    counts, wilds = hand("123m456m789m1p2p3s4s")
    with pytest.raises(ValueError, match="kind 27 has no copy"):
        shanten_after_each(counts, wilds, 4, [27], delta=-1)
    with pytest.raises(ValueError, match="delta must be 1 or -1"):
        shanten_after_each(counts, wilds, 4, [0], delta=2)


def _ref_triplet_shanten(pool: list[int], wilds: int, sets: int) -> int:
    """Every choice of a pair kind and ``sets`` triplet kinds, absent kinds included."""
    padded = list(pool) + [0] * (sets + 1)
    best = None
    for pair in range(len(padded)):
        others = [c for k, c in enumerate(padded) if k != pair]
        for chosen in combinations(range(len(others)), sets):
            missing = (2 - min(padded[pair], 2)) + sum(3 - min(others[k], 3) for k in chosen)
            best = missing if best is None else min(best, missing)
    assert best is not None
    return best - wilds - 1


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=0, max_size=8),
    st.integers(0, 3),
    st.integers(0, 5),
)
def test_triplet_shanten_matches_every_choice_of_triplets_and_pair(pool, wilds, sets):
    assert triplet_shanten(pool, wilds, sets) == _ref_triplet_shanten(pool, wilds, sets)
    assert triplet_shanten(bytes(pool), wilds, sets) == _ref_triplet_shanten(pool, wilds, sets)
    counts = [0] * 34
    kinds = list(range(3, 3 + len(pool)))
    for kind, c in zip(kinds, pool, strict=True):
        counts[kind] = c
    assert triplet_shanten(counts, wilds, sets, kinds) == _ref_triplet_shanten(pool, wilds, sets)
