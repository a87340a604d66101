"""Simulated futures of one hand: checked against the evaluator's waits and hand-made futures."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baida.bots.arena import BotTally, engine_seed, play_hand
from baida.bots.efficiency import Target, distance
from baida.bots.features import Seen, read_view
from baida.bots.simulation import WILD, Futures, finish_chance, race_hazard
from baida.engine import Round
from baida.evaluator import waits
from baida.tiles import counts34, parse_tiles

ANY = Target("any")


def hand(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def futures(*orders: tuple[int, ...], allow_chi: bool = True) -> Futures:
    return Futures(tuple(orders), draws=max(len(o) for o in orders) // 4 + 1, allow_chi=allow_chi)


def test_sample_is_four_tiles_a_draw_from_the_unseen_pool() -> None:
    live = [0] * 34
    live[0], live[5] = 3, 2
    f = Futures.sample(live, 1, draws=1, rollouts=20, rng=random.Random(7))
    assert len(f.orders) == 20
    for order in f.orders:
        assert len(order) == 4
        assert order.count(0) <= 3 and order.count(5) <= 2 and order.count(WILD) <= 1
        assert set(order) <= {0, 5, WILD}
    short = Futures.sample(live, 0, draws=5, rollouts=3, rng=random.Random(7))
    assert all(sorted(o) == [0, 0, 0, 5, 5] for o in short.orders)  # the pool runs out


def test_sample_is_deterministic_from_the_rng() -> None:
    live = [4] * 34
    a = Futures.sample(live, 4, 6, 8, random.Random(3))
    b = Futures.sample(live, 4, 6, 8, random.Random(3))
    assert a == b


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_one_draw_of_a_ready_hand_finishes_exactly_on_its_waits(seed: int) -> None:
    """A ready hand with one draw left finishes in the futures whose draw is a wait or a
    wild: the simulation agrees with ``waits`` (the evaluator's own brute force)."""
    rng = random.Random(seed)
    for _ in range(200):
        wall = [k for k in range(34) for _ in range(4)]
        rng.shuffle(wall)
        counts = [0] * 34
        for k in wall[:13]:
            counts[k] += 1
        if distance(counts, 0, 4, ANY) == 0:
            break
    else:
        return
    winning = set(waits(counts))
    orders = [(k, 0, 0, 0) for k in range(34) if counts[k] < 4] + [(WILD, 0, 0, 0)]
    f = futures(*orders)
    expected = sum(1 for o in orders if o[0] == WILD or o[0] in winning) / len(orders)
    assert finish_chance(f, counts, 0, 4, ANY, claims=False) == expected


M1, M3, M6, M9, P1, P2, S3, E, N, P = 0, 2, 5, 8, 9, 10, 20, 27, 30, 33


def test_tiles_outside_the_target_are_thrown_first() -> None:
    """Three dead tiles and four more 萬子 to come: the hand can only finish if every dead
    tile was thrown away while the 萬子 were kept."""
    counts = hand("1m2m3m4m5m6m7m8m9m9m1p5s7s")
    target = Target("qingyise", 0)
    assert distance(counts, 0, 4, target) == 3
    order = (M1, P, P, P, M1, P, P, P, M9, P, P, P, 4)
    assert finish_chance(futures(order), counts, 0, 4, target) == 1.0
    short = order[:9]  # one 萬子 short
    assert finish_chance(futures(short), counts, 0, 4, target) == 0.0


def test_a_wild_draw_fills_the_last_gap() -> None:
    counts = hand("1m1m1m2m3m4m5m6m7m8m9m9m9m")
    assert finish_chance(futures((WILD, P, P, P)), counts, 0, 4, Target("qingyise", 0)) == 1.0
    assert finish_chance(futures((P, WILD, P, P)), counts, 0, 4, Target("qingyise", 0)) == 0.0


def test_pon_of_a_discard_brings_a_triplet_hand_closer() -> None:
    counts = hand("1m1m2p2p3s3s4s4sEEESN")
    target = Target("duiduihe")
    assert distance(counts, 0, 4, target) == 2
    # the others discard 1m and 2p (碰, 碰), then this seat draws 3s: done
    order = (E, M1, P2, P, S3, P, P, P)
    assert finish_chance(futures(order), counts, 0, 4, target, claims=True) == 1.0
    assert finish_chance(futures(order), counts, 0, 4, target, claims=False) == 0.0


def test_chi_only_from_the_left_and_only_where_allowed() -> None:
    counts = hand("1m2m4m5m7m8m9m1s2s3sEEP")
    assert distance(counts, 0, 4, ANY) == 1
    left = (N, N, N, M3, M6)  # the seat on the left (last of the three) discards 3m
    right = (N, M3, N, N, M6)
    assert finish_chance(futures(left), counts, 0, 4, ANY) == 1.0
    assert finish_chance(futures(right), counts, 0, 4, ANY) == 0.0
    assert finish_chance(futures(left, allow_chi=False), counts, 0, 4, ANY) == 0.0
    assert finish_chance(futures(left), counts, 0, 4, ANY, claims=False) == 0.0
    assert finish_chance(futures(left), counts, 0, 4, Target("duiduihe")) == 0.0


def test_ron_only_when_asked() -> None:
    counts = hand("1m2m3m4m5m6m7m8m9m1p1p1pE")  # waits on E alone
    order = (P, E, P, P)
    assert finish_chance(futures(order), counts, 0, 4, ANY, ron=True) == 1.0
    assert finish_chance(futures(order), counts, 0, 4, ANY, ron=False) == 0.0


def test_more_draws_never_lower_the_chance() -> None:
    rng = random.Random(11)
    counts = hand("1m2m3m5p6p7p2s4s6s8sEEN")
    live = [4 - c for c in counts]
    f = Futures.sample(live, 0, 12, 64, rng)
    chances = []
    for draws in range(0, 13):
        cut = Futures(tuple(o[: 4 * draws] for o in f.orders), draws, True)
        chances.append(finish_chance(cut, counts, 0, 4, ANY))
    assert chances == sorted(chances)
    assert chances[0] == 0.0 and chances[-1] > chances[3]


def test_hazard_discounts_a_late_finish_more_than_an_early_one() -> None:
    counts = hand("1m1m1m2m3m4m5m6m7m8m9m9m9m")  # 九蓮: any 萬子 or a wild finishes it
    target = Target("qingyise", 0)
    early = futures((M1, P, P, P))
    late = futures((P, P, P, P, P, P, P, P, M1, P, P, P))
    assert finish_chance(early, counts, 0, 4, target, hazard=0.1) == 1.0
    assert finish_chance(late, counts, 0, 4, target, hazard=0.1) == 0.9**2
    assert finish_chance(late, counts, 0, 4, target) == 1.0


def _seen_with_melds(melds_per_opponent: list[int], wall: int = 60) -> Seen:
    view = Round.from_seed("jiaxing", engine_seed(3)).view(0).to_json()
    view["wall_remaining"] = wall
    for seat, n in enumerate(melds_per_opponent, start=1):
        view["players"][seat]["melds"] = [
            {"type": "pon", "tiles": ["N", "N", "N"], "from": 0} for _ in range(n)
        ]
    return read_view(view)


def test_race_hazard_grows_with_the_opponents_melds_and_vanishes_without_draws() -> None:
    quiet = race_hazard(_seen_with_melds([0, 0, 0]), draws=12)
    busy = race_hazard(_seen_with_melds([3, 2, 2]), draws=12)
    assert 0 < quiet < busy < 1
    assert race_hazard(_seen_with_melds([0, 0, 0]), draws=0) == 0.0
    # spread over fewer draws, the same chance is a larger hazard per turn
    assert race_hazard(_seen_with_melds([0, 0, 0]), draws=4) > quiet


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_the_simulating_candidates_play_legal_deterministic_hands(ruleset: str) -> None:
    seating = ["bench.variants:RacingStrongSantan", "strong"] * 2
    results = []
    for _ in range(2):
        tallies = {name: BotTally() for name in seating}
        results.append(play_hand(ruleset, 5, seating, 0, None, tallies))
        errors = {n: t.errors for n, t in tallies.items() if t.illegal}
        assert not errors, errors
    assert sum(results[0]["payments"]) == 0
    assert results[0]["payments"] == results[1]["payments"]
