"""Pattern targeting (which 台头和 patterns stay open, their value) and Wenling danger."""

from __future__ import annotations

import pytest

from baida.bots.danger import Opponent, deal_in_chance, tenpai_likelihood, wait_weight
from baida.bots.efficiency import Target
from baida.bots.targets import (
    JiaxingContext,
    WenlingContext,
    jiaxing_tai,
    jiaxing_value,
    open_targets,
    wenling_total,
    wenling_value,
)
from baida.hand import parse_meld
from baida.tiles import counts34, parse_tile, parse_tiles


def labels(targets: list[Target]) -> set[str]:
    return {t.label for t in targets}


def test_no_melds_leave_every_pattern_open_in_jiaxing() -> None:
    got = labels(open_targets([], "jiaxing"))
    assert "any" not in got  # 台头和 needs a pattern
    assert {"qingyisem", "hunyisep", "duiduihe", "quanlaotou", "hunyises+duiduihe"} <= got


def test_a_chow_closes_triplet_patterns_and_other_suits() -> None:
    got = labels(open_targets([parse_meld("chi 123m")], "jiaxing"))
    assert got == {"qingyisem", "hunyisem"}


def test_an_honour_pung_closes_qingyise_but_not_quanlaotou() -> None:
    got = labels(open_targets([parse_meld("pon E")], "jiaxing"))
    assert "quanlaotou" in got and "duiduihe" in got
    assert not any(label.startswith("qingyise") for label in got)


def test_a_suit_pung_closes_quanlaotou() -> None:
    got = labels(open_targets([parse_meld("pon 5p")], "jiaxing"))
    assert "quanlaotou" not in got
    assert "qingyisep+duiduihe" in got and "hunyisem" not in got


def test_wenling_always_keeps_the_plain_shape() -> None:
    got = labels(open_targets([parse_meld("chi 123m"), parse_meld("pon 5p")], "wenling"))
    assert got == {"any"}
    assert "quanlaotou" not in labels(open_targets([], "wenling"))


def test_jiaxing_pattern_tai() -> None:
    assert jiaxing_tai(Target("qingyise", 0)) == 4
    assert jiaxing_tai(Target("qingyise", 0, triplets=True)) == 6
    assert jiaxing_tai(Target("hunyise", 1, triplets=True)) == 4
    assert jiaxing_tai(Target("duiduihe")) == 2
    assert jiaxing_tai(Target("quanlaotou")) == 12
    assert jiaxing_tai(Target("quanlaotou"), qlt_stacks_with_ddh=False) == 10


def test_jiaxing_value_counts_valued_honour_triplets_and_three_wilds() -> None:
    ctx = JiaxingContext(seat_wind=parse_tile("S"), round_wind=parse_tile("E"))
    counts = counts34(parse_tiles("123m456m CCC SS"))
    base = jiaxing_value(Target("hunyise", 0), counts, 1, [], ctx)
    assert base == pytest.approx(2 + 1 + 0.6)  # 混一色, 红中刻, likely 门风 pair
    assert jiaxing_value(Target("qingyise", 0), counts, 1, [], ctx) == 4  # no honours counted
    tripled = jiaxing_value(Target("hunyise", 0), counts, 3, [], ctx)
    assert tripled == pytest.approx(2 * (2 + 1 + 0.6))  # 三百搭 doubles


def test_wenling_total_rounds_up_and_caps() -> None:
    assert wenling_total(12, 1) == 70  # (12 + 20) × 2 = 64 → 70
    assert wenling_total(0, 0) == 20
    assert wenling_total(100, 4) == 500


def test_wenling_value_rewards_patterns() -> None:
    ctx = WenlingContext(seat_wind=parse_tile("E"), specials=frozenset(parse_tiles("P")))
    counts = counts34(parse_tiles("123456789m EEE C"))
    plain = wenling_value(Target("any"), counts, 1, [], ctx)
    mixed = wenling_value(Target("hunyise", 0), counts, 1, [], ctx)
    # base 4 (average wait items) + 8 (EEE 暗刻); fan 1 for the 门风 triplet
    assert plain == pytest.approx(wenling_total(12, 1) / 10)
    assert mixed == pytest.approx(wenling_total(12, 1 + 2) / 10)  # 混一色 adds 2 fan


def test_tenpai_likelihood_grows_with_turns_and_melds() -> None:
    quiet = Opponent()
    assert tenpai_likelihood(quiet, 2) < tenpai_likelihood(quiet, 12)
    open_hand = Opponent(melds=[parse_meld("pon 5p"), parse_meld("chi 123s")])
    assert tenpai_likelihood(open_hand, 6) > tenpai_likelihood(quiet, 6)
    assert tenpai_likelihood(Opponent(can_win=False), 15) == 0.0


def test_genbutsu_and_suji_lower_the_weight() -> None:
    visible = [0] * 34
    five = parse_tile("5m")
    fresh = wait_weight(five, Opponent(), visible)
    assert wait_weight(five, Opponent(discards=[five]), visible) < fresh
    assert wait_weight(five, Opponent(discards=parse_tiles("2m8m")), visible) < fresh
    assert wait_weight(five, Opponent(discards=parse_tiles("2m")), visible) < fresh


def test_no_chance_lowers_the_weight() -> None:
    visible = [0] * 34
    three = parse_tile("3p")
    fresh = wait_weight(three, Opponent(), visible)
    for kabe in parse_tiles("2p4p"):
        visible[kabe] = 4
    assert wait_weight(three, Opponent(), visible) < 0.5 * fresh
    honour = parse_tile("C")
    seen = [0] * 34
    seen[honour] = 3
    assert wait_weight(honour, Opponent(), seen) < wait_weight(honour, Opponent(), [0] * 34)


def test_flush_signal_raises_its_suit() -> None:
    visible = [0] * 34
    flush = Opponent(melds=[parse_meld("pon 5s"), parse_meld("chi 789s")])
    assert flush.flush_suit() == 2
    assert wait_weight(parse_tile("4s"), flush, visible) > wait_weight(
        parse_tile("4m"), flush, visible
    )


def test_deal_in_chance_is_a_probability_per_opponent() -> None:
    opps = [Opponent(), Opponent(melds=[parse_meld("pon E")]), Opponent(can_win=False)]
    chances = deal_in_chance(parse_tile("5p"), opps, [10, 10, 10], [0] * 34)
    assert len(chances) == 3
    assert all(0 <= c <= 1 for c in chances)
    assert chances[2] == 0
    assert chances[1] > chances[0]


def test_strong_prefers_tiles_that_cannot_give_a_third_claim() -> None:
    from baida.bots.features import read_view
    from baida.bots.strong import _santan_risk

    view = {
        "ruleset": "jiaxing",
        "seat": 0,
        "dealer": 0,
        "seat_winds": ["E", "S", "W", "N"],
        "round_wind": "E",
        "indicator": "9s",
        "wilds": ["9s"],
        "specials": [],
        "phase": "turn",
        "turn": 0,
        "wall_remaining": 60,
        "last_discard": None,
        "players": [
            {
                "seat": 0,
                "concealed": [
                    "1m",
                    "1m",
                    "2m",
                    "3m",
                    "4m",
                    "5m",
                    "6m",
                    "7m",
                    "8m",
                    "E",
                    "E",
                    "C",
                    "5p",
                    "7p",
                ],
                "melds": [],
                "discards": [],
            },
            {"seat": 1, "concealed": None, "melds": [], "discards": ["7p"]},
            {"seat": 2, "concealed": None, "melds": [], "discards": []},
            {"seat": 3, "concealed": None, "melds": [], "discards": []},
        ],
        "santan_pairs": [],
        "claim_counts": [[0, 0, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    }
    seen = read_view(view)
    five_p, seven_p, east = parse_tile("5p"), parse_tile("7p"), parse_tile("E")
    # seat 1 (our 下家) has claimed twice from us: it could chi or pon 5p, chi 7p, pon E
    assert [_santan_risk(seen, k) for k in (five_p, seven_p, east)] == [1, 1, 1]
    # the same threat from seat 2 (no chi): 7p, which seat 2 threw, is the safe one
    view["claim_counts"] = [[0] * 4, [0] * 4, [2, 0, 0, 0], [0] * 4]
    view["players"][2]["discards"] = ["7p"]
    seen = read_view(view)
    assert [_santan_risk(seen, k) for k in (five_p, seven_p, east)] == [1, 0, 1]
    view["claim_counts"][2][0] = 1
    assert _santan_risk(read_view(view), five_p) == 0
    view["claim_counts"][2][0] = 2
    view["santan_pairs"] = [[2, 0]]
    assert _santan_risk(read_view(view), five_p) == 0


def test_wenling_nonwinner_total_follows_the_non_winner_table() -> None:
    from baida.bots.targets import wenling_nonwinner_total

    ctx = WenlingContext(seat_wind=parse_tile("E"), specials=frozenset(parse_tiles("P")))
    nothing = counts34(parse_tiles("1m4m7m2p5p8p3s6s9sSWNF"))
    assert wenling_nonwinner_total(nothing, [], ctx) == 20  # only the +20
    # a natural 中 triplet: 8 base and 1 fan; a natural 东 (seat) pair: 2 base
    hand = counts34(parse_tiles("CCC EE 1m4m7m2p5p8p"))
    assert wenling_nonwinner_total(hand, [], ctx) == wenling_total(8 + 2, 1)
    # an exposed 5p pung (2), a concealed kong of 9s (16), two exposed specials (4 + 1 fan each)
    ctx2 = WenlingContext(
        seat_wind=parse_tile("E"), specials=frozenset(parse_tiles("P")), exposed_specials=2
    )
    melds = [parse_meld("pon 5p"), parse_meld("akong 2s")]
    assert wenling_nonwinner_total(nothing, melds, ctx2) == wenling_total(2 + 16 + 8, 2)
