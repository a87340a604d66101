"""Every Wenling winner item (RULES.md §B4.1-B4.2), 满贯 hands, legality and malformed input.

Hands go through the JSON contract (``score_json``); expected values are worked by hand from
the tables of RULES.md part B and seed 002. The indicator is 7m unless a test says otherwise,
so 7m is 得 and the specials are the eight flowers and 白板.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baida.hand import Hand, parse_meld
from baida.rules.options import wenling_options
from baida.rulesets import score_json
from baida.scoring import ScoreInputError
from baida.scoring.request import ScoreRequest
from baida.scoring.wenling import score_wenling, validate_wenling
from baida.tiles import parse_tile, parse_tiles


def wl(concealed: str, win: str | None = None, *, melds=(), flowers=(), **fields: Any):
    obj: dict[str, Any] = {
        "ruleset": "wenling",
        "indicator": fields.pop("indicator", "7m"),
        "winner": fields.pop("winner", "E"),
        "hand": {"concealed": concealed, "melds": list(melds), "flowers": list(flowers)},
    }
    if win is not None:
        obj["win_tile"] = win
    obj.update(fields)
    return score_json(obj)


def base(out) -> dict[str, int]:
    return {item["name"]: item["value"] for item in out["base_items"]}


def fan(out) -> dict[str, int]:
    return {item["name"]: item["value"] for item in out["fan"]}


# --- 旁和, 无得, 自摸, the wait items -----------------------------------------------------------

def test_panghe_two_sided_self_draw():
    out = wl("123m456m234p678s34sNN", "5s")
    assert out["legal"] and base(out) == {"自摸": 2}
    assert fan(out) == {"旁和": 1, "无得": 1}
    assert (out["base_points"], out["fan_total"], out["raw"], out["points"]) == (2, 2, 88, 90)
    assert out["payments"] == {"E": 27, "S": -9, "W": -9, "N": -9}


def test_panghe_on_a_discard_and_the_selfdraw_only_option():
    out = wl("123m456m234p678s34sNN", "5s", win_by="discard", **{"from": "S"})
    assert base(out) == {} and fan(out) == {"旁和": 1, "无得": 1} and out["points"] == 80
    assert out["payments"] == {"E": 24, "S": -8, "W": -8, "N": -8}
    strict = wl("123m456m234p678s34sNN", "5s", win_by="discard", **{"from": "S"},
                options={"panghe_selfdraw_only": True})
    assert fan(strict) == {"无得": 1} and strict["points"] == 40
    strict_self = wl("123m456m234p678s34sNN", "5s", options={"panghe_selfdraw_only": True})
    assert fan(strict_self) == {"旁和": 1, "无得": 1}


def test_pair_of_own_seat_wind_and_of_a_dragon_score_2_other_pairs_0():
    assert base(wl("123m456m234p678s34sEE", "5s")) == {"对子": 2, "自摸": 2}  # E is E's wind
    assert base(wl("123m456m234p678s34sEE", "5s", winner="S")) == {"自摸": 2}
    assert base(wl("123m456m234p678s34sCC", "5s", winner="S")) == {"对子": 2, "自摸": 2}
    assert base(wl("123m456m234p678s34s99p", "5s")) == {"自摸": 2}


def test_closed_wait_qiandang():
    out = wl("123m456m234p345s68sNN", "7s")
    assert base(out) == {"嵌档": 2, "自摸": 2} and fan(out) == {"无得": 1}
    assert out["points"] == 50  # (4 + 20) × 2 = 48


@pytest.mark.parametrize("concealed, win", [("123m456m234p345s89sNN", "7s"),
                                            ("123m456m234p12s678sNN", "3s")])
def test_edge_wait_kaobing(concealed, win):
    out = wl(concealed, win)
    assert base(out) == {"靠柄": 2, "自摸": 2} and "旁和" not in fan(out)


def test_open_end_of_a_terminal_sequence_is_two_sided():
    # 23s waiting on 1s/4s, won on 1s: 1-2-3 completed by the 1, two-sided
    out = wl("123m456m234p23s678sNN", "1s")
    assert base(out) == {"自摸": 2} and fan(out) == {"旁和": 1, "无得": 1}


def test_single_wait_dandiao():
    out = wl("123m456m234p345s678sN", "N")
    assert base(out) == {"单吊": 2, "自摸": 2} and fan(out) == {"无得": 1}


def test_the_wait_that_pays_most_is_chosen():
    # 4566s: the 6s completes the pair 66s (单吊 2) or 456s at its end (no item)
    out = wl("123m456m234p456s6sNNN", "6s")
    assert base(out) == {"暗刻": 8, "单吊": 2, "自摸": 2}


# --- sets ------------------------------------------------------------------------------------

def test_melded_sets_heavy_and_light():
    out = wl("123m456m99pNN", "9p", melds=["pon 1s", "pon 5s"], winner="S")
    # 碰1s 4 + 碰5s 2 + 暗刻9p 8 + 自摸 2; 9p completes the triplet (no wait item)
    assert base(out) == {"刻子": 6, "暗刻": 8, "自摸": 2}
    kongs = wl("123mN", "N", melds=["mkong 9s", "bukong 5s", "akong 1p", "akong 2p"],
               winner="S")
    assert base(kongs) == {"明杠": 24, "暗杠": 48, "单吊": 2, "自摸": 2}


def test_ron_triplet_is_concealed_by_default_and_exposed_with_the_option():
    hand = ("444m666p88s33s", "8s")
    melds = ["pon 2p", "pon 5s"]
    own = wl(*hand, melds=melds)
    assert base(own) == {"刻子": 4, "暗刻": 12, "自摸": 2} and fan(own) == {"对对和": 2, "无得": 1}
    assert own["points"] == 310  # (18 + 20) × 8 = 304
    ron = wl(*hand, melds=melds, win_by="discard", **{"from": "N"})
    assert base(ron) == {"刻子": 4, "暗刻": 12} and ron["points"] == 290  # 36 × 8 = 288
    exposed = wl(*hand, melds=melds, win_by="discard", **{"from": "N"},
                 options={"ron_triplet_concealed": False})
    assert base(exposed) == {"刻子": 6, "暗刻": 8} and exposed["points"] == 280  # 34 × 8


def test_a_robbed_tile_has_no_other_copy():
    with pytest.raises(ScoreInputError, match="robbed"):
        wl("444m666p99s33s", "9s", melds=["pon 2p", "pon 5s"], win_by="rob_kong",
           **{"from": "W"})


# --- specials and flowers ----------------------------------------------------------------------

def test_exposed_white_and_seat_flowers():
    out = wl("123m456m234p678s34sNN", "5s", flowers=["P", "P", "f1", "f5", "f2"])
    # 翻白板 4 和 and 1 番 each; 春 and 梅 are East's (W-A16: 1 番 each); 夏 is South's
    assert base(out) == {"翻白板": 8, "自摸": 2}
    assert fan(out) == {"翻白板": 2, "门风花牌": 2, "旁和": 1, "无得": 1}
    assert out["raw"] == 30 * 2**6 and out["points"] == 500
    south = wl("123m456m234p678s34sNN", "5s", flowers=["f2", "f6", "f1"], winner="S")
    assert fan(south) == {"门风花牌": 2, "旁和": 1, "无得": 1}
    assert base(south) == {"自摸": 2}  # flowers give no base points


def test_white_indicator_red_and_green_are_the_specials():
    out = wl("123m456m234p678s34sNN", "5s", flowers=["C", "F", "F"], indicator="P")
    assert base(out) == {"翻红中": 4, "翻发财": 8, "自摸": 2}
    assert fan(out) == {"翻红中": 1, "翻发财": 2, "旁和": 1, "无得": 1}


def test_flower_indicator_specials():
    out = wl("123m456m234p678s34sNN", "5s", flowers=["f5", "C", "P"], indicator="f1")
    assert base(out) == {"翻红中": 4, "翻白板": 4, "自摸": 2}
    assert fan(out)["门风花牌"] == 1  # 梅 is East's
    plain = wl("123m456m234p678s34sNN", "5s", flowers=["f5", "P"], indicator="f1",
               options={"flower_flip_specials": False})
    assert base(plain) == {"翻白板": 4, "自摸": 2}
    with pytest.raises(ScoreInputError, match="not a special"):
        wl("123m456m234p678s34sNN", "5s", flowers=["C"], indicator="f1",
           options={"flower_flip_specials": False})


# --- 番 from sets and patterns -----------------------------------------------------------------

def test_seat_wind_triplet_and_dragon_triplets():
    east = wl("123m456m34sNN", "5s", melds=["pon E", "pon C"])
    assert base(east) == {"刻子": 8, "自摸": 2}
    assert fan(east) == {"门风刻": 1, "字牌刻": 1, "无得": 1}
    south = wl("123m456m34sNN", "5s", melds=["pon E", "akong F"], winner="S")
    assert base(south) == {"刻子": 4, "暗杠": 32, "自摸": 2}
    assert fan(south) == {"字牌刻": 1, "无得": 1}


def test_de_forms_a_dragon_triplet_when_that_pays_most():
    # * = C: CCC 暗刻 8 + 字牌刻 1 番 → (10 + 20) × 2 = 60
    # * = N: NNN 暗刻 8 + CC 对子 2 + 单吊 2 → 34 → 40
    out = wl("123m456m234p345sNNC*", "C")
    assert out["wilds"] == ["C"] and fan(out) == {"字牌刻": 1} and out["points"] == 60


def test_de_forms_the_seat_wind_triplet():
    # * = E: EEE 暗刻 8 + 门风刻 1 番, 99s 单吊 2, 自摸 2 → 32 × 2 = 64 → 70
    # * = 9s: 999s 暗刻 8, EE 对子 2, 自摸 2 → 32 → 40
    out = wl("123m456m234p345sEE*9s", "9s", winner="E")
    assert out["wilds"] == ["E"] and fan(out) == {"门风刻": 1} and out["points"] == 70
    assert base(out) == {"暗刻": 8, "单吊": 2, "自摸": 2}


def test_qingyise_with_one_de():
    out = wl("234m456m88m5m*", "6m", melds=["pon 1m", "pon 9m"], indicator="1p",
             win_by="discard", **{"from": "W"})
    # 碰1m 4 + 碰9m 4 + 嵌档 (6m in 5-6-7 with * = 7m) 2 = 10; 清一色 4 → 30 × 16 = 480
    assert base(out) == {"刻子": 8, "嵌档": 2} and fan(out) == {"清一色": 4}
    assert out["points"] == 480 and out["wilds"] == ["7m"]


def test_hunyise_and_duiduihe():
    out = wl("222p555pNNCC", "C", melds=["pon 9p", "pon W"], win_by="discard",
             **{"from": "S"})
    # 碰9p 4 + 碰W 4 + 暗刻2p 4 + 暗刻5p 4 + 暗刻C 8 + NN 0 = 24; 字牌刻, 混一色 2, 对对和 2, 无得
    assert base(out) == {"刻子": 8, "暗刻": 16}
    assert fan(out) == {"字牌刻": 1, "混一色": 2, "对对和": 2, "无得": 1}
    assert out["points"] == 500  # 44 × 64


def test_two_de_and_self_drawn_de():
    out = wl("123m456m234p345s68sN*", "*", winner="N")
    # * = N (对子 NN, N's seat wind: 2) and * = 7s; the drawn 得 is 嵌档 or 单吊: 2; 自摸 2
    assert base(out)["对子"] == 2 and out["base_points"] == 6
    assert fan(out) == {"2张得": 1, "自摸得": 1}
    assert out["points"] == 110  # 26 × 4 = 104
    assert sorted(out["wilds"]) == ["7s", "N"]


def test_one_de_gives_neither_wude_nor_two_de():
    out = wl("123m456m234p345s68sN*", "N", winner="S")
    assert "无得" not in fan(out) and "2张得" not in fan(out)


# --- kong and rob items --------------------------------------------------------------------------

def test_gangshang_kaihua():
    hand = ("123m456m234p678s34sNN", "5s")
    assert fan(wl(*hand, after_kong=True))["杠上开花"] == 1
    assert "杠上开花" not in fan(wl(*hand, after_special=True, flowers=["P", "f2"]))
    flower = wl(*hand, after_special=True, flowers=["f2"], options={"gangkai_on_flower": True})
    assert fan(flower)["杠上开花"] == 1
    white = wl(*hand, after_special=True, flowers=["P"], options={"gangkai_on_flower": True})
    assert "杠上开花" not in fan(white)  # "不包括杠白板时产生的和牌"


def test_qiangganghe():
    out = wl("123m456m234p678s34sNN", "5s", win_by="rob_kong", **{"from": "W"})
    assert fan(out) == {"旁和": 1, "无得": 1, "抢杠和": 1} and base(out) == {}
    assert out["payments"] == {"E": 48, "S": -16, "W": -16, "N": -16}
    robbed = wl("123m456m234p678s34sNN", "5s", win_by="rob_kong", **{"from": "W"},
                options={"rob_payment": "robbed"})
    assert robbed["payments"] == {"E": 48, "S": 0, "W": -48, "N": 0}


# --- 满贯 ----------------------------------------------------------------------------------------

def test_sifeng_huiqi_is_500():
    out = wl("WWWN123m456m", "N", melds=["pon E", "pon S"], win_by="discard", **{"from": "S"})
    assert out["legal"] and out["points"] == 500 and fan(out)["四风会齐"] == 0
    assert out["payments"] == {"E": 150, "S": -50, "W": -50, "N": -50}
    three = wl("WWWC123m456m", "C", melds=["pon E", "pon S"], win_by="discard",
               **{"from": "S"})
    assert "四风会齐" not in fan(three)


@pytest.mark.parametrize(
    "fields, name",
    [
        ({"concealed": "***123m456m234p345s68s"}, "3张得"),
        ({"concealed": "123m456m234p345s68sNNN", "flowers": ["f1", "f2", "f3", "f4"]},
         "4张红花"),
        ({"concealed": "123m456m234p345s68sNNN", "flowers": ["f5", "f6", "f7", "f8"]},
         "4张黑花"),
        ({"concealed": "123m456m234p345s68sNNN", "flowers": ["P", "P", "P", "P"]}, "4张白板"),
        ({"concealed": "123m456m234p345s68s", "melds": ["akong E"]}, "暗杠门风"),
        ({"concealed": "123m456m234p345s68s", "melds": ["akong F"]}, "暗杠字牌"),
        ({"concealed": "123m456m234p345s68sNNN", "flowers": ["C", "C", "C", "C"],
          "indicator": "P"}, "4张红中"),
    ],
)
def test_lazi_hands(fields, name):
    fields = dict(fields)
    out = wl(fields.pop("concealed"), None, win_by="lazi", **fields)
    assert out["legal"] and out["points"] == 500 and fan(out) == {name: 0}
    assert out["payments"] == {"E": 150, "S": -50, "W": -50, "N": -50}
    assert out["base_items"] == [] and out["wilds"] == []


def test_lazi_refused():
    out = wl("123m456m234p345s68sNNN", None, win_by="lazi", melds=[])
    assert not out["legal"] and "腊子" in out["reason"]
    south = wl("123m456m234p345s68s", None, win_by="lazi", melds=["akong E"], winner="S")
    assert not south["legal"]  # E is not South's wind
    four_red = wl("123m456m234p345s68sNNN", None, win_by="lazi", flowers=["C"] * 4,
                  indicator="P", options={"special_four_lazi": False})
    assert not four_red["legal"]  # W-A17 off


def test_akong_of_a_dragon_in_a_normal_win_is_scored_normally():
    # the seed example (132 → 140) holds 暗杠C: 腊子 only when declared as one (win_by lazi)
    out = wl("555s123p4p*6pN", "N", melds=["akong C", "pon 9m"], winner="N")
    assert out["points"] == 140


# --- legality ------------------------------------------------------------------------------------

def _assert_refused(out, words: str) -> None:
    assert out["legal"] is False and words in out["reason"]
    assert out["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0} == out["totals"]
    assert out["fan"] == out["base_items"] == out["tai"] == [] and out["points"] == 0
    assert out["raw"] == out["base_points"] == out["fan_total"] == 0


def test_discarded_de_blocks_the_win():
    _assert_refused(wl("123m456m234p678s34sNN", "5s", discarded_wild=True), "discarded")


def test_no_win_on_a_discarded_de():
    out = wl("123m456m234p678s345sN", "*", win_by="discard", **{"from": "S"})
    _assert_refused(out, "discarded 得")


def test_unexposed_special_blocks_the_win():
    _assert_refused(wl("123m456m234p678s34sNP", "5s"), "unexposed special")
    _assert_refused(wl("123m456m234p678s345sN", "f3"), "unexposed special")
    _assert_refused(wl("123m456m234p678s34sNC", "5s", indicator="P"), "unexposed special")


def test_not_a_winning_shape():
    _assert_refused(wl("123m456m234p678s34sNE", "5s"), "not a winning hand")


# --- malformed input -----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "args, fields, words",
    [
        (("123m456m234p678s34sN7m", "5s"), {}, "得"),  # 7m written by its face
        (("123m456m234p678s345sN", "7m"), {}, "得"),
        (("123m456m234p678s34sNN", "5s"), {"flowers": ["f2"], "indicator": "f1"}, "得"),
        (("123m456m234p678s34sNN", "5s"), {"flowers": ["f1"], "indicator": "f1"}, "indicator"),
        (("123m456m234p678s34sNN", "5s"), {"flowers": ["C"]}, "not a special"),
        (("123m456m234p678s34sNN", "5s"), {"flowers": ["5m"]}, "not a special"),
        (("123m456m234p34sNN", "5s"), {"melds": ["pon P"]}, "special"),
        (("123m456m234p678s33s**", "*"), {"others": {"S": {"concealed": "*111p222p333p444p55p6p"}}},
         "*"),
        (("123m456m234p678s34sNN", "5s"), {"liable": "E"}, "liable"),
        (("123m456m234p678s34sNN", "5s"), {"liable": "S"}, "liable"),
        (("123m456m234p678s34sNN", "5s"), {"liable": "S", "win_by": "discard", "from": "W"},
         "liable"),
        (("123m456m234p678s34sNN", "5s"), {"others": {"S": {"concealed": "7m" + "1p" * 3}}},
         "others"),
        (("123m456m234p678s34sNN", "5s"), {"after_kong": True, "win_by": "discard",
                                           "from": "S"}, "after_kong"),
    ],
)
def test_malformed(args, fields, words):
    with pytest.raises(ScoreInputError) as info:
        wl(*args, **fields)
    assert words in str(info.value)


def _request(**changes: Any) -> ScoreRequest:
    fields: dict[str, Any] = {
        "ruleset": "wenling",
        "options": wenling_options(),
        "indicator": parse_tile("7m"),
        "winner": 0,
        "hand": Hand(parse_tiles("123m456m234p678s34sNN"), [], []),
        "win_tile": parse_tile("5s"),
    }
    fields.update(changes)
    return ScoreRequest(**fields)


def test_validate_wenling_directly():
    validate_wenling(_request())
    validate_wenling(_request(hand=Hand(parse_tiles("123m456m234p678s34sNP"), [], [])))
    bad = [
        _request(liable=0, win_by="discard", from_seat=1),
        _request(win_by="discard"),
        _request(win_by="discard", from_seat=0),
        _request(win_tile=None),
        _request(win_by="lazi"),
        _request(win_by="sideways"),
        _request(winner=4),
        _request(indicator=42),
        _request(hand=Hand(parse_tiles("123m456m234p678s34sN"), [], [])),
        _request(others={0: Hand(parse_tiles("1p" * 3), [], [])}),
        _request(others={1: Hand(parse_tiles("111p222p333p444p5p"), [], [])}),
        _request(hand=Hand(parse_tiles("123m456m234p678s34sNN"), [], [34, 34])),
        _request(after_kong=True, after_special=True),
    ]
    for req in bad:
        with pytest.raises(ScoreInputError):
            validate_wenling(req)


def test_score_wenling_on_a_request_object():
    out = score_wenling(_request(hand=Hand(parse_tiles("123m456m234p34sNN"),
                                           [parse_meld("pon E")], [])))
    assert out["legal"] and out["fan_total"] == 2  # 门风刻, 无得
    assert out["totals"] == {"E": 110, "S": 20, "W": 20, "N": 20}  # (4 + 2 + 20) × 4 = 104


# --- anything at all: an answer or a ScoreInputError, never another exception --------------------

TILE_TEXT = st.sampled_from(
    ["1m", "5m", "7m", "9p", "3s", "E", "S", "N", "C", "F", "P", "f1", "f2", "f6", "*"]
)
MELD_TEXT = st.sampled_from(["pon C", "chi 123m", "akong E", "mkong 9p", "bukong 5s", "pon P",
                             "pon 7m", "chi 789s"])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(TILE_TEXT, min_size=0, max_size=19).map("".join),
    st.lists(MELD_TEXT, max_size=5),
    st.lists(TILE_TEXT, max_size=5),
    st.sampled_from(["7m", "P", "f1", "f5", "C"]),
    st.sampled_from([None, "5m", "*", "P", "C"]),
    st.sampled_from(["self_draw", "discard", "rob_kong", "lazi"]),
    st.sampled_from([None, "S", "E"]),
)
def test_fuzz_never_crashes(concealed, melds, flowers, indicator, win, win_by, liable):
    fields: dict[str, Any] = {"indicator": indicator, "win_by": win_by}
    if win_by in ("discard", "rob_kong"):
        fields["from"] = "S"
    if liable:
        fields["liable"] = liable
    try:
        out = wl(concealed, win, melds=melds, flowers=flowers, **fields)
    except ScoreInputError:
        return
    assert out["legal"] in (True, False)
    assert sum(out["payments"].values()) == 0
