"""bench.branch_eval: both branches of a decision are played on the same deal, reproducibly."""

from __future__ import annotations

import pytest

from bench.branch_eval import Alternatives, branch_hand, main, seating, summarize


def test_the_bots_own_branch_is_the_hand_they_played() -> None:
    hand = branch_hand("jiaxing", 700_001, "efficient", "discard:greedy")
    assert hand.branches, "efficient and greedy differ on some discard of this hand"
    for branch in hand.branches:  # the copy played with the bot's choice ends as the hand did
        assert branch.chosen_points == hand.payments[branch.seat]
    assert any(b.alternative_points != b.chosen_points for b in hand.branches)


def test_branches_are_reproducible() -> None:
    first = branch_hand("wenling", 800_002, "efficient", "discard:greedy")
    again = branch_hand("wenling", 800_002, "efficient", "discard:greedy")
    assert first == again


def test_summary_reports_the_alternatives_mean_gain() -> None:
    hand = branch_hand("jiaxing", 700_001, "efficient", "discard:greedy")
    summary = summarize([hand])
    assert sum(s["n"] for s in summary.values()) == len(hand.branches)
    for tag, s in summary.items():
        assert tag.startswith("the other discard is ")
        gains = [b.gain for b in hand.branches if b.tag == tag]
        assert s["n"] == len(gains)
        assert s["mean"] == pytest.approx(sum(gains) / len(gains), abs=1e-3)
        assert s["low"] <= s["mean"] <= s["high"]


def test_an_unknown_kind_is_named() -> None:
    with pytest.raises(ValueError, match="'peng'"):
        Alternatives("peng", 0)
    with pytest.raises(SystemExit):
        main(["--kind", "peng"])
    with pytest.raises(SystemExit):
        main(["--kind", "santan", "--others", "grandmaster"])


def test_with_other_opponents_only_the_bots_seats_branch() -> None:
    assert seating("efficient", None, 3) == ["efficient"] * 4
    assert seating("efficient", "greedy", 4) == ["efficient", "greedy"] * 2
    assert seating("efficient", "greedy", 5) == ["greedy", "efficient"] * 2
    seed = 700_001
    hand = branch_hand("jiaxing", seed, "efficient", "discard:greedy", others="random")
    mine = {s for s, name in enumerate(seating("efficient", "random", seed)) if name == "efficient"}
    assert hand.branches
    assert {b.seat for b in hand.branches} <= mine
    for branch in hand.branches:
        assert branch.chosen_points == hand.payments[branch.seat]


def test_any_kind_branches_every_decision_the_other_bot_would_take_otherwise() -> None:
    hand = branch_hand("jiaxing", 700_001, "efficient", "any:greedy")
    discards = branch_hand("jiaxing", 700_001, "efficient", "discard:greedy")
    assert len(hand.branches) >= len(discards.branches) > 0
    assert all(" -> " in b.tag for b in hand.branches)
    assert any(b.tag == "discard -> discard" for b in hand.branches)
    for branch in hand.branches:
        assert branch.chosen_points == hand.payments[branch.seat]


def test_a_searchs_override_is_told_by_how_clear_its_lead_was() -> None:
    from baida.bots.search import SearchBot, SearchResult
    from bench.branch_eval import _confirmation_band

    bot = SearchBot(seed=1)
    assert _confirmation_band(bot) == ""  # no search yet
    bot.last = SearchResult(["a", "b"], [[0.0], [1.0]], chosen=1, confirmed=(4.0, 1.0))
    assert _confirmation_band(bot) == " (search lead z 3-5)"
    bot.last.confirmed = (2.5, 1.0)
    assert _confirmation_band(bot) == " (search lead z < 3)"
    bot.last.confirmed = (6.0, 0.0)
    assert _confirmation_band(bot) == " (search lead z >= 5)"
    bot.last.chosen = 0  # confirmed, but not clear enough: no override to tell
    assert _confirmation_band(bot) == ""
