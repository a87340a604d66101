"""Scripted Jiaxing hands for 三摊 / 承包 (RULES.md §A5.2, §A6, options of §9).

Every hand here uses ``santan_threshold: 1`` so that a single 吃/碰 makes a 承包 pair and the
scripts stay short. The wall is ``wall_from_deal``'s (indicator 9s: the wilds are 9s, which no
hand below holds; dice (1, 2): no 包子; carry pool 0), so no carry fan ever applies and the
share s of a win is base 1 × tai × 2^0 = tai.
"""

from __future__ import annotations

import pytest
from test_engine_helpers import act, pass_window, passive, scripted

from baida.tiles import parse_tile


def _fans(rnd) -> list[str]:
    return [f["name"] for f in rnd.result.score["fan"]]


def _tai(rnd) -> list[str]:
    return sorted(t["name"] for t in rnd.result.score["tai"])


def _until_turn_of(rnd, seat: int) -> None:
    """Passive play (everyone discards its draw, windows passed) until ``seat`` is to play."""
    while not (rnd.phase == "turn" and rnd.turn == seat):
        assert not rnd.ended
        passive(rnd, 1) if rnd.phase == "turn" else pass_window(rnd)


# ---------------------------------------------------------------------- 放弃, then a winning draw

GAVE_UP_HANDS = [
    "3m6m 1s4s7s E S W N C F P 2s",  # dealer: discards 3m, seat 1 chows it
    "1m2m 4m5m 7m8m 2s5s8s 3s6s E S",
    "123p456p789p 11p 23p",  # 清一色 waiting on 1p / 4p; chooses 放弃
    "E W N C F P 3m6m 1s4s7s 2m5m",
]
# Seat 2's first draw (8m) does not win and is thrown automatically; seats 3, 0, 1 draw and
# discard W, 5m, 7s (nobody can claim them); seat 2's second draw is 1p, which completes
# 1p1p 123p 123p 456p 789p.
GAVE_UP_DRAWS = "8m W 5m 7s 1p"


def _gave_up_round(**options: object):
    rnd = scripted(
        "jiaxing",
        GAVE_UP_HANDS,
        extra="5s",
        draws=GAVE_UP_DRAWS,
        options={"santan_threshold": 1, **options},
    )
    act(rnd, "discard", 0, tile="3m")
    assert rnd.to_act == (1,)
    act(rnd, "chi", 1, tiles=["1m", "2m"])
    assert rnd.phase == "santan" and rnd.to_act == (2, 3)
    assert rnd.santan_pairs == [(0, 1)]
    act(rnd, "give_up", 2)
    act(rnd, "continue", 3)
    assert rnd.phase == "turn" and rnd.turn == 1 and rnd.gave_up == {2}
    return rnd


def test_gave_up_player_is_asked_about_a_winning_draw_when_gaveup_can_win() -> None:
    rnd = _gave_up_round(gaveup_can_win=True)
    events = act(rnd, "discard", 1, tile="E")
    # The first draw (8m) does not win: it went out at once, without asking seat 2, and
    # seat 3 drew next.
    assert [(e.type, e.seat, e.data["tile"]) for e in events] == [
        ("discard", 1, "E"),
        ("draw", 2, "8m"),
        ("discard", 2, "8m"),
        ("draw", 3, "W"),
    ]
    _until_turn_of(rnd, 2)
    assert rnd.drawn[2] == parse_tile("1p")
    assert rnd.to_act == (2,)
    legal = rnd.legal_actions(2)
    # docs/engine.md: the gave-up player is asked; it may win or throw the drawn tile (摸打).
    assert {a.type for a in legal} == {"win", "discard"}
    assert [a.tile for a in legal if a.type == "discard"] == [parse_tile("1p")]
    events = act(rnd, "win", 2)
    assert [e.type for e in events] == ["win", "hand_end"]
    result = rnd.result
    assert (result.outcome, result.winner, result.win_by) == ("win", 2, "self_draw")
    # The hand: 清一色 4 + 无百搭 1 = 5 tai, no fan (not 地和: seat 2 has already discarded
    # 8m; not 海底; carry pool 0), so s = 1 × 5 × 2^0 = 5.
    assert _tai(rnd) == ["无百搭", "清一色"] and _fans(rnd) == []
    # §A5.2 has no row for a winner who gave up; the general rule of §A6 applies: the winner
    # has no partner (a player who gave up is in no pair), "any other non-gave-up player pays 2
    # if the winner or the payer is in any relationship; otherwise 1". Seats 0 and 1 are the
    # pair (0, 1): 2 × 5 = 10 each. Seat 3 continued and is in no pair, nor is the winner:
    # 1 × 5 = 5. (The same as the row "winner is a continuing 非承包方".) Winner: 10+10+5 = 25.
    assert result.payments == [-10, -10, 25, -5]
    assert sum(result.payments) == 0


def test_gave_up_player_throws_its_winning_draw_by_default() -> None:
    rnd = _gave_up_round()  # gaveup_can_win: false (the default, J-A12)
    assert rnd.options.gaveup_can_win is False
    start = len(rnd.events)
    act(rnd, "discard", 1, tile="E")
    asked = set()
    while not rnd.ended:
        asked.update(rnd.to_act)
        passive(rnd, 1) if rnd.phase == "turn" else pass_window(rnd)
    assert 2 not in asked  # never asked anything after 放弃, winning tile or not
    later = rnd.events[start:]
    mine = [(e.type, e.data.get("tile")) for e in later if e.seat == 2]
    # 8m, then the winning 1p: both drawn and discarded at once, with no decision of seat 2.
    assert mine[:4] == [("draw", "8m"), ("discard", "8m"), ("draw", "1p"), ("discard", "1p")]
    i = next(i for i, e in enumerate(later) if e.type == "draw" and e.data["tile"] == "1p")
    assert (later[i + 1].type, later[i + 1].seat) == ("discard", 2)
    assert not any(e.type == "win" for e in rnd.events)
    assert rnd.result.outcome == "draw" and rnd.result.payments == [0, 0, 0, 0]


# ---------------------------------------------------------------------- two 三摊 pairs


DISJOINT_HANDS = [
    "3m6m 1p4p7p W N F P 2p5p8p S",  # dealer (A): discards 3m
    "1m2m 4m5m 7m8m 2p3p6p E E S W",  # B: chows 3m from A -> pair A-B
    "C 1m4m7m 3p6p9p 2m5m8m W N F",  # C: discards C
    "CC 111s 234s 567s 8s N",  # D: pons C from C -> pair C-D, then wins on 8s
]
# Seat 2 draws P (keeps it, throws C); after D's 碰 and discard, seats 0, 1, 2 draw and throw
# 5m, 1p, 7p (nobody can claim them); D draws 8s: 碰CCC 111s 234s 567s 88s.
DISJOINT_DRAWS = "P 5m 1p 7p 8s"


def test_two_disjoint_pairs_ask_nobody_the_second_time_and_settle() -> None:
    rnd = scripted(
        "jiaxing",
        DISJOINT_HANDS,
        extra="9m",
        draws=DISJOINT_DRAWS,
        options={"santan_threshold": 1},
    )
    act(rnd, "discard", 0, tile="3m")
    act(rnd, "chi", 1, tiles=["1m", "2m"])
    first = rnd.events[-1]
    assert (first.type, first.data) == ("santan", {"pair": [1, 0], "asks": [2, 3]})
    assert rnd.phase == "santan" and rnd.to_act == (2, 3)
    assert rnd.legal_actions(0) == [] and rnd.legal_actions(1) == []  # partners are not asked
    act(rnd, "continue", 2)
    act(rnd, "continue", 3)
    act(rnd, "discard", 1, tile="S")
    assert rnd.turn == 2 and rnd.drawn[2] == parse_tile("P")
    act(rnd, "discard", 2, tile="C")
    assert rnd.phase == "claim" and rnd.to_act == (3,)
    events = act(rnd, "pon", 3)
    # The second pair: every seat is now in a pair, so nobody is asked and play goes on
    # (docs/engine.md: "No one is asked if no such seat exists").
    assert [e.type for e in events] == ["pon", "santan"]
    assert events[1].data == {"pair": [3, 2], "asks": []}
    assert rnd.phase == "turn" and rnd.turn == 3 and rnd.to_act == (3,)
    assert rnd.santan_pairs == [(0, 1), (2, 3)]
    for seat in (None, 0, 1, 2, 3):
        assert rnd.view(seat).to_json()["santan_pairs"] == [[0, 1], [2, 3]]
    assert not rnd.gave_up
    act(rnd, "discard", 3, tile="N")
    _until_turn_of(rnd, 3)
    assert rnd.drawn[3] == parse_tile("8s")
    act(rnd, "win", 3)
    result = rnd.result
    assert (result.winner, result.win_by) == (3, "self_draw")
    # 碰CCC 111s 234s 567s 88s: 混一色 2 + 红中刻 1 + 无百搭 1 = 4 tai, no fan: s = 4.
    assert _tai(rnd) == ["无百搭", "混一色", "红中刻"] and _fans(rnd) == []
    # §A6 "partners of the winner pay 5; any other non-gave-up player pays 2 if the winner or
    # the payer is in any relationship": seat 2 (D's partner) 5 × 4 = 20; seats 0 and 1 (the
    # other pair, and the winner is in a pair too) 2 × 4 = 8 each. Winner: 20 + 8 + 8 = 36.
    assert result.payments == [-8, -8, -20, 36]


CHAINED_HANDS = [
    "3m6m 1p4p7p W N F P 2p5p8p S",  # dealer: discards 3m, seat 1 chows it -> pair (0, 1)
    "1m2m 456m 789m 22m 55m 4p",  # chows 3m, throws 4p; then waits on 2m / 5m
    "5p6p 1s4s7s C F P W N 3p8p S",  # chows 4p from seat 1 -> pair (1, 2); throws C
    "2s5s8s 3s6s 7p9p E S 1s4s 6p3p",  # outside both pairs: asked again
]
# Seat 3 draws 7m, seat 0 draws 1s (both thrown, nobody can claim), seat 1 draws 5m:
# 吃123m 456m 789m 555m 22m.
CHAINED_DRAWS = "7m 1s 5m"


@pytest.mark.parametrize("choice,m3", [("give_up", 0), ("continue", 2)])
def test_second_pair_asks_the_seat_outside_every_pair_again(choice: str, m3: int) -> None:
    rnd = scripted(
        "jiaxing",
        CHAINED_HANDS,
        extra="9m",
        draws=CHAINED_DRAWS,
        options={"santan_threshold": 1},
    )
    act(rnd, "discard", 0, tile="3m")
    act(rnd, "chi", 1, tiles=["1m", "2m"])
    assert rnd.to_act == (2, 3)
    act(rnd, "continue", 2)
    act(rnd, "continue", 3)
    act(rnd, "discard", 1, tile="4p")
    assert rnd.phase == "claim" and rnd.to_act == (2,)
    events = act(rnd, "chi", 2, tiles=["5p", "6p"])
    assert [e.type for e in events] == ["chi", "santan"]
    assert events[1].data == {"pair": [2, 1], "asks": [3]}
    # docs/engine.md: "the seats outside every pair that have not given up are asked again".
    assert rnd.phase == "santan" and rnd.to_act == (3,)
    assert {a.type for a in rnd.legal_actions(3)} == {"continue", "give_up"}
    assert all(rnd.legal_actions(s) == [] for s in (0, 1, 2))
    assert rnd.santan_pairs == [(0, 1), (1, 2)]
    assert rnd.view(None).to_json()["santan_pairs"] == [[0, 1], [1, 2]]
    act(rnd, choice, 3)
    assert rnd.phase == "turn" and rnd.turn == 2
    assert rnd.view(None).players[3].gave_up == (choice == "give_up")
    act(rnd, "discard", 2, tile="C")
    _until_turn_of(rnd, 1)
    assert rnd.drawn[1] == parse_tile("5m")
    act(rnd, "win", 1)
    result = rnd.result
    assert (result.winner, result.win_by) == (1, "self_draw")
    # 吃123m 456m 789m 555m 22m: 清一色 4 + 无百搭 1 = 5 tai, no fan: s = 5.
    assert _tai(rnd) == ["无百搭", "清一色"] and _fans(rnd) == []
    # Seat 1 is in both pairs: its partners 0 and 2 pay 5 × 5 = 25 each. Seat 3 pays 0 if it
    # gave up (§A5.2 "players who gave up 0"), else 2 × 5 = 10 (the winner is in a relationship).
    assert result.payments == [-25, 50 + 5 * m3, -25, -5 * m3]


# ---------------------------------------------------------------------- J-A22: 放弃, then a pair

GAVE_UP_PAIR_HANDS = [
    "3m6m 1s4s7s E S W N C F P 2s",  # dealer: discards 3m, seat 1 chows it -> pair (0, 1)
    "1m2m 4m5m 7m8m 2s5s8s 3s6s E S",  # chows 3m, throws E
    "123p456p789p 11p 23p",  # 清一色 waiting on 1p / 4p; chooses 放弃
    "CC 111s 234s 567s 8s N",  # continues; pons the C seat 2 throws automatically
]


def _gave_up_then_paired(draws: str, **options: object):
    """Seat 2 gives up after the pair (0, 1); its automatic discard of C is then pon-ed by
    seat 3, which makes seat 2 half of a second pair (2, 3) (J-A22)."""
    rnd = scripted(
        "jiaxing",
        GAVE_UP_PAIR_HANDS,
        extra="5s",
        draws=draws,
        options={"santan_threshold": 1, **options},
    )
    act(rnd, "discard", 0, tile="3m")
    act(rnd, "chi", 1, tiles=["1m", "2m"])
    act(rnd, "give_up", 2)
    act(rnd, "continue", 3)
    events = act(rnd, "discard", 1, tile="E")
    assert [(e.type, e.seat, e.data["tile"]) for e in events] == [
        ("discard", 1, "E"), ("draw", 2, "C"), ("discard", 2, "C"),
    ]
    assert rnd.phase == "claim" and rnd.to_act == (3,)
    events = act(rnd, "pon", 3)
    # The claim on a gave-up seat's automatic discard counts like any claim: a second pair,
    # and nobody is left to ask (every seat is in a pair or gave up).
    assert [e.type for e in events] == ["pon", "santan"]
    assert events[1].data == {"pair": [3, 2], "asks": []}
    assert rnd.santan_pairs == [(0, 1), (2, 3)] and rnd.gave_up == {2}
    assert rnd.view(None).players[2].gave_up
    act(rnd, "discard", 3, tile="N")
    return rnd


def test_a_gave_up_seat_in_a_pair_pays_nothing_as_its_partner_wins() -> None:
    # Seats 0, 1 and 2 draw and throw 5m, W, 7p (nobody claims them); seat 3 draws 8s:
    # 碰CCC 111s 234s 567s 88s.
    rnd = _gave_up_then_paired("C 5m W 7p 8s")
    _until_turn_of(rnd, 3)
    assert rnd.drawn[3] == parse_tile("8s")
    act(rnd, "win", 3)
    result = rnd.result
    assert (result.winner, result.win_by) == (3, "self_draw")
    # 混一色 2 + 红中刻 1 + 无百搭 1 = 4 tai, no fan: s = 4.
    assert _tai(rnd) == ["无百搭", "混一色", "红中刻"] and _fans(rnd) == []
    # J-A22: seat 2 is seat 3's 承包 partner but gave up: 放弃 wins over 承包, it pays 0.
    # Seats 0 and 1 are in a pair (and the winner is in one): 2 × 4 = 8 each.
    assert result.payments == [-8, -8, 0, 16]
    assert result.score["payments"] == {"E": -8, "S": -8, "W": 0, "N": 16}


def test_a_gave_up_seat_in_a_pair_that_wins_is_paid_five_shares_by_its_partner() -> None:
    # Seats 0 and 1 draw and throw 5m, W; seat 2 (gaveup_can_win) draws 1p, is asked, wins:
    # 11p 123p 123p 456p 789p.
    rnd = _gave_up_then_paired("C 5m W 1p", gaveup_can_win=True)
    _until_turn_of(rnd, 2)
    assert rnd.drawn[2] == parse_tile("1p")
    assert {a.type for a in rnd.legal_actions(2)} == {"win", "discard"}
    act(rnd, "win", 2)
    result = rnd.result
    assert (result.winner, result.win_by) == (2, "self_draw")
    # 清一色 4 + 无百搭 1 = 5 tai, no fan: s = 5.
    assert _tai(rnd) == ["无百搭", "清一色"] and _fans(rnd) == []
    # J-A22: its partner (seat 3) pays 5 × 5 = 25; seats 0 and 1 (a pair, and the winner is
    # in one) 2 × 5 = 10 each.
    assert result.payments == [-10, -10, 45, -25]
