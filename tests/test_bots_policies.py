"""The bots play legal actions only, in both rulesets, and 托管 always answers legally."""

from __future__ import annotations

import pytest
from test_engine_wenling import D_KINDS, DE_FACE_KEEP, DE_FACE_WAIT, bao_round, bao_until_5p

from baida.bots.arena import BotTally, engine_seed, play_hand
from baida.bots.features import read_view
from baida.bots.policy import LADDER, UnknownBot, bot_names, make_bot
from baida.bots.random_bot import RandomBot
from baida.bots.strong import StrongBot
from baida.bots.tuoguan import TuoguanBot, safe_action
from baida.engine import Round
from baida.tiles import parse_tile


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


def test_strong_bots_baosanjia_exemption_is_the_engines() -> None:
    """The 包三家 exemption the bot predicts is the engine's: a hand is ready only with a wait it
    can still draw (docs/evaluator.md), the same test on both sides."""
    five = parse_tile("5p")
    for hand, indicator, keep, exempt in [
        ("1p1p1p1p 7p7p7p EEE SSS WWW", "9s", D_KINDS, True),  # only wait: a fifth 1p
        (DE_FACE_WAIT, "5s", DE_FACE_KEEP, True),  # only wait: 5s, the 得's face
        (DE_FACE_WAIT, "9s", DE_FACE_KEEP, False),  # waits on 5s, which can come
    ]:
        rnd = bao_round(hand, extra="5m", indicator=indicator, keep=keep)
        bao_until_5p(rnd, "5m", keep)
        assert StrongBot._exempt(read_view(rnd.view(0)), five) is exempt, hand
    compared = 0
    for seed in range(6):
        rnd = Round.from_seed("wenling", f"exempt-{seed}".encode(),
                              options={"sheng_chow_rule": "claimed_tile"})
        bot = RandomBot(seed)
        while not rnd.ended:
            seat = rnd.to_act[0]
            legal = rnd.legal_actions(seat)
            if rnd.phase == "turn" and rnd.sheng_phase:
                seen = read_view(rnd.view(seat))
                for action in legal:
                    tile = action.tile
                    if action.type != "discard" or tile in rnd.wild_kinds:
                        continue
                    rnd.cnt[seat][tile] -= 1  # the engine judges the hand after the discard
                    engine = rnd._exempt(seat, tile)
                    rnd.cnt[seat][tile] += 1
                    assert StrongBot._exempt(seen, tile) == engine, (seed, action)
                    compared += 1
            rnd.apply(bot.choose(rnd.view(seat), legal))
    assert compared > 50


def _lazi_and_win_offered() -> tuple[Round, int]:
    """A Wenling deal (played by ``efficient`` bots) up to a seat that drew its third 得 with a
    hand the 得 completes: both a 腊子 and a win are offered."""
    import hashlib

    rnd = Round.from_seed("wenling", seed=hashlib.sha256(b"exact-value-22").digest())
    bots = [make_bot("efficient", seed=22 * 4 + i) for i in range(4)]
    while not rnd.ended:
        seat = rnd.to_act[0]
        legal = rnd.legal_actions(seat)
        if {"win", "lazi"} <= {a.type for a in legal}:
            return rnd, seat
        rnd.apply(bots[seat].choose(rnd.view(seat), legal))
    raise AssertionError("the deal never offered both")


def test_every_automatic_chooser_takes_the_lazi_over_the_win() -> None:
    """A 腊子 is worth 500, the cap of any win: the bots, 托管's fallbacks, the table's and the
    terminal client's fixed rules and the terminal's win key all take it when both are offered
    (the win would have paid 120 here)."""
    from baida.client.play import auto_choice
    from baida.table.driver import safe_action as driver_safe_action
    from baida.tui.keys import build_menu

    rnd, seat = _lazi_and_win_offered()
    view, legal = rnd.view(seat), rnd.legal_actions(seat)
    lazi = next(a for a in legal if a.type == "lazi")
    for name in (*LADDER[1:], "tuoguan"):
        assert make_bot(name, seed=0).choose(view, legal) is lazi, name
    assert safe_action(view, legal) is lazi
    assert driver_safe_action(legal) is lazi
    prompt = {"actions": [a.to_json() for a in legal]}

    class Tracker:
        drawn = None

    assert auto_choice(Tracker(), prompt)["type"] == "lazi"  # type: ignore[arg-type]
    menu = build_menu(prompt["actions"], view.to_json(), "zh")
    assert menu.resolve(menu.win_key).action["type"] == "lazi"
    rnd.apply(lazi)
    assert rnd.result.to_json()["score"]["points"] == 500
