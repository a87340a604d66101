"""Waits and readiness against brute force: every face of every wild, every split, every
discard and every draw, with kinds out of reach (held four times, or four ``visible``).

The evaluator answers these from per-part tables (``waitrows``: one row of win tests per part;
``live``: a second distance vector with a live missing tile); the references here know none
of that: they add each tile, try each face, and split the result every way.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from baida.evaluator import is_complete, shanten, waits
from baida.evaluator.core import _distance_vector

SEQUENCES = [("seq", s * 9 + r) for s in range(3) for r in range(7)]
SETS = SEQUENCES + [("triplet", k) for k in range(34)]


@cache
def _splits(counts: tuple[int, ...], pair_open: bool) -> bool:
    """Whether ``counts`` splits into sets, plus one pair if ``pair_open``, in some way."""
    first = next((k for k, c in enumerate(counts) if c), None)
    if first is None:
        return not pair_open
    work = list(counts)
    options = []
    if work[first] >= 3:
        options.append(((first,) * 3, pair_open))
    if pair_open and work[first] >= 2:
        options.append(((first,) * 2, False))
    if first < 27 and first % 9 <= 6 and work[first + 1] and work[first + 2]:
        options.append(((first, first + 1, first + 2), pair_open))
    for used, still_open in options:
        rest = list(work)
        for t in used:
            rest[t] -= 1
        if _splits(tuple(rest), still_open):
            return True
    return False


def complete(counts: list[int], wilds: int) -> bool:
    """Every face of every wild (a fifth copy allowed), every split."""
    return any(
        _splits(tuple(c + faces.count(k) for k, c in enumerate(counts)), True)
        for faces in product(range(34), repeat=wilds)
    )


def live_waits(counts: list[int], wilds: int, out_of_reach: set[int]) -> list[int]:
    """The kinds that complete the hand when drawn, none held four times or out of reach."""
    found = []
    for kind in range(34):
        if counts[kind] >= 4 or kind in out_of_reach:
            continue
        counts[kind] += 1
        if complete(counts, wilds):
            found.append(kind)
        counts[kind] -= 1
    return found


def ready(counts: list[int], wilds: int, sets: int, out_of_reach: set[int]) -> bool:
    """A live wait now (one tile short), or after some discard, a wild's included (a tile
    over); the kinds the hand holds four times before the discard stay out of reach."""
    if sum(counts) + wilds == 3 * sets + 1:
        return bool(live_waits(counts, wilds, out_of_reach))
    gone = out_of_reach | {k for k in range(34) if counts[k] >= 4}
    for kind in range(34):
        if counts[kind]:
            counts[kind] -= 1
            found = live_waits(counts, wilds, gone)
            counts[kind] += 1
            if found:
                return True
    return wilds > 0 and bool(live_waits(counts, wilds - 1, gone))


@st.composite
def near_ready(draw, max_wilds: int = 1):
    """A complete hand of 1-5 sets less one tile (and, half the time, plus one), often holding
    a kind four times, some tiles wild, and some kinds out of reach."""
    sets = draw(st.integers(1, 5))
    tiles: list[int] = []
    if draw(st.booleans()):  # a quad: a triplet and a sequence or pair through the same kind
        kind = draw(st.integers(0, 26))
        tiles += [kind] * 3
        start = kind - draw(st.integers(0, 2)) if kind % 9 >= 2 else kind - kind % 9
        tiles += [start, start + 1, start + 2] if start % 9 <= 6 else [kind] * 2
    while len(tiles) < 3 * sets:
        shape, tile = draw(st.sampled_from(SETS))
        tiles += [tile, tile + 1, tile + 2] if shape == "seq" else [tile] * 3
    tiles = tiles[: 3 * sets]
    pair = draw(st.integers(0, 33))
    tiles += [pair, pair]
    tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    if draw(st.booleans()):
        tiles.append(draw(st.integers(0, 33)))
    counts = [tiles.count(k) for k in range(34)]
    assume(max(counts) <= 4)
    wilds = draw(st.integers(0, max_wilds))
    for kind in draw(st.permutations([k for k in range(34) if counts[k]]))[:wilds]:
        counts[kind] -= 1
    # kinds out of reach: some or all of the hand's waits (after any discard), or its neighbours
    held = [out for out in range(34) if counts[out]]
    shaped = {k for k in range(34) for out in held if _waits_on(counts, out, k)}
    near = sorted({k + d for k in range(34) if counts[k] for d in range(-2, 3) if 0 <= k + d < 34})
    if shaped and draw(st.booleans()):
        out_of_reach = set(shaped) if draw(st.booleans()) else set(
            draw(st.lists(st.sampled_from(sorted(shaped)), max_size=3)))
    else:
        out_of_reach = set(draw(st.lists(st.sampled_from(near), max_size=4)))
    return counts, wilds, sets, out_of_reach


def _waits_on(counts: list[int], out: int, kind: int) -> bool:
    """Whether the hand without one ``out`` (a tile over) or as it is waits on ``kind`` by
    shape; counted on naturals only, wilds left out, so a cheap hint for the strategy."""
    work = list(counts)
    work[kind] += 1
    if sum(counts) % 3 == 2:
        work[out] -= 1
    return _splits(tuple(work), True)


def _visible(counts: list[int], out_of_reach: set[int]) -> list[int]:
    return [4 if k in out_of_reach else c for k, c in enumerate(counts)]


@settings(max_examples=examples(200), deadline=None)
@given(near_ready())
def test_waits_are_the_live_kinds_that_complete_the_hand(case):
    counts, wilds, sets, out_of_reach = case
    assume(sum(counts) + wilds == 3 * sets + 1)  # one tile short, the size ``waits`` is for
    assert waits(counts, wilds) == live_waits(counts, wilds, set())
    visible = _visible(counts, out_of_reach)
    assert waits(counts, wilds, visible) == live_waits(counts, wilds, out_of_reach)


@settings(max_examples=examples(100), deadline=None)
@given(near_ready(max_wilds=3), st.sampled_from([0, 3, 6, 9]))
def test_waits_with_more_wilds_are_the_win_tests_of_each_draw(case, more):
    """Waits from the part rows give the 34 win tests' answers, however many wilds (three
    more are a set more; the win test itself is checked against every face in
    ``test_evaluator``)."""
    counts, wilds, sets, _ = case
    assume(sum(counts) + wilds == 3 * sets + 1)
    wilds += more
    expected = [k for k in range(34) if counts[k] < 4
                and is_complete([c + (i == k) for i, c in enumerate(counts)], wilds)]
    assert waits(counts, wilds) == expected


@settings(max_examples=examples(150), deadline=None)
@given(near_ready())
def test_ready_by_shape_is_ready_exactly_when_a_live_wait_exists(case):
    counts, wilds, sets, out_of_reach = case
    shape = _distance_vector(counts)[2 * sets + 1] - wilds - 1
    assume(shape == 0)
    visible = _visible(counts, out_of_reach)
    expected = ready(counts, wilds, sets, out_of_reach)
    event("ready" if expected else "every wait out of reach")
    assert (shanten(counts, wilds, sets, visible) == 0) == expected
    if wilds or counts.count(4) < 2:  # two quads without wilds: the capped count (test_evaluator)
        assert shanten(counts, wilds, sets) == (0 if ready(counts, wilds, sets, set()) else 1)
    else:
        assert (shanten(counts, wilds, sets) == 0) == ready(counts, wilds, sets, set())
