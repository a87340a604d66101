"""Tests of bench.opponents.counting (CountingBot), an outside opponent written from the rules."""

from __future__ import annotations

import hashlib

import pytest

from baida.engine import Round
from bench.opponents.counting import CountingBot
from bench.opponents.counting_shapes import (
    counts_of,
    face_to_kind,
    hand_distance,
    kind_to_face,
    std_distance,
)

JX_TARGETS = (("hy", 0), ("hy", 1), ("hy", 2), ("ddh", None))


def play_hand(ruleset: str, index: int) -> dict:
    seed = hashlib.sha256(f"counting-bot test {ruleset} {index}".encode()).digest()
    rnd = Round.from_seed(ruleset, seed=seed)
    bots = [CountingBot(seed=index * 4 + s) for s in range(4)]
    steps = 0
    while not rnd.ended:
        seat = rnd.to_act[0]
        legal = rnd.legal_actions(seat)
        action = bots[seat].choose(rnd.view(seat), legal)
        assert any(action is a for a in legal), (action, legal)
        rnd.apply(action)
        steps += 1
        assert steps < 2000
    return rnd.result.to_json()


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_full_hands_are_legal_and_end(ruleset: str) -> None:
    outcomes = []
    for index in range(20):
        result = play_hand(ruleset, index)
        assert result["outcome"] in ("win", "draw")
        assert sum(result["payments"]) == 0
        outcomes.append(result["outcome"])
    assert "win" in outcomes


# ---------------------------------------------------------------- distance


def test_tile_notation_round_trip() -> None:
    for kind in range(34):
        assert face_to_kind(kind_to_face(kind)) == kind
    assert face_to_kind("f3") is None
    assert counts_of("123m55pEE")[face_to_kind("5p")] == 2


@pytest.mark.parametrize(
    ("hand", "wilds", "slots", "expected"),
    [
        ("123m456m789m123p55p", 0, 4, 0),  # complete
        ("123m456m789m123p5p", 0, 4, 1),  # ready (单吊)
        ("123m456m789m123p", 1, 4, 1),  # ready: the wild waits on anything
        ("123m456m789m12p", 2, 4, 1),  # 11 natural + 2 wilds: 12p* and a half pair
        ("123m456m789m12p", 3, 4, 0),  # 12p* + ** pair: complete
        ("19m19p19sESWNCF", 0, 4, 9),  # thirteen lone tiles: the worst 13-tile hand
        ("1m", 0, 0, 1),  # four melds and a single wait
        ("", 2, 0, 0),  # four melds and two wilds: a pair
        ("123m456m789m123pEE5s9p", 0, 5, 2),  # Wenling 16 tiles: 4 sets, a pair, two lone tiles
        ("123m456m789m123p456s5s", 0, 5, 1),  # Wenling ready
    ],
)
def test_std_distance(hand: str, wilds: int, slots: int, expected: int) -> None:
    assert std_distance(counts_of(hand), wilds, slots) == expected


def test_jiaxing_pattern_distance() -> None:
    # a plain hand is ready as a shape but far from every 台头和 pattern
    plain = counts_of("123m456m789m123p5p")
    assert std_distance(plain, 0, 4) == 1
    assert hand_distance(plain, 0, 4, JX_TARGETS) == 5  # 混一色 in m: 9 tiles kept of 14
    # 对对和 ready
    assert hand_distance(counts_of("111m222p333sEECC"), 0, 4, JX_TARGETS) == 1
    # 混一色 with wilds standing in: 123m 456m 789m EE ** is ready
    assert hand_distance(counts_of("123m456m789mEE"), 2, 4, JX_TARGETS) == 1
    # ... but with a lone 5p beside it the nearest pattern is 2 away
    assert hand_distance(counts_of("123m456m789mE5p"), 2, 4, JX_TARGETS) == 2
    # 清一色 complete with three wilds
    assert hand_distance(counts_of("123m456m789m11m"), 3, 4, JX_TARGETS) == 0
    # 对对和 with wilds: 111p 222p 333p EE ** wins on anything
    assert hand_distance(counts_of("111p222p333pEE"), 2, 4, JX_TARGETS) == 1


# ---------------------------------------------------------------- priorities


def tiny_view(ruleset: str = "wenling") -> dict:
    players = []
    for seat in range(4):
        players.append({
            "seat": seat, "wind": "ESWN"[seat], "concealed": None, "concealed_count": 16,
            "drawn": None, "melds": [], "discards": [], "claimed": [], "flowers": [],
            "gave_up": False,
        })
    players[0]["concealed"] = ["5m", "5m", "5m", "E", "E", "E", "E", "1p", "2p", "3p",
                               "4s", "5s", "6s", "7s", "8s", "9s", "9p"]
    return {
        "ruleset": ruleset, "options": {}, "seat": 0, "dealer": 0,
        "seat_winds": ["E", "S", "W", "N"], "round_wind": None, "indicator": "7m",
        "wilds": ["7m"], "specials": ["P", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"],
        "phase": "turn", "turn": 0, "to_act": [0], "wall_remaining": 60,
        "last_discard": None, "robbable": None, "santan_pairs": [],
        "claim_counts": [[0] * 4 for _ in range(4)], "sheng_phase": False, "players": players,
    }


def test_lazi_before_win_before_everything() -> None:
    bot = CountingBot(seed=1)
    view = tiny_view()
    discard = {"type": "discard", "seat": 0, "tile": "9p"}
    akong = {"type": "akong", "seat": 0, "tile": "E"}
    win = {"type": "win", "seat": 0}
    lazi = {"type": "lazi", "seat": 0}
    assert bot.choose(view, [discard, akong, win, lazi]) is lazi
    assert bot.choose(view, [discard, win, akong]) is win
    # a 暗杠 of the own seat wind is a Wenling 腊子: always declared
    assert bot.choose(view, [discard, akong]) is akong
    claim_view = dict(view, phase="claim", last_discard={"seat": 3, "tile": "9p"})
    ron = {"type": "win", "seat": 0}
    pon = {"type": "pon", "seat": 0}
    assert bot.choose(claim_view, [{"type": "pass", "seat": 0}, pon, ron]) is ron


def test_discard_keeps_shape_and_never_throws_a_de() -> None:
    bot = CountingBot(seed=2)
    view = tiny_view()
    view["players"][0]["concealed"] = ["1m", "2m", "3m", "4m", "5m", "6m", "1p", "2p", "3p",
                                       "4s", "5s", "6s", "9s", "9s", "7m", "N", "2p"]
    offered = [{"type": "discard", "seat": 0, "tile": f}
               for f in sorted(set(view["players"][0]["concealed"]))]
    choice = bot.choose(view, offered)
    assert choice["tile"] == "N"  # the lone honour; never the 得 (7m)


def test_jiaxing_third_claim_refused_unless_ready() -> None:
    bot = CountingBot(seed=3)
    view = tiny_view("jiaxing")
    view.update(indicator="9s", wilds=["9s"], specials=[], round_wind="E", phase="claim",
                last_discard={"seat": 3, "tile": "E"})
    view["options"] = {"santan_enabled": True, "santan_threshold": 3}
    me = view["players"][0]
    me["concealed"] = ["1m", "2m", "4m", "6m", "E", "E", "C", "F", "P", "3p", "5s", "7s", "8p"]
    view["players"][3]["discards"] = ["E"]
    pon = {"type": "pon", "seat": 0}
    pas = {"type": "pass", "seat": 0}
    # a first claim that brings the 混一色 nearer is taken
    assert bot.choose(view, [pas, pon]) is pon
    # the same claim as the third on that player (三摊) is refused: it does not make us ready
    view["claim_counts"][0][3] = 2
    assert bot.choose(view, [pas, pon]) is pas
