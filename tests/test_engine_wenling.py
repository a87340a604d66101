"""Scripted Wenling hands: one test per rule of RULES.md part B that the engine enforces."""

from __future__ import annotations

import pytest
from test_engine_helpers import act, discard_drawn, pass_window, passive, scripted, snapshot

from baida.engine import IllegalAction, Round
from baida.engine.wall import wall_from_deal
from baida.tiles import parse_tile, parse_tiles

WAIT = "123m456m789m123s456s 5p"


def three_waits():
    return scripted("wenling", ["123m456m789m123s456s E", WAIT, WAIT, WAIT], extra="5p")


def test_several_wins_on_one_discard_go_to_the_next_player_first() -> None:
    rnd = three_waits()
    act(rnd, "discard", 0, tile="5p")
    assert rnd.to_act == (1, 2, 3)
    act(rnd, "win", 3)
    act(rnd, "win", 2)
    act(rnd, "win", 1)
    assert rnd.result.winner == 1 and rnd.result.win_by == "discard" and rnd.result.from_seat == 0
    assert sum(rnd.result.payments) == 0 and rnd.result.payments[1] > 0


def test_when_the_next_player_passes_the_opposite_wins() -> None:
    rnd = three_waits()
    act(rnd, "discard", 0, tile="5p")
    act(rnd, "pass", 1)
    act(rnd, "win", 3)
    act(rnd, "win", 2)
    assert rnd.result.winner == 2


PASS_DEALER = "E 1m4m7m 1p4p7p 1s4s7s 2m5m8m 2p5p8p"
PASS_SEAT2 = "EE 1m4m7m 1p4p7p 1s4s7s 2m5m 2p 8m 5p"


def test_pon_pass_restriction_until_a_draw() -> None:
    hands = [
        PASS_DEALER,
        "E 3m6m 3p6p 3s6s 2s5s8s 9m 9p SS WW",
        PASS_SEAT2,
        "3m6m 3p6p 3s6s 2s5s8s 9m 9p NN W CC",
    ]
    rnd = scripted("wenling", hands, extra="C", draws="9m 9p 3m")
    act(rnd, "discard", 0, tile="E")
    assert rnd.to_act == (2,) and any(a.type == "pon" for a in rnd.legal_actions(2))
    act(rnd, "pass", 2)
    assert rnd.turn == 1
    act(rnd, "discard", 1, tile="E")  # seat 2 has not drawn since it passed: no 碰 now
    assert rnd.phase == "turn" and rnd.turn == 2


def test_pon_allowed_again_after_drawing() -> None:
    hands = [
        PASS_DEALER,
        "3m6m 3p6p 3s6s 2s5s8s 9m 9p SS WW C",
        PASS_SEAT2,
        "E 3m6m 3p6p 3s6s 2s5s8s 9m 9p NN W C",
    ]
    rnd = scripted("wenling", hands, extra="C", draws="9m 9p 3m")
    act(rnd, "discard", 0, tile="E")
    act(rnd, "pass", 2)
    discard_drawn(rnd)  # seat 1
    pass_window(rnd)
    discard_drawn(rnd)  # seat 2 drew: the restriction is lifted
    pass_window(rnd)
    assert rnd.turn == 3
    act(rnd, "discard", 3, tile="E")
    assert rnd.phase == "claim" and any(a.type == "pon" for a in rnd.legal_actions(2))


SCATTER = [
    "1m4m7m 1p4p7p 1s4s7s 2m5m8m 2p5p8p E",
    "2s5s8s 3m6m 3p6p 3s6s 9m 9p S W N C F",
    "1m4m7m 1p4p7p 1s4s7s 2m5m8m 2p5p8p S",
]


def test_specials_in_the_deal_are_replaced_from_the_tail_dealer_first() -> None:
    dealer = "P f1 1m4m7m 1p4p7p 1s4s7s 3m6m 3p6p 3s"
    rnd = scripted(
        "wenling", [dealer, SCATTER[1], SCATTER[2], SCATTER[0]], extra="E", tail="2s f2 3m"
    )
    assert [parse_tiles("P f1 f2")[i] for i in range(3)] == rnd.flowers[0]
    assert rnd.concealed_count(0) == 17
    hand = rnd.concealed(0)
    assert parse_tile("2s") in hand and parse_tile("3m") in hand
    kinds = [(e.type, e.data.get("tile"), e.data.get("source")) for e in rnd.events if e.seat == 0]
    assert kinds[-6:] == [
        ("flower", "P", None),
        ("draw", "2s", "special"),
        ("flower", "f1", None),
        ("draw", "f2", "special"),
        ("flower", "f2", None),
        ("draw", "3m", "special"),
    ]
    assert rnd.view(1).players[0].flowers == ["P", "f1", "f2"]


def test_three_de_is_a_lazi_on_ones_own_turn() -> None:
    dealer = "5m5m5m 1p4p7p 1s4s7s 3m6m 2p8p 3s W C"
    others = [
        SCATTER[1],
        "1m4m7m 1p4p7p 1s4s7s 2m8m 2p5p8p S N",
        "1m4m7m 1p4p7p 1s4s7s 2m8m 2p5p8p E N",
    ]
    rnd = scripted("wenling", [dealer, *others], extra="E", indicator="5m")
    assert any(a.type == "lazi" for a in rnd.legal_actions(0))
    events = act(rnd, "lazi", 0)
    assert events[0].type == "win" and events[0].data["win_by"] == "lazi"
    assert rnd.result.score["points"] == 500
    assert rnd.result.payments[0] >= 150 and sum(rnd.result.payments) == 0


@pytest.mark.parametrize("indicator,wild", [("5m", True), ("6m", False)])
def test_a_discarded_de_is_dead_and_bars_its_discarder(indicator: str, wild: bool) -> None:
    dealer = "5m 123p456p789p 123s456s"
    seat1 = "E 3m6m 3s6s 9m 9p SS WW NN CC F"
    seat2 = "1m4m7m 1p4p7p 2m 8m 2p 8p 7s 8s 9m 9p S F"
    seat3 = "1m4m7m 4s7s 2m 8m 2p 8p 7s 8s 3m 6m N C F"
    rnd = scripted("wenling", [dealer, seat1, seat2, seat3], extra="E", indicator=indicator)
    events = act(rnd, "discard", 0, tile="5m")
    pass_window(rnd)
    assert rnd.turn == 1 and rnd.discarded_wild[0] == wild
    if wild:
        assert [e.type for e in events] == ["discard", "draw"]  # a dead tile: no claim window
    act(rnd, "discard", 1, tile="E")  # seat 0 waits on E, but may not win after discarding 得
    assert (0 in rnd.to_act) != wild
    if not wild:
        assert [a.type for a in rnd.legal_actions(0)] == ["pass", "win"]


@pytest.mark.parametrize("pairs,left", [(8, (16, 17)), (4, (8, 9))])
def test_huangpai_and_sheng_phase_thresholds(pairs: int, left: tuple[int, int]) -> None:
    rnd = Round.from_seed("wenling", b"huang", options={"huangpai_pairs": pairs})
    passive(rnd)
    assert rnd.result.outcome == "draw" and rnd.remaining in left
    assert rnd.result.payments == [0, 0, 0, 0] and rnd.result.score is None
    announced = [e for e in rnd.events if e.type == "sheng_phase"]
    assert len(announced) == 1 and announced[0].data["remaining"] == 31
    first = rnd.events.index(announced[0])
    before = [e for e in rnd.events[:first] if e.type == "draw"]
    assert before[-1].data["remaining"] == 31 and all(e.data["remaining"] > 31 for e in before[:-1])


# ---------------------------------------------------------------------- 包三家

D_KINDS = parse_tiles("1p3p7p ESWN CF")
BAO_OTHERS = [
    WAIT,
    "2p2p 4p4p 6p6p 8p8p 7s7s 8s8s 9p9p 1m 2m",
    "2p2p 4p4p 6p6p 8p8p 7s7s 8s8s 9p9p 3m4m",
]


def bao_round(
    dealer: str,
    extra: str,
    when: int = 48,
    indicator: str = "9s",
    keep: list[int] = D_KINDS,
    **options: object,
) -> Round:
    """Seat 0 (dealer) draws 5p on draw number ``when`` and seat 1 waits on it; the ``keep``
    kinds stay 生 (only seats 2 and 3 draw them, and never throw them)."""
    hands = [dealer, *BAO_OTHERS]
    pool: dict[int, int] = {k: 4 for k in range(34)}
    for tile in parse_tiles(" ".join(hands) + extra):
        pool[tile] -= 1
    pool[parse_tile("5p")] = 0
    pool[parse_tile(indicator)] = 0
    pool[parse_tile("P")] = 0
    plain = [k for k in range(34) if k not in keep for _ in range(pool[k])]
    d_pool = [k for k in keep for _ in range(pool[k])]
    draws = []
    for k in range(1, when):
        seat = k % 4
        draws.append(d_pool.pop() if seat in (2, 3) and d_pool else plain.pop())
    draws.append(parse_tile("5p"))
    from baida.engine.wall import wall_from_deal

    wall = wall_from_deal(
        "wenling",
        [parse_tiles(h) for h in hands],
        draws=draws,
        indicator=parse_tile(indicator),
        dealer_extra=parse_tile(extra),
    )
    return Round.from_wall("wenling", wall, (1, 2), options=options)


def bao_until_5p(rnd: Round, first: str, keep: list[int] = D_KINDS) -> None:
    """Play until the dealer has drawn 5p (the keep kinds stay 生)."""
    act(rnd, "discard", 0, tile=first)
    five = parse_tile("5p")
    while not (rnd.phase == "turn" and rnd.turn == 0 and rnd.drawn[0] == five):
        if rnd.phase != "turn":
            pass_window(rnd)
        elif rnd.turn in (0, 1):
            discard_drawn(rnd)
        else:
            legal = [a for a in rnd.legal_actions(rnd.turn) if a.type == "discard"]
            rnd.apply(next(a for a in legal if a.tile not in keep and a.tile != five))


def bao_play(rnd: Round, first: str, keep: list[int] = D_KINDS) -> None:
    bao_until_5p(rnd, first, keep)
    act(rnd, "discard", 0, tile="5p")
    assert rnd.to_act == (1,)
    act(rnd, "win", 1)


ALL_SHENG = "1p1p 3p3p 7p7p EE SS WW NN C F"


def test_baosanjia_liable_when_the_hand_was_not_all_sheng() -> None:
    rnd = bao_round(ALL_SHENG, extra="F")
    bao_play(rnd, "F")  # F is no longer 生, and seat 0 still holds one
    result = rnd.result
    assert rnd.sheng_phase and result.winner == 1 and result.liable == 0
    assert result.payments[0] < 0 and result.payments[2] >= 0 and result.payments[3] >= 0
    assert result.score["totals"]["E"] == 0  # the liable seat's total is zeroed


def test_baosanjia_exempt_when_all_sheng_and_not_tenpai() -> None:
    rnd = bao_round(ALL_SHENG, extra="5m")
    bao_play(rnd, "5m")
    assert rnd.result.winner == 1 and rnd.result.liable is None


def test_baosanjia_exempt_when_the_only_wait_is_dead() -> None:
    # after throwing 5p the hand is 1111p 777p EEE SSS WWW: its only wait, 1p, is a fifth
    # copy that cannot come, so it is not ready (docs/evaluator.md) and the exemption holds
    rnd = bao_round("1p1p1p1p 7p7p7p EEE SSS WWW", extra="5m")
    bao_play(rnd, "5m")
    assert rnd.result.winner == 1 and rnd.result.liable is None


DE_FACE_WAIT = "1p1p 7p7p7p EEE SSS WWW 4s6s"
DE_FACE_KEEP = D_KINDS + parse_tiles("4s6s")


def test_baosanjia_exempt_when_the_only_wait_is_the_de_face() -> None:
    # the 得 are 5s: after throwing 5p the hand is 11p 777p EEE SSS WWW 4s6s, whose only
    # natural wait is 5s, a tile that never comes (every in-play 5s is a 得): not ready
    keep = DE_FACE_KEEP
    rnd = bao_round(DE_FACE_WAIT, extra="5m", indicator="5s", keep=keep)
    bao_play(rnd, "5m", keep)
    assert rnd.result.winner == 1 and rnd.result.liable is None
    liable = bao_round(DE_FACE_WAIT, extra="5m", keep=keep)
    bao_play(liable, "5m", keep)  # the same hand with the 得 on 9s: 5s can come, ready
    assert liable.result.liable == 0


def test_baosanjia_exemption_can_be_switched_off() -> None:
    rnd = bao_round(ALL_SHENG, extra="5m", baosanjia_exemption=False)
    bao_play(rnd, "5m")
    assert rnd.result.liable == 0


def test_no_baosanjia_before_the_sheng_phase() -> None:
    rnd = bao_round(ALL_SHENG, extra="F", when=4)
    bao_play(rnd, "F")
    assert not rnd.sheng_phase and rnd.result.liable is None


def test_refusals_name_the_wenling_rule() -> None:
    rnd = three_waits()
    act(rnd, "discard", 0, tile="5p")
    before = snapshot(rnd)
    with pytest.raises(IllegalAction, match="answer the claim on 5p first"):
        act(rnd, "discard", 1, tile="5p")
    with pytest.raises(IllegalAction, match="吃 only from the player on your left"):
        act(rnd, "chi", 3, tiles=["4p", "6p"])
    assert snapshot(rnd) == before


ROB_HANDS = [
    "5p 1m4m7m 1p7p 1s4s7s 2m5m8m 2p8p E S",
    "5p5p 3m6m 3p 3s6s 2s5s8s 9m SS WW N",
    "123m456m789m 123s 46p 99p",
    "3m6m 3p6p 3s6s 2s5s8s 9m 9p NN W CC",
]


def test_robbing_an_added_kong() -> None:
    rnd = scripted("wenling", ROB_HANDS, extra="C", draws="1p 7p 2p 5p")
    act(rnd, "discard", 0, tile="5p")
    assert {a.type for a in rnd.legal_actions(2)} == {"pass", "win"}
    act(rnd, "pass", 2)
    act(rnd, "pon", 1)
    act(rnd, "discard", 1, tile="N")
    while not (rnd.phase == "turn" and rnd.turn == 1):
        discard_drawn(rnd) if rnd.phase == "turn" else pass_window(rnd)
    act(rnd, "bukong", 1, tile="5p")
    assert rnd.phase == "rob" and rnd.to_act == (2,)
    act(rnd, "win", 2)
    result = rnd.result
    assert (result.winner, result.win_by, result.from_seat) == (2, "rob_kong", 1)
    assert "抢杠和" in [f["name"] for f in result.score["fan"]]
    assert sum(result.payments) == 0 and rnd.melds[1][0].kind == "pon"


def test_a_special_drawn_in_play_is_exposed_and_replaced_from_the_tail() -> None:
    rnd = scripted("wenling", three_hands_without_5p(), extra="5p", draws="f3", tail="2p")
    act(rnd, "discard", 0, tile="5p")
    pass_window(rnd)
    seat1 = [(e.type, e.data.get("tile"), e.data.get("source")) for e in rnd.events if e.seat == 1]
    assert seat1[-3:] == [("draw", "f3", "wall"), ("flower", "f3", None), ("draw", "2p", "special")]
    assert rnd.flowers[1] == [parse_tile("f3")] and rnd.drawn[1] == parse_tile("2p")


def three_hands_without_5p() -> list[str]:
    return [
        "123m456m789m123s456s E",
        "123m456m789m123s456s S",
        "123m456m789m123s456s W",
        "123m456m789m123s456s N",
    ]


def test_concealed_kong_of_the_seat_wind_is_a_lazi() -> None:
    hands = [
        "EEEE 1m4m7m 1p4p7p 1s4s7s 2m5m8m",
        "2s5s8s 3m6m 3p6p 3s6s 9m 9p S W N C F",
        "2p5p8p 3m6m 6p 3s6s 2s5s8s 9m 9p S W N",
        "1m4m7m 1p4p7p 1s4s7s 2m5m8m 2p8p S F",
    ]
    rnd = scripted("wenling", hands, extra="C", tail="3p")
    assert "lazi" not in {a.type for a in rnd.legal_actions(0)}
    act(rnd, "akong", 0, tile="E")
    assert "lazi" in {a.type for a in rnd.legal_actions(0)}
    act(rnd, "lazi", 0)
    assert rnd.result.win_by == "lazi" and rnd.result.score["points"] == 500


@pytest.mark.parametrize("rule,kinds", [("claimed_tile", "3p"), ("all_three", "1p2p3p")])
def test_which_tiles_a_chow_makes_non_sheng(rule: str, kinds: str) -> None:
    hands = [
        "3p 1m4m7m 1s4s7s 2m5m8m 2s5s8s E S W",
        "1p2p 3m6m 3s6s 9m 9p S W N C F E 7p8p",
        "4p5p6p 1m4m7m 1s4s7s 2m5m8m 9p S N C",
        "3m6m 3s6s 2s5s8s 9m 9p N C F 6p7p8p W",
    ]
    rnd = scripted("wenling", hands, extra="F", options={"sheng_chow_rule": rule})
    act(rnd, "discard", 0, tile="3p")
    act(rnd, "chi", 1, tiles=["1p", "2p"])
    assert rnd.discarded_kinds == set(parse_tiles(kinds))


# a hand waiting on 5p or 6p, holding two of each: it could 碰 either, but not on the last discard
LAST_WAIT = "111m234m567m789p 55p66p"
LAST_OTHERS = ["9s 1s2s3s 4s5s6s 7s8s 2m3m 4p 8m E S 9m", "9s 1s2s 4s5s6s 7s8s 3m4m 1p2p 8m W N E",
               "9s 2s3s 4s5s 7s 2m4m 1p3p 8m W N C F S"]


def _last_discard_of_5p() -> Round:
    """A hand played out passively whose last drawable tile is 5p, drawn and thrown by a seat
    other than the one waiting on 5p/6p (the 得 9s are dealt to the others: it never draws
    one)."""
    for shift in range(4):
        hands = LAST_OTHERS[:shift] + [LAST_WAIT] + LAST_OTHERS[shift:]
        waiter = shift
        wall = wall_from_deal("wenling", [parse_tiles(h) for h in hands],
                              indicator=parse_tile("9s"), dealer_extra=parse_tile("C"))
        probe = Round.from_wall("wenling", wall, (1, 2))
        while probe.phase != "turn" or probe._can_draw():
            passive(probe, 1) if probe.phase == "turn" else pass_window(probe)
        if probe.turn == waiter:
            continue
        last = probe.head - 1  # where the last drawable tile sits; put the spare 5p there
        spare = max(i for i, t in enumerate(wall[:probe.head]) if t == parse_tile("5p"))
        if spare < 4 * 16 + 1:
            continue  # every 5p but the waiter's is dealt
        wall[spare], wall[last] = wall[last], wall[spare]
        rnd = Round.from_wall("wenling", wall, (1, 2))
        while rnd.phase != "turn" or rnd._can_draw():
            passive(rnd, 1) if rnd.phase == "turn" else pass_window(rnd)
        assert rnd.drawn[rnd.turn] == parse_tile("5p") and rnd.turn != waiter
        act(rnd, "discard", rnd.turn, tile="5p")
        return rnd
    raise AssertionError("no seating puts the last draw away from the waiting hand")


def test_on_the_last_discard_only_a_win_is_offered_and_the_refusal_says_so() -> None:
    rnd = _last_discard_of_5p()
    waiter = next(s for s in range(4) if rnd.cnt[s][parse_tile("5p")] == 2)
    assert rnd.phase == "claim" and waiter in rnd.to_act
    assert {a.type for a in rnd.legal_actions(waiter)} == {"pass", "win"}
    before = snapshot(rnd)
    # docs/engine.md: "on a discard made at that point only win may be claimed"; the refusal
    # says that, not "you passed on 碰" (nothing was passed)
    with pytest.raises(IllegalAction, match="^only 和 may be claimed on the last discard$"):
        act(rnd, "pon", waiter)
    assert snapshot(rnd) == before
    act(rnd, "win", waiter)
    assert rnd.result.winner == waiter and rnd.result.win_by == "discard"


def test_a_won_hand_says_who_paid_whom_and_its_record_does_not_store_it():
    """Wenling wins carry ``transfers``: per pair, adding up to every seat's payment; the
    record's settlement (what a replay must reproduce) is unchanged by them."""
    from baida.bots.policy import make_bot
    from baida.engine.records import read_record

    checked = 0
    for seed in range(1, 40):
        rnd = Round.from_seed("wenling", seed.to_bytes(32, "big"))
        bots = [make_bot("efficient", seed=seed * 4 + s) for s in range(4)]
        while not rnd.ended:
            seat = rnd.to_act[0]
            legal = [a.to_json() for a in rnd.legal_actions(seat)]
            rnd.apply(bots[seat].choose(rnd.view(seat).to_json(), legal))
        result = rnd.result
        assert result is not None
        if result.outcome != "win":
            assert result.transfers is None
            continue
        net = [0, 0, 0, 0]
        for t in result.transfers:
            assert t["amount"] == (t["high"] - t["low"]) // 10 > 0
            net[t["payer"]] -= t["amount"]
            net[t["payee"]] += t["amount"]
        assert net == result.payments
        assert result.to_json()["transfers"] == result.transfers
        record = rnd.record()
        assert "transfers" not in record["settlement"]
        replayed, actions, _ = read_record(record)
        for action in actions:
            replayed.apply(action)
        assert replayed.result.to_json() == result.to_json()
        checked += 1
        if checked >= 3:
            break
    assert checked >= 3
