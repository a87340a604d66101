"""The clean-room opponent (bench/opponents): its own distance code agrees with the anchor
``mahjong`` library, it plays legal hands, and the arena loads it by name."""

from __future__ import annotations

import random

import pytest

from baida.bots.arena import BotTally, play_hand
from baida.bots.policy import make_bot
from bench.opponents.rulebook import plain_distance, register, triplet_distance

mahjong_shanten = pytest.importorskip("mahjong.shanten")


def test_plain_distance_is_the_regular_shanten_of_the_mahjong_library() -> None:
    anchor = mahjong_shanten.Shanten()
    rng = random.Random(5)
    wall = [k for k in range(34) for _ in range(4)]
    for _ in range(300):
        counts = [0] * 34
        for k in rng.sample(wall, rng.choice([13, 14])):
            counts[k] += 1
        assert plain_distance(counts, 4, 0) == anchor.calculate_shanten_for_regular_hand(counts)


def test_wilds_and_triplets() -> None:
    counts = [0] * 34
    for k in (0, 0, 0, 9, 9, 9, 18, 18, 27, 27, 28, 30, 31):  # 2 triplets, 2 pairs, 3 singles
        counts[k] += 1
    assert triplet_distance(counts, range(34), 4, 0) == 2  # three tiles missing
    assert triplet_distance(counts, range(34), 4, 1) == 1
    assert plain_distance(counts, 4, 2) == plain_distance(counts, 4, 0) - 2
    assert triplet_distance(counts, range(34), 4, 3) == -1


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_plays_legal_hands_by_module_name_and_by_registered_name(ruleset: str) -> None:
    name = "bench.opponents.rulebook:RulebookBot"
    tallies = {name: BotTally(), "strong": BotTally()}
    result = play_hand(ruleset, 4, [name, "strong", name, "strong"], 0, None, tallies)
    assert sum(result["payments"]) == 0
    assert tallies[name].illegal == 0, tallies[name].errors
    register()
    assert make_bot("rulebook", seed=1).name == "rulebook"
