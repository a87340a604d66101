"""Liability facts read from a hand's events: 三摊 choices and results, third claims fed,
包三家; and what the arena report and the policy registry make of them."""

from __future__ import annotations

import pytest

from baida.bots.liability_stats import LiabilityTally, hand_liability
from baida.bots.policy import UnknownBot, make_bot

EVENTS = [
    {"type": "discard", "seat": 3, "tile": "9p"},
    {"type": "pon", "seat": 0, "tile": "9p", "from": 3},
    {"type": "santan", "seat": None, "pair": [0, 3], "asks": [1, 2]},
    {"type": "santan_choice", "seat": 1, "choice": "continue"},
    {"type": "santan_choice", "seat": 2, "choice": "give_up"},
    {"type": "discard", "seat": 0, "tile": "1m"},
    {"type": "chi", "seat": 1, "tile": "1m", "from": 0},  # an ordinary claim: no pair
]


def test_santan_choices_results_and_the_third_claim() -> None:
    result = {"outcome": "win", "winner": 3, "payments": [-20, -8, 0, 28], "liable": None}
    per_seat = hand_liability(EVENTS, result)
    assert per_seat[3].third_claim_feeds == 1 and per_seat[0].third_claims_made == 1
    assert sum(t.third_claim_feeds for t in per_seat) == 1
    one, two = per_seat[1], per_seat[2]
    assert (one.santan_asked, one.santan_continue, one.continue_hands) == (1, 1, 1)
    assert (one.continue_points, one.continue_wins, one.continue_others_won) == (-8, 0, 1)
    assert (two.santan_continue, two.giveup_hands, two.giveup_points) == (0, 1, 0)
    total = LiabilityTally()
    for t in per_seat:
        total.merge(t)
    summary = total.summary()
    assert summary["continue_rate"] == 0.5 and summary["points_after_continue"] == -8


def test_baosanjia_is_counted_for_the_liable_seat() -> None:
    result = {"outcome": "win", "winner": 0, "payments": [93, 0, -101, 8], "liable": 2}
    per_seat = hand_liability([], result)
    assert per_seat[2].baosanjia == 1 and per_seat[2].baosanjia_paid == 101
    assert per_seat[2].summary()["baosanjia_mean_paid"] == 101
    assert LiabilityTally().summary()["continue_rate"] is None


def test_a_bot_can_be_named_by_module_and_attribute() -> None:
    assert make_bot("baida.bots.greedy:GreedyBot", seed=1).name == "greedy"
    with pytest.raises(UnknownBot, match="cannot load bot"):
        make_bot("baida.bots.nowhere:Bot")
