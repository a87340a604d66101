"""Matches: dealer rotation, seat and round winds, the carry pool and totals by player."""

from __future__ import annotations

import pytest
from test_engine_helpers import act, pass_window, passive, tiles

from baida.engine import IllegalAction, Match
from baida.engine.wall import wall_from_deal
from baida.tiles import parse_tile

OTHERS = ["123p456p789p 1s2s3s E", "123p456p789p 4s5s6s S", "11p22p33p 44s55s66s W"]
HEAVENLY = "111m222m333m456m7m"


def wall(ruleset: str, hands: list[str], extra: str, draws: str = "", indicator: str = "9s"):
    return wall_from_deal(
        ruleset,
        [tiles(h) for h in hands],
        draws=tiles(draws),
        indicator=parse_tile(indicator),
        dealer_extra=parse_tile(extra),
    )


def dealer_wins(match: Match, indicator: str = "9s", dice=(1, 2)) -> None:
    rnd = match.start_hand_from_wall(
        wall("jiaxing", [HEAVENLY, *OTHERS], "7m", indicator=indicator), dice
    )
    match.apply({"type": "win", "seat": rnd.dealer})


def next_player_wins(match: Match) -> None:
    """The dealer's 下家 wins on its first draw (地和)."""
    hands = ["123p456p789p 1s2s E 7s", HEAVENLY, OTHERS[1], OTHERS[2]]
    rnd = match.start_hand_from_wall(wall("jiaxing", hands, "N", draws="7m"), (1, 2))
    match.apply({"type": "discard", "seat": rnd.dealer, "tile": "N"})
    pass_window(rnd)
    match.apply({"type": "win", "seat": (rnd.dealer + 1) % 4})


def drawn_hand(match: Match, seed: bytes) -> None:
    rnd = match.start_hand(seed)
    passive(rnd)
    match.finish_hand()


def test_jiaxing_rotation_and_round_wind_over_four_rounds() -> None:
    match = Match("jiaxing", {"dealer_keeps_on_draw": False}, first_dealer=2)
    seen = []
    n = 0
    while not match.over:
        rnd = match.start_hand(n.to_bytes(2, "big"))
        seen.append((rnd.dealer, rnd.round_wind, [rnd.seat_wind(s) for s in range(4)]))
        passive(rnd)
        match.finish_hand()
        n += 1
    assert n == 16
    assert [d for d, _, _ in seen] == [2, 3, 0, 1] * 4
    assert [w for _, w, _ in seen] == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4
    assert seen[1][2] == ["S", "W", "N", "E"]  # dealer seat 3 is East, its 下家 seat 0 South
    with pytest.raises(IllegalAction, match="the match is over"):
        match.start_hand(b"more")


def test_jiaxing_dealer_keeps_the_deal_on_a_draw_and_a_win() -> None:
    match = Match("jiaxing", hands=3)
    drawn_hand(match, b"a")
    assert match.dealer == 0 and match.carry_pool >= 1
    dealer_wins(match)
    assert match.dealer == 0
    next_player_wins(match)
    assert match.dealer == 1 and match.over
    assert match.totals == [sum(r.payments[s] for r in match.history) for s in range(4)]
    assert match.history[-1].winner == 1 and match.totals[1] > 0


def test_totals_are_keyed_by_player_not_by_wind() -> None:
    match = Match("jiaxing", {"carry_fans_enabled": False}, first_dealer=3, hands=1)
    next_player_wins(match)  # the dealer is seat 3, so the winner is seat 0 (South this hand)
    result = match.history[0]
    assert result.winner == 0
    assert result.score["payments"]["S"] == result.payments[0] == match.totals[0] > 0
    assert result.score["payments"]["E"] == result.payments[3] < 0


def test_round_wind_advances_when_the_deal_returns_to_the_first_dealer() -> None:
    match = Match("jiaxing", {"carry_fans_enabled": False}, rounds=2)
    for _ in range(4):
        next_player_wins(match)
    assert match.dealer == 0 and match.round_wind == 1 and match.rounds_done == 1
    assert not match.over
    rnd = match.start_hand_from_wall(wall("jiaxing", [HEAVENLY, *OTHERS], "7m"), (1, 2))
    assert rnd.round_wind == 1 and rnd.view(0).round_wind == "S"


def test_wenling_dealer_passes_on_huangpai_and_stays_on_its_win() -> None:
    match = Match("wenling", hands=3)
    drawn_hand(match, b"huang")
    assert match.history[0].outcome == "draw" and match.dealer == 1
    hands = [
        "123m456m789m123s456s E",
        "123m456m789m123s456s 5p",
        "123m456m789m123s456s 5p",
        "123m456m789m123s456s 5p",
    ]
    # dealer seat 1 discards; seat 2 wins: the deal passes to seat 2
    rnd = match.start_hand_from_wall(wall("wenling", hands, "5p"), (1, 2))
    match.apply({"type": "discard", "seat": 1, "tile": "5p"})
    for seat in rnd.to_act:
        match.apply({"type": "win" if seat == 2 else "pass", "seat": seat})
    assert match.history[1].winner == 2 and match.dealer == 2
    dealer_hand = ["123m456m789m123s456s 5p", *hands[1:3], "123m456m789m123s456s E"]
    rnd = match.start_hand_from_wall(wall("wenling", dealer_hand, "5p"), (1, 2))
    assert rnd.dealer == 2
    match.apply({"type": "win", "seat": 2})  # the dealer's self-drawn win: it keeps the deal
    assert match.dealer == 2 and match.over


def test_carry_pool_tokens_draws_and_use() -> None:
    match = Match("jiaxing", hands=3)
    # 老头黄 (an honour wild) and 包子 (dice doubles) enter the pool at the start
    rnd = match.start_hand_from_wall(
        wall("jiaxing", [HEAVENLY, *OTHERS], "7m", indicator="C"), (3, 3)
    )
    assert rnd.carry_pool == 2 and sorted(rnd.carry_tokens) == ["包子", "老头黄"]
    passive(rnd)
    match.finish_hand()
    assert match.carry_pool == 3  # + 黄番 for the drawn hand
    # the same wild again: 百搭连庄 + 老头黄; the dealer wins and uses one token
    dealer_wins(match, indicator="C")
    first = match.history[-1]
    assert "黄番" in [f["name"] for f in first.score["fan"]]
    assert match.carry_pool == 3 + 2 - 1
    drawn_hand(match, b"x")
    assert match.carry_pool >= 5


def test_carry_tokens_lost_on_a_draw_when_configured() -> None:
    match = Match("jiaxing", {"carry_tokens_on_draw": False}, hands=1)
    rnd = match.start_hand_from_wall(
        wall("jiaxing", [HEAVENLY, *OTHERS], "7m", indicator="C"), (3, 3)
    )
    assert rnd.carry_pool == 2
    passive(rnd)
    match.finish_hand()
    assert match.carry_pool == 1


def test_match_refuses_to_deal_over_an_unfinished_hand() -> None:
    match = Match("jiaxing", hands=2)
    rnd = match.start_hand(b"one")
    with pytest.raises(IllegalAction, match="not finished"):
        match.start_hand(b"two")
    act(rnd, "discard", rnd.dealer, tile=rnd.view(rnd.dealer).players[rnd.dealer].concealed[0])
    assert match.to_json()["hand_number"] == 0


def test_a_hand_played_on_the_round_is_settled_at_the_next_deal() -> None:
    match = Match("wenling", hands=2)
    rnd = match.start_hand(b"first")
    passive(rnd)  # played through the Round, not Match.apply
    match.start_hand(b"second")
    assert match.hand_number == 1 and len(match.history) == 1


@pytest.mark.parametrize(
    "ruleset,options",
    [
        ("jiaxing", {"require_pattern": False, "allow_discard_win": True}),
        ("jiaxing", {"require_pattern": False, "dealer_keeps_on_draw": False}),
        ("wenling", {}),
    ],
)
def test_random_matches_keep_their_books(ruleset: str, options: dict) -> None:
    import random

    from test_engine_random import pick

    match = Match(ruleset, options, hands=12, first_dealer=1)
    rng = random.Random(ruleset)
    number = 0
    while not match.over:
        dealer, wind, pool = match.dealer, match.round_wind, match.carry_pool
        rnd = match.start_hand(f"{ruleset}{number}".encode())
        number += 1
        assert rnd.dealer == dealer and rnd.round_wind == wind
        while not rnd.ended:
            seat = rnd.to_act[0]
            match.apply(pick(rng, rnd.legal_actions(seat), rnd))
        result = match.history[-1]
        keeps = (
            result.winner == dealer
            if result.outcome == "win"
            else (ruleset == "jiaxing" and match.options.dealer_keeps_on_draw)
        )
        assert match.dealer == (dealer if keeps else (dealer + 1) % 4)
        advanced = not keeps and match.dealer == 1
        assert match.round_wind == ((wind + advanced) % 4 if ruleset == "jiaxing" else 0)
        if ruleset == "jiaxing":
            assert match.carry_pool == result.carry_pool_after >= 0
            assert rnd.carry_pool >= pool
    assert match.totals == [sum(r.payments[s] for r in match.history) for s in range(4)]
    assert sum(match.totals) == 0


def test_match_keeps_a_record_per_hand_that_replays() -> None:
    from baida.engine.records import replay

    match = Match("jiaxing", {"dealer_keeps_on_draw": False}, hands=2)
    drawn_hand(match, b"r1")
    next_player_wins(match)
    assert len(match.records) == 2
    assert [r["dealer"] for r in match.records] == [0, 1]
    assert match.records[1]["carry_pool"] == match.history[0].carry_pool_after
    assert all(replay(r).matches for r in match.records)


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_a_match_saved_between_hands_goes_on_the_same(ruleset: str) -> None:
    from baida.bots.policy import make_bot

    def play(match: Match, n: int) -> None:
        bots = [make_bot("greedy", seed=s) for s in range(4)]
        rnd = match.start_hand(bytes([n]) * 32)
        while not rnd.ended:
            seat = rnd.to_act[0]
            match.apply(bots[seat].choose(rnd.view(seat), rnd.legal_actions(seat)))

    live = Match(ruleset, {"allow_chi": False} if ruleset == "jiaxing" else None, hands=6)
    for n in range(3):
        play(live, n)
    saved = Match.from_state(live.state())
    assert saved.state() == live.state()
    for n in range(3, 6):
        play(live, n)
        play(saved, n)
        assert saved.state() == live.state()
    assert saved.over and live.over


def test_a_rebuilt_hand_resumes_in_its_match() -> None:
    from baida.engine import Round

    match = Match("jiaxing", hands=2)
    rnd = match.start_hand(b"\x01" * 32)
    first = rnd.legal_actions(rnd.dealer)[-1]
    match.apply(first)
    restored = Match.from_state({**match.state(), "hand_number": 0})
    assert restored.hand_number == 0
    again = Round.from_seed("jiaxing", b"\x01" * 32, dealer=restored.dealer)
    again.apply(first)
    restored.resume_hand(again)
    assert restored.current is again and restored.legal_actions(again.turn)
    other = Match.from_state({**match.state(), "hand_number": 0})
    with pytest.raises(IllegalAction, match="not dealt at this table"):
        other.resume_hand(Round.from_seed("jiaxing", b"\x01" * 32, dealer=2))
