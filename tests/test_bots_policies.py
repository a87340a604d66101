"""The bots play legal actions only, in both rulesets, and 托管 always answers legally."""

from __future__ import annotations

import pytest

from baida.bots.arena import BotTally, engine_seed, play_hand
from baida.bots.features import read_view
from baida.bots.policy import LADDER, UnknownBot, bot_names, make_bot
from baida.bots.tuoguan import TuoguanBot, safe_action
from baida.engine import Round


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_mixed_table_plays_a_hand_legally(ruleset: str) -> None:
    seating = ["strong", "efficient", "greedy", "random"]
    tallies = {name: BotTally() for name in seating}
    result = play_hand(ruleset, 11, seating, 0, None, tallies)
    assert result["outcome"] in ("win", "draw")
    assert sum(result["payments"]) == 0
    for name, tally in tallies.items():
        assert tally.illegal == 0, (name, tally.errors)
    assert tallies["strong"].timing.count > 0


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_tuoguan_fills_a_whole_table(ruleset: str) -> None:
    seating = ["tuoguan"] * 4
    tallies = {"tuoguan": BotTally()}
    play_hand(ruleset, 5, seating, 0, None, tallies)
    assert tallies["tuoguan"].illegal == 0, tallies["tuoguan"].errors


def test_registry() -> None:
    assert set(LADDER) <= set(bot_names())
    for name in LADDER:
        bot = make_bot(name, seed=1)
        assert bot.name == name
    with pytest.raises(UnknownBot, match="unknown bot 'nobody'"):
        make_bot("nobody")


def test_read_view_counts_the_hand_and_the_live_tiles() -> None:
    rnd = Round.from_seed("jiaxing", engine_seed(3))
    seen = read_view(rnd.view(rnd.dealer))
    assert sum(seen.counts) + seen.wilds == 14
    assert seen.sets_needed == 4
    assert all(0 <= n <= 4 for n in seen.live)
    for face in seen.wild_faces:
        if face < 34:
            assert seen.live[face] == 0 and seen.counts[face] == 0
    assert seen.live_wilds == 3 - seen.wilds
    # 136 tiles: the wild kind's four copies are the indicator and three wilds; the dealer
    # holds 14; everything else (132 naturals - own naturals, and the other wilds) is unseen
    assert seen.unseen == (132 - (14 - seen.wilds)) + (3 - seen.wilds) == 121


def test_read_view_rejects_a_spectator() -> None:
    rnd = Round.from_seed("wenling", engine_seed(3))
    with pytest.raises(ValueError, match="spectator"):
        read_view(rnd.view(None))


class Broken:
    name = "broken"

    def choose(self, view, legal_actions):
        raise RuntimeError("bug")


class Illegal:
    name = "illegal"

    def choose(self, view, legal_actions):
        return {"type": "nonsense"}


@pytest.mark.parametrize("primary", [Broken(), Illegal()])
def test_tuoguan_falls_back_when_the_primary_fails(primary) -> None:
    rnd = Round.from_seed("jiaxing", engine_seed(8))
    bot = TuoguanBot(seed=0)
    bot.primary = primary
    steps = 0
    while not rnd.ended and steps < 400:
        seat = rnd.to_act[0]
        legal = rnd.legal_actions(seat)
        action = bot.choose(rnd.view(seat), legal)
        assert action in legal
        rnd.apply(action)
        steps += 1
    assert rnd.ended


def test_tuoguan_degrades_after_a_slow_decision() -> None:
    rnd = Round.from_seed("jiaxing", engine_seed(8))
    bot = TuoguanBot(seed=0, slow_seconds=0.0)
    seat = rnd.to_act[0]
    legal = rnd.legal_actions(seat)
    assert bot.choose(rnd.view(seat), legal) in legal
    assert bot.degraded


def test_safe_action_prefers_win_then_pass_then_the_drawn_tile() -> None:
    from baida.engine import Action

    view = {"seat": 0, "players": [{"drawn": "5p"}]}
    win = Action("win", 0)
    discards = [Action("discard", 0, tile=t) for t in (0, 13)]  # 1m, 5p
    assert safe_action(view, discards + [win]) == win
    assert safe_action(view, [Action("pon", 0), Action("pass", 0)]) == Action("pass", 0)
    assert safe_action(view, discards) == discards[1]


def test_bots_read_the_table_options_from_the_view() -> None:
    from baida.bots.planner import Planner
    from baida.rules.options import options_to_json

    plain = Round.from_seed("jiaxing", seed=bytes(32))
    reserved = Round.from_seed("jiaxing", seed=bytes(32), options={"wall_reserve": 40})
    assert plain.view(0).options == options_to_json(plain.options)
    seen_plain, seen_reserved = read_view(plain.view(0)), read_view(reserved.view(0))
    assert seen_reserved.options["wall_reserve"] == 40
    assert Planner(seen_reserved).draws_left() == Planner(seen_plain).draws_left() - 10
    short = Round.from_seed("wenling", seed=bytes(32), options={"huangpai_pairs": 0})
    wenling = read_view(short.view(0))
    assert Planner(wenling).draws_left() == (wenling.wall_remaining - 1) // 4
