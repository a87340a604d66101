"""Scripted Jiaxing hands: one test per rule of RULES.md part A that the engine enforces."""

from __future__ import annotations

import pytest
from test_engine_helpers import act, pass_window, passive, scripted, snapshot

from baida.engine import IllegalAction
from baida.tiles import parse_tile

CLAIM_HANDS = [
    "3p 1m4m7m 1s4s7s E S W N C F",
    "12p 2m5m8m 2s5s8s E S W N C",
    "3m6m9m 3s6s8p F P E S W N C",
    "3p3p 1m4m7m 1s4s7s F P W N C",
]


def claim_round(**options: object):
    rnd = scripted("jiaxing", CLAIM_HANDS, extra="P", options=options)
    act(rnd, "discard", 0, tile="3p")
    return rnd


def test_pon_beats_chi_whatever_the_answer_order() -> None:
    rnd = claim_round()
    assert rnd.phase == "claim" and rnd.to_act == (1, 3)
    assert {a.type for a in rnd.legal_actions(1)} == {"pass", "chi"}
    assert {a.type for a in rnd.legal_actions(3)} == {"pass", "pon"}
    assert act(rnd, "chi", 1, tiles=["1p", "2p"]) == []  # waits for seat 3
    assert rnd.to_act == (3,)
    events = act(rnd, "pon", 3)
    assert [e.type for e in events] == ["pon"]
    assert rnd.turn == 3 and rnd.phase == "turn"
    assert rnd.melds[3][0].kind == "pon" and rnd.melds[3][0].from_seat == 0
    assert {a.type for a in rnd.legal_actions(3)} == {"discard"}  # after 碰 only a discard
    assert rnd.claim_counts[3][0] == 1
    assert rnd.view(0).to_json()["players"][0]["claimed"] == [0]


def test_chi_when_the_pon_is_declined() -> None:
    rnd = claim_round()
    act(rnd, "pass", 3)
    events = act(rnd, "chi", 1, tiles=["2p", "1p"])
    assert events[0].type == "chi" and events[0].data["meld"]["tiles"] == ["1p", "2p", "3p"]
    assert rnd.turn == 1


def test_a_table_without_chi() -> None:
    rnd = claim_round(allow_chi=False)
    assert rnd.to_act == (3,)
    before = snapshot(rnd)
    with pytest.raises(IllegalAction, match="this table forbids 吃"):
        act(rnd, "chi", 1, tiles=["1p", "2p"])
    assert snapshot(rnd) == before


@pytest.mark.parametrize(
    "action,message",
    [
        # seat 2 is not asked: the same answer as when no window is open (who else may claim
        # is private), whatever it sends
        ({"type": "chi", "seat": 2, "tiles": ["1p", "2p"]}, "^not your decision now$"),
        ({"type": "pon", "seat": 2}, "^not your decision now$"),
        ({"type": "chi", "seat": 3, "tiles": ["1p", "2p"]}, "吃 only from the player on your left"),
        ({"type": "chi", "seat": 1, "tiles": ["1p", "4p"]}, "you cannot 吃 3p with those tiles"),
        ({"type": "win", "seat": 3}, "硬自摸: no win on a discard"),
        ({"type": "pon", "seat": 1}, "碰 needs two 3p"),
        ({"type": "discard", "seat": 3, "tile": "C"}, "answer the claim on 3p first"),
        ({"type": "discard", "seat": 0, "tile": "C"}, "not your decision now"),
    ],
)
def test_refused_claims_explain_and_change_nothing(action: dict, message: str) -> None:
    rnd = claim_round()
    before = snapshot(rnd)
    with pytest.raises(IllegalAction, match=message):
        rnd.apply(action)
    assert snapshot(rnd) == before


KONG_HANDS = [
    "EEEE 1m4m7m 1s4s7s 2p5p8p",
    "2m5m8m 2s5s8s 3p6p9p SSS W",
    "3m6m9m 3s6s 1p4p7p NNN WW",
    "1m4m7m 1s4s7s 2p5p8p FFF P",
]


def test_concealed_kong_draws_its_replacement_from_the_tail() -> None:
    rnd = scripted("jiaxing", KONG_HANDS, extra="C", tail="5s")
    head, tail = rnd.head, rnd.tail
    events = act(rnd, "akong", 0, tile="E")
    assert [e.type for e in events] == ["akong", "draw"]
    assert events[1].data == {"tile": "5s", "source": "kong", "remaining": tail - head - 1}
    assert rnd.head == head and rnd.tail == tail - 1
    assert rnd.view(1).players[0].melds == [{"type": "akong", "tiles": None, "from": None}]
    assert rnd.view(0).players[0].melds[0]["tiles"] == ["E"] * 4
    assert events[0].for_seat(1)["tile"] is None and events[1].for_seat(1)["tile"] is None
    assert rnd.turn == 0 and any(a.type == "discard" for a in rnd.legal_actions(0))


SANTAN_HANDS = [
    "3m6m9m 1s4s7s 2p5p8p E S W N",
    "12m45m78m 2s5s8s 3p6p E S",
    "3s6s 1p4p7p W N C F P 1m 4m 7m",
    "2s5s8s 3p6p9p 3m6m 1s4s EE F",
]


def _to_dealer_turn(rnd) -> None:
    while not (rnd.phase == "turn" and rnd.turn == 0):
        passive(rnd, 1) if rnd.phase == "turn" else pass_window(rnd)


def _chi_from_dealer(rnd, tile: str, own: list[str], then: str | None) -> None:
    _to_dealer_turn(rnd)
    act(rnd, "discard", 0, tile=tile)
    for seat in rnd.to_act:
        if seat != 1:
            act(rnd, "pass", seat)
    act(rnd, "chi", 1, tiles=own)
    if then is not None:
        act(rnd, "discard", 1, tile=then)


def test_santan_counts_claims_and_pauses_for_the_others() -> None:
    rnd = scripted("jiaxing", SANTAN_HANDS, extra="C")
    _chi_from_dealer(rnd, "3m", ["1m", "2m"], "S")
    _chi_from_dealer(rnd, "6m", ["4m", "5m"], "3p")
    assert rnd.claim_counts[1][0] == 2 and rnd.phase != "santan"
    _chi_from_dealer(rnd, "9m", ["7m", "8m"], None)
    assert rnd.phase == "santan" and rnd.to_act == (2, 3)
    assert rnd.events[-1].type == "santan" and rnd.events[-1].data["pair"] == [1, 0]
    assert rnd.santan_pairs == [(0, 1)]
    assert {a.type for a in rnd.legal_actions(2)} == {"continue", "give_up"}
    with pytest.raises(IllegalAction, match="not your decision now"):
        act(rnd, "discard", 1, tile="E")
    act(rnd, "give_up", 2)
    assert rnd.to_act == (3,)
    act(rnd, "continue", 3)
    assert rnd.phase == "turn" and rnd.turn == 1
    assert rnd.view(None).players[2].gave_up
    # Seat 2 now only draws and discards, automatically, and is never asked about a claim.
    gave_up_at = len(rnd.events)
    act(rnd, "discard", 1, tile="E")
    while not rnd.ended and rnd.discard_count < 40:
        assert 2 not in rnd.to_act
        passive(rnd, 1) if rnd.phase == "turn" else pass_window(rnd)
    later = rnd.events[gave_up_at:]
    auto = [i for i, e in enumerate(later) if e.type == "draw" and e.seat == 2]
    assert len(auto) >= 3
    for i in auto:
        follow = later[i + 1]
        assert (follow.type, follow.seat, follow.data["tile"]) == (
            "discard",
            2,
            later[i].data["tile"],
        )
    gave = next(i for i, a in enumerate(rnd.actions) if a.type == "give_up")
    assert all(a.seat != 2 for a in rnd.actions[gave + 1 :])


def test_santan_threshold_and_switch() -> None:
    rnd = scripted("jiaxing", SANTAN_HANDS, extra="C", options={"santan_threshold": 2})
    _chi_from_dealer(rnd, "3m", ["1m", "2m"], "S")
    _chi_from_dealer(rnd, "6m", ["4m", "5m"], None)
    assert rnd.phase == "santan"
    off = scripted("jiaxing", SANTAN_HANDS, extra="C", options={"santan_enabled": False})
    _chi_from_dealer(off, "3m", ["1m", "2m"], "S")
    _chi_from_dealer(off, "6m", ["4m", "5m"], "3p")
    _chi_from_dealer(off, "9m", ["7m", "8m"], None)
    assert off.phase == "turn" and off.claim_counts[1][0] == 3 and not off.santan_pairs


def rob_round(robber: str, third: str):
    hands = [
        "5p 1m4m7m 1s4s7s E S W N C F",
        "5p5p 2m5m8m 2s5s8s S W N C F",
        robber,
        third,
    ]
    rnd = scripted("jiaxing", hands, extra="P", draws="2s2s2s5p")
    act(rnd, "discard", 0, tile="5p")
    act(rnd, "pon", 1)
    act(rnd, "discard", 1, tile="C")
    while not (rnd.phase == "turn" and rnd.turn == 1):
        passive(rnd, 1) if rnd.phase == "turn" else pass_window(rnd)
    assert rnd.drawn[1] == parse_tile("5p")
    return rnd


def test_rob_a_kong_allowed() -> None:
    rnd = rob_round("123p123p789p444p6p", "3m6m9m 3s6s F P W N C 1m4m7m")
    events = act(rnd, "bukong", 1, tile="5p")
    assert [e.type for e in events] == ["bukong"]
    assert rnd.phase == "rob" and rnd.to_act == (2,)
    for seat in (0, 1, 2, 3, None):
        assert rnd.view(seat).robbable == {"seat": 1, "tile": "5p"}
    events = act(rnd, "win", 2)
    assert [e.type for e in events] == ["kong_robbed", "win", "hand_end"]
    result = rnd.result
    assert result.winner == 2 and result.win_by == "rob_kong" and result.from_seat == 1
    assert result.payments == [0, -15, 15, 0]  # 清一色 4 + 无百搭 1 = 5, robbed pays 3 shares
    assert rnd.melds[1][0].kind == "pon"  # the robbed kong stays a 碰


def test_rob_a_kong_refused_for_a_wild_pair() -> None:
    rnd = rob_round("222m333s666sEEE9s", "3m6m9m 1p4p7p 2p8p F P C 4s7s")
    events = act(rnd, "bukong", 1, tile="5p")
    assert [e.type for e in events] == ["bukong", "draw"]
    assert events[1].data["source"] == "kong"
    assert rnd.melds[1][0].kind == "bukong" and rnd.phase == "turn" and rnd.turn == 1


def test_rob_refusal_explained() -> None:
    rnd = rob_round("222m333s666sEEE9s", "3m6m9m 1p4p7p 2p8p F P C 4s7s")
    act(rnd, "bukong", 1, tile="5p")
    with pytest.raises(IllegalAction):
        act(rnd, "win", 2)


@pytest.mark.parametrize("reserve", [0, 10])
def test_exhaustive_draw_keeps_the_reserve(reserve: int) -> None:
    from baida.engine import Round

    rnd = Round.from_seed("jiaxing", b"draw", options={"wall_reserve": reserve})
    passive(rnd)
    assert rnd.result.outcome == "draw" and rnd.remaining == reserve
    last = rnd.events[-2]
    assert last.type == "discard"  # the last discard is not claimable: the hand just ends
    assert rnd.result.carry_pool_after == rnd.carry_pool + 1


OTHERS = [
    "123p456p789p 1s2s3s E",
    "123p456p789p 4s5s6s S",
    "11p22p33p 44s55s66s W",
]


def test_heavenly_hand() -> None:
    rnd = scripted("jiaxing", ["111m222m333m456m7m", *OTHERS], extra="7m")
    act(rnd, "win", 0)
    names = [f["name"] for f in rnd.result.score["fan"]]
    assert "天和" in names and rnd.result.winner == 0


def test_kong_then_win_is_gangkai_not_heavenly() -> None:
    rnd = scripted("jiaxing", ["1111m222m333m567m", *OTHERS], extra="9m", tail="9m")
    assert not any(a.type == "win" for a in rnd.legal_actions(0))
    act(rnd, "akong", 0, tile="1m")
    act(rnd, "win", 0)
    names = [f["name"] for f in rnd.result.score["fan"]]
    assert "杠上开花" in names and "天和" not in names


def test_earthly_hand() -> None:
    hands = ["123p456p789p 1s2s E 7s", "111m222m333m456m7m", OTHERS[1], OTHERS[2]]
    rnd = scripted("jiaxing", hands, extra="N", draws="7m")
    act(rnd, "discard", 0, tile="N")
    pass_window(rnd)
    act(rnd, "win", 1)
    assert "地和" in [f["name"] for f in rnd.result.score["fan"]]


def test_last_tile_win_is_haidi() -> None:
    hands = ["123p456p789p 1s2s E 7s", OTHERS[1], "111m222m333m456m7m", OTHERS[2]]
    rnd = scripted("jiaxing", hands, extra="N", tail="7m")
    while not (rnd.remaining == 0 and rnd.phase == "turn"):
        passive(rnd, 1) if rnd.phase == "turn" else pass_window(rnd)
    assert rnd.turn == 2 and rnd.drawn[2] == parse_tile("7m")
    act(rnd, "win", 2)
    assert "海底捞月" in [f["name"] for f in rnd.result.score["fan"]]
    assert sum(rnd.result.payments) == 0


DISCARD_WIN_HANDS = [
    "5p 1m4m7m 1s4s7s E S W N C F",
    "123p123p789p444p6p",
    "5p5p 2m5m8m 2s5s8s S W N C F",
    "3m6m9m 3s6s F P W N C 1m4m7m",
]


def test_discard_win_variant_beats_pon() -> None:
    rnd = scripted("jiaxing", DISCARD_WIN_HANDS, extra="P", options={"allow_discard_win": True})
    act(rnd, "discard", 0, tile="5p")
    assert "win" in {a.type for a in rnd.legal_actions(1)}
    act(rnd, "pon", 2)
    act(rnd, "win", 1)
    result = rnd.result
    assert (result.winner, result.win_by, result.from_seat) == (1, "discard", 0)
    assert result.payments[0] < 0 and result.payments[2] == result.payments[3] == 0


def test_no_discard_win_by_default() -> None:
    rnd = scripted("jiaxing", DISCARD_WIN_HANDS, extra="P")
    act(rnd, "discard", 0, tile="5p")
    assert "win" not in {a.type for a in rnd.legal_actions(1)}
    assert "chi" in {a.type for a in rnd.legal_actions(1)}


def test_a_discarded_wild_is_dead() -> None:
    hands = ["9s 1m4m7m 1s4s7s E S W N C F", *DISCARD_WIN_HANDS[1:]]
    rnd = scripted("jiaxing", hands, extra="P", options={"allow_discard_win": True})
    events = act(rnd, "discard", 0, tile="9s")  # 9s is the wild: seat 1 would win on it
    assert [e.type for e in events] == ["discard", "draw"] and rnd.turn == 1
