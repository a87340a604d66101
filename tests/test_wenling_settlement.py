"""Wenling non-winner totals (RULES.md §B4.3, W-A3 to W-A7), payments (§B5) and 包三家 (§B6)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_wenling_bruteforce import ref_payments

from baida.hand import Hand, parse_meld
from baida.rules.options import wenling_options
from baida.rules.wenling_tiles import wenling_tiles
from baida.rulesets import score_json
from baida.scoring.request import ScoreRequest
from baida.scoring.wenling_others import nonwinner_score
from baida.scoring.wenling_settle import Transfer, settle, transfers
from baida.tiles import parse_tile, parse_tiles

WINNER_HAND = {"concealed": "123m456m234p678s34sNN", "melds": [], "flowers": []}
# S: 暗刻1p 8 + 暗刻3s 4 + 对C 2 + 对S (own wind) 2; EE is not S's wind → (16 + 20) = 36 → 40
S_HAND = {"concealed": "111p333sCCSSEE9m9p1s2s"}
# W: 暗刻W 8 + 门风刻 1 番; FF 2 → (10 + 20) × 2 = 60
W_HAND = {"concealed": "WWW22m33p66p99s8p8m7pFF"}
# N: nothing that scores → 20
N_HAND = {"concealed": "258m258p147s69sEECSW"}
OTHERS = {"S": S_HAND, "W": W_HAND, "N": N_HAND}


def wl(**fields: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "ruleset": "wenling",
        "indicator": "7m",
        "winner": "E",
        "hand": WINNER_HAND,
        "win_tile": "5s",
        "others": OTHERS,
    }
    obj.update(fields)
    return score_json({k: v for k, v in obj.items() if v is not None})


def other(concealed: str, seat: int = 1, melds=(), flowers=(), indicator: str = "7m",
          **options: Any) -> int:
    hand = Hand(parse_tiles(concealed), [parse_meld(m) for m in melds], parse_tiles(
        "".join(flowers)))
    opts = wenling_options(options)
    return nonwinner_score(hand, seat, wenling_tiles(parse_tile(indicator)), opts).total


# --- payments ------------------------------------------------------------------------------------

def test_normal_settlement():
    out = wl()
    assert out["totals"] == {"E": 90, "S": 40, "W": 60, "N": 20}
    # each pays 9; S pays W 2, N pays W 4, N pays S 2
    assert out["payments"] == {"E": 27, "S": -9, "W": -3, "N": -15}


def test_discard_win_all_three_pay():
    out = wl(win_by="discard", **{"from": "S"})
    assert out["totals"] == {"E": 80, "S": 40, "W": 60, "N": 20}
    assert out["payments"] == {"E": 24, "S": -8, "W": -2, "N": -14}


def test_baosanjia_liable_pays_everything():
    out = wl(win_by="discard", **{"from": "S"}, liable="S")
    assert out["totals"] == {"E": 80, "S": 0, "W": 60, "N": 20}
    # S pays E 3 × 8, W 60/10, N 20/10, and the W-N settlement (60 − 20)/10 on N's behalf
    assert out["payments"] == {"E": 24, "S": -36, "W": 10, "N": 2}


def test_baosanjia_liable_with_the_highest_hand_still_counts_zero():
    out = wl(win_by="discard", **{"from": "W"}, liable="W")
    assert out["totals"] == {"E": 80, "S": 40, "W": 0, "N": 20}
    # W pays E 24, S 4, N 2, and S-N (40 − 20)/10 = 2 to S
    assert out["payments"] == {"E": 24, "S": 6, "W": -32, "N": 2}


def test_rob_payment_robbed():
    out = wl(win_by="rob_kong", **{"from": "N"}, options={"rob_payment": "robbed"})
    # 旁和, 无得, 抢杠和: 20 × 8 = 160; N pays 48 alone; S, W, N still settle among themselves
    assert out["totals"] == {"E": 160, "S": 40, "W": 60, "N": 20}
    assert out["payments"] == {"E": 48, "S": 0, "W": 6, "N": -54}


def test_absent_non_winners_hold_nothing_that_scores():
    out = wl(others={})
    assert out["totals"] == {"E": 90, "S": 20, "W": 20, "N": 20}
    assert out["payments"] == {"E": 27, "S": -9, "W": -9, "N": -9}
    bare = wl(others={}, options={"nonwinner_base20": False})
    assert bare["totals"] == {"E": 90, "S": 0, "W": 0, "N": 0}


def test_lazi_winner_and_non_winners_still_settle():
    out = wl(hand={"concealed": "***123m456m234p345s68s"}, win_by="lazi", win_tile=None,
             others={"S": S_HAND})
    assert out["totals"] == {"E": 500, "S": 40, "W": 20, "N": 20}
    assert out["payments"] == {"E": 150, "S": -46, "W": -52, "N": -52}


# --- non-winner totals ---------------------------------------------------------------------------

def test_non_winner_items():
    assert other(S_HAND["concealed"]) == 40
    assert other(S_HAND["concealed"], nonwinner_base20=False) == 20  # 16 → 20
    assert other("WWW22m33p66p99s8p8m7pFF", seat=2) == 60
    assert other("WWW22m33p66p99s8p8m7pFF", seat=2, nonwinner_base20=False) == 20  # 10 × 2


def test_non_winner_undeclared_kong_is_a_concealed_triplet():
    # 5555s: 暗刻 4 ("可杠没杠按刻子计"); no pair scores → (4 + 20) = 24 → 30
    assert other("5555s12m4m8m1p3p6p9p2s9sNE") == 30


def test_non_winner_melds_and_exposed_specials():
    # 碰E (heavy 4) + 暗杠1p (32) + 翻白板 4 和 1 番 → (40 + 20) × 2 = 120
    assert other("23m56m89m23p56p9s", melds=["pon E", "akong 1p"], flowers=["P"]) == 120
    # 碰S for S: 门风刻 1 番; 明杠C: 16 + 字牌刻 1 番 → (4 + 16 + 20) × 4 = 160
    assert other("23m56m89m23p56p9s", melds=["pon S", "mkong C"]) == 160


def test_non_winner_seat_flower_option():
    assert other("23m56m89m23p56p9s4s5s7s1s3s", flowers=["f2"]) == 20  # W-A4 default: no 番
    assert other("23m56m89m23p56p9s4s5s7s1s3s", flowers=["f2"], nonwinner_seat_flower=True) == 40
    assert other("23m56m89m23p56p9s4s5s7s1s3s", flowers=["f1"], nonwinner_seat_flower=True) == 20


def test_non_winner_de_ignored_unless_full():
    # CC* : by default the 得 is ignored (对C 2 → 22 → 30); "full" makes it CCC: 8 + 字牌刻
    assert other("CC*23m56m89m23p56p9s1s3s") == 30
    assert other("CC*23m56m89m23p56p9s1s3s", nonwinner_de="full") == 60  # 28 × 2 = 56
    # own seat wind: natural only for 门风刻 by default
    assert other("SS*23m56m89m23p56p9s1s3s") == 30
    assert other("SS*23m56m89m23p56p9s1s3s", nonwinner_de="full") == 60


def test_non_winner_sifeng_huiqi():
    # S: EEE WWW NNN + own wind pair SS → 500; 得 may stand in
    assert other("EEEWWWNNNSS12m45p8s") == 500
    assert other("EEEWWWNNNS*12m45p8s") == 500
    assert other("EEEWWW*NNSS12m45p8s") == 500
    assert other("EEEWWWNNNS12m45p8s9s") < 500
    assert other("EEEWWWNNNSS12m45p8s", seat=2) < 500  # SS is not W's wind
    assert other("EEEWWWNNNSS12m45p8s", nonwinner_sifeng_lazi=False) < 500
    assert other("SSS12m45p", melds=["pon E", "pon W", "pon N"], seat=3) == 500


def test_non_winner_lazi_hands_are_500():
    assert other("***23m56m89m23p56p9s4s7s") == 500  # 3张得
    assert other("23m56m89m23p56p9s", melds=["akong S", "pon 1p"]) == 500  # 暗杠门风
    assert other("23m56m89m23p56p9s", melds=["akong C", "pon 1p"]) == 500  # 暗杠字牌
    assert other("23m56m89m23p56p9s4s5s7s1s3s", flowers=["f1", "f2", "f3", "f4"]) == 500
    assert other("23m56m89m23p56p9s4s5s7s1s3s", flowers=["C"] * 4, indicator="P") == 500
    # W-A17 off: four exposed 红中 are 16 和 and 4 番: 16 × 16 = 256 → 260 without the +20
    assert other("23m56m89m23p56p9s4s5s7s1s3s", flowers=["C"] * 4, indicator="P",
                 special_four_lazi=False, nonwinner_base20=False) == 260


# --- the settle function -------------------------------------------------------------------------

TOTAL = st.integers(0, 50).map(lambda n: n * 10)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3), st.lists(TOTAL, min_size=4, max_size=4), st.integers(0, 4))
def test_settle_invariants(winner, values, liable_pick):
    totals = dict(enumerate(values))
    losers = [s for s in range(4) if s != winner]
    liable = losers[liable_pick] if liable_pick < 3 else None
    if liable is not None:
        totals[liable] = 0
    net = settle(winner, totals, liable)
    assert sum(net.values()) == 0
    if liable is None:
        assert net[winner] == 3 * (totals[winner] // 10)
        for s in losers:
            expected = -totals[winner] // 10 + sum(
                (totals[s] - totals[t]) // 10 for t in losers if t != s
            )
            assert net[s] == expected
    else:
        assert net[winner] == 3 * (totals[winner] // 10)
        for s in losers:
            if s != liable:
                assert net[s] >= 0  # the others never pay under 包三家
                assert net[s] == totals[s] // 10 + sum(
                    max(0, totals[s] - totals[t]) // 10 for t in losers if t not in (s, liable)
                )


def test_settle_sole_payer():
    net = settle(0, {0: 200, 1: 50, 2: 20, 3: 20}, sole_payer=2)
    assert net == {0: 60, 1: 3 + 3, 2: -60 - 3, 3: -3}


@pytest.mark.parametrize("liable", [1, 2, 3])
def test_settle_liable_equal_others(liable):
    totals = {0: 100, 1: 30, 2: 30, 3: 30}
    totals[liable] = 0
    net = settle(0, totals, liable)
    assert net[0] == 30 and net[liable] == -30 - 6


# --- who pays whom -------------------------------------------------------------------------------


def test_transfers_of_the_normal_settlement():
    """The worked example above, pair by pair: each pays the winner 9; S pays W 2, N pays W
    4, N pays S 2."""
    got = transfers(0, {0: 90, 1: 40, 2: 60, 3: 20})
    assert got == [
        Transfer(1, 0, 9, "win", 90, 0), Transfer(2, 0, 9, "win", 90, 0),
        Transfer(3, 0, 9, "win", 90, 0),
        Transfer(1, 2, 2, "difference", 60, 40), Transfer(3, 1, 2, "difference", 40, 20),
        Transfer(3, 2, 4, "difference", 60, 20),
    ]


def test_transfers_under_baosanjia_name_whom_the_liable_player_pays_for():
    got = transfers(0, {0: 100, 1: 0, 2: 50, 3: 20}, liable=1)
    assert Transfer(1, 0, 10, "win", 100, 0, behalf=2) in got
    assert Transfer(1, 0, 10, "win", 100, 0, behalf=None) in got  # its own share
    assert Transfer(1, 2, 5, "difference", 50, 0) in got  # what 2 gets from a 0 total
    assert Transfer(1, 2, 3, "difference", 50, 20, behalf=3) in got  # 3 pays 2: 1 pays it
    assert all(t.payer == 1 for t in got)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3), st.lists(TOTAL, min_size=4, max_size=4), st.integers(0, 4),
       st.integers(0, 3))
def test_transfers_add_up_to_the_payments_of_the_reference(winner, values, liable_pick, sole):
    """Each transfer is (high − low) // 10 of two totals, and a seat's transfers add up to
    its payment as the rule document's reference computes it (tests/test_wenling_bruteforce)."""
    totals = dict(enumerate(values))
    losers = [s for s in range(4) if s != winner]
    liable = losers[liable_pick] if liable_pick < 3 else None
    if liable is not None:
        totals[liable] = 0
    robbed = liable is None and sole != winner
    req = ScoreRequest(
        ruleset="wenling", options=wenling_options({"rob_payment": "robbed" if robbed else "all"}),
        indicator=0, winner=winner, hand=Hand(), win_tile=0,
        win_by="rob_kong" if robbed else "self_draw", from_seat=sole if robbed else None,
        liable=liable)
    got = transfers(winner, totals, liable, sole if robbed else None)
    net = dict.fromkeys(range(4), 0)
    for t in got:
        assert t.payer != t.payee and t.amount == (t.high - t.low) // 10 > 0
        assert (t.kind == "win") == (t.payee == winner)
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    assert net == ref_payments(req, totals)
