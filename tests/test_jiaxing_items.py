"""Every Jiaxing 台 and 番 item and every scoring J-A option, on hand-written hands."""

from __future__ import annotations

from typing import Any

import pytest

from baida.rulesets import score_json
from baida.scoring import ScoreInputError
from baida.scoring.jiaxing_items import (
    CARRY_TOKENS,
    FAN_ITEMS,
    TAI_ITEMS,
    HandStart,
    carry_tokens,
)
from baida.tiles import parse_tile


def jx(concealed: str, win: str, melds: tuple[str, ...] = (), **fields: Any) -> dict[str, Any]:
    """Score a Jiaxing hand; defaults: South wins by self-draw, East round, 百搭 9s."""
    options = fields.pop("options", {})
    obj: dict[str, Any] = {
        "ruleset": "jiaxing",
        "indicator": fields.pop("indicator", "9s"),
        "winner": fields.pop("winner", "S"),
        "hand": {"concealed": concealed, "melds": list(melds)},
        "win_tile": win,
        "options": options,
    }
    obj.update(fields)
    return score_json(obj)


def tai(out: dict[str, Any]) -> dict[str, int]:
    return {item["name"]: item["value"] for item in out["tai"]}


def fan(out: dict[str, Any]) -> dict[str, int]:
    return {item["name"]: item["value"] for item in out["fan"]}


# a plain 混一色 hand around an honour triplet: 123m 456m 789m XXX 11m
def honour_hand(x: str, **fields: Any) -> dict[str, Any]:
    return jx(f"{x}{x}{x}123m456m789m1m", "1m", **fields)


# ---------------------------------------------------------------- the item tables


def test_the_item_tables_are_the_rules_lists():
    assert [(i.name, i.value) for i in TAI_ITEMS] == [
        ("红中刻", 1), ("发财刻", 1), ("白板刻", 1), ("门风", 1), ("风圈", 1), ("无百搭", 1),
        ("对对和", 2), ("混一色", 2), ("清一色", 4), ("全老头", 10),
    ]
    fans = [(i.name, i.value) for i in FAN_ITEMS] + [(t.name, t.value) for t in CARRY_TOKENS]
    assert sorted(fans) == sorted([
        ("三百搭", 1), ("杠上开花", 1), ("单吊", 1), ("黄番", 1), ("老头黄", 1), ("海底捞月", 1),
        ("天和", 2), ("地和", 2), ("包子", 1), ("百搭连庄", 1),
    ])
    assert all(i.english for i in TAI_ITEMS + FAN_ITEMS)


# ---------------------------------------------------------------- 台


@pytest.mark.parametrize("dragon,name", [("C", "红中刻"), ("F", "发财刻"), ("P", "白板刻")])
def test_dragon_triplets(dragon, name):
    out = honour_hand(dragon)
    assert out["legal"]
    assert tai(out) == {name: 1, "无百搭": 1, "混一色": 2}
    assert out["points"] == 4
    assert out["payments"] == {"E": -4, "S": 12, "W": -4, "N": -4}


def test_a_kong_counts_as_a_triplet():
    out = jx("123m456m789m1m", "1m", melds=("mkong C",))
    assert tai(out) == {"红中刻": 1, "无百搭": 1, "混一色": 2}


def test_a_dragon_pair_scores_nothing():
    out = jx("123m456m789m111mC", "C")
    assert tai(out) == {"无百搭": 1, "混一色": 2}


def test_seat_wind_triplet():
    out = honour_hand("S", winner="S", round_wind="E")
    assert tai(out) == {"门风": 1, "无百搭": 1, "混一色": 2}


def test_round_wind_triplet():
    out = honour_hand("W", winner="S", round_wind="W")
    assert tai(out) == {"风圈": 1, "无百搭": 1, "混一色": 2}


def test_seat_and_round_wind_stack():
    out = honour_hand("E", winner="E", round_wind="E")
    assert tai(out) == {"门风": 1, "风圈": 1, "无百搭": 1, "混一色": 2}


def test_another_wind_triplet_scores_nothing():
    assert tai(honour_hand("N", winner="S", round_wind="E")) == {"无百搭": 1, "混一色": 2}


def test_no_wild():
    assert "无百搭" in tai(jx("123p456p789p111p5p", "5p"))
    assert "无百搭" not in tai(jx("123p456p789p111p*", "5p"))


def test_all_triplets():
    out = jx("111m222p333sNNN5m", "5m")
    assert out["legal"]
    assert tai(out) == {"对对和": 2, "无百搭": 1}


def test_half_flush_and_all_triplets_stack():
    out = jx("111m222m333mNNN5m", "5m")
    assert tai(out) == {"对对和": 2, "混一色": 2, "无百搭": 1}


def test_full_flush():
    out = jx("123p456p789p111p5p", "5p")
    assert tai(out) == {"清一色": 4, "无百搭": 1}


def test_all_honours_stacks_with_all_triplets_by_default():
    out = jx("EEESSSWWWCCCF", "F", winner="N", round_wind="N")
    assert tai(out) == {"全老头": 10, "对对和": 2, "红中刻": 1, "无百搭": 1}


def test_all_honours_absorbs_all_triplets_when_configured():
    out = jx("EEESSSWWWCCCF", "F", winner="N", round_wind="N",
             options={"qlt_stacks_with_ddh": False})
    assert tai(out) == {"全老头": 10, "红中刻": 1, "无百搭": 1}


def test_the_pattern_requirement():
    out = jx("CCCFFF123m456p9s", "9s", indicator="1s")
    assert out["legal"] is False
    assert out["reason"] == "台头和 needs one of 清一色/混一色/全老头/对对和"
    assert out["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert out["tai"] == [] and out["fan"] == [] and out["points"] == 0


def test_two_tai_without_a_pattern_when_the_pattern_is_not_required():
    out = jx("CCCFFF123m456p9s", "9s", options={"require_pattern": False}, indicator="1s")
    assert out["legal"]
    assert tai(out) == {"红中刻": 1, "发财刻": 1, "无百搭": 1}
    out = jx("CCC123m456m456p9s", "9s", options={"require_pattern": False}, indicator="1p")
    assert out["legal"]
    assert tai(out) == {"红中刻": 1, "无百搭": 1}
    out = jx("NNN123m456m456p9s", "9s", options={"require_pattern": False}, indicator="1p")
    assert out["legal"] is False
    assert "两台起和" in out["reason"]


def test_not_a_winning_shape():
    out = jx("123m456m789m111m2p", "5p")
    assert out["legal"] is False
    assert "not a winning hand" in out["reason"]


def test_seven_pairs_is_not_a_win():
    out = jx("11m33m55m77m99m22p4p", "4p")
    assert out["legal"] is False


# ---------------------------------------------------------------- 番


def test_three_wilds():
    out = jx("123m456m789m11m**", "*")
    assert out["legal"]
    assert fan(out) == {"三百搭": 1}
    assert len(out["wilds"]) == 3


def test_kong_replacement_win():
    out = jx("234p567p789p5p", "5p", melds=("akong 1p",), after_kong=True)
    assert fan(out) == {"杠上开花": 1}
    assert out["points"] == 5 * 2


def test_single_wait_after_four_melds():
    melds = ("pon C", "pon 1m", "chi 234m", "pon 9m")
    out = jx("5m", "5m", melds=melds)
    assert fan(out) == {"单吊": 1}
    assert tai(out) == {"红中刻": 1, "混一色": 2, "无百搭": 1}


def test_single_wait_with_a_wild_is_still_single_wait():
    melds = ("pon C", "pon 1m", "chi 234m", "pon 9m")
    out = jx("*", "5m", melds=melds)
    assert fan(out) == {"单吊": 1}


def test_single_wait_is_structural_by_default():
    out = jx("123m456m789m111m5m", "5m")
    assert "单吊" not in fan(out)


def test_single_wait_as_any_pair_wait():
    out = jx("123m456m789m111m5m", "5m", options={"dandiao_mode": "pair_wait"})
    assert fan(out) == {"单吊": 1}
    # a wild win tile can be the pair's second tile
    out = jx("123m456m789m111m5m", "*", options={"dandiao_mode": "pair_wait"})
    assert fan(out) == {"单吊": 1}
    # the win tile completes a run, not the pair
    out = jx("123m456m789m11m45m", "6m", options={"dandiao_mode": "pair_wait"})
    assert fan(out) == {}


def test_carried_fan_uses_one_token():
    out = jx("123p456p789p111p5p", "5p", carry_pool=2)
    assert fan(out) == {"黄番": 1}
    assert out["carry_pool_after"] == 1
    assert out["points"] == 10
    out = jx("123p456p789p111p5p", "5p", carry_pool=0)
    assert fan(out) == {}
    assert out["carry_pool_after"] == 0


def test_carried_fans_switched_off():
    out = jx("123p456p789p111p5p", "5p", carry_pool=2, options={"carry_fans_enabled": False})
    assert fan(out) == {}
    assert out["carry_pool_after"] == 2


def test_the_pool_is_kept_when_the_win_is_not_legal():
    out = jx("123m456m789m111m2p", "5p", carry_pool=3)
    assert out["legal"] is False
    assert out["carry_pool_after"] == 3


def test_last_tile():
    out = jx("123p456p789p111p5p", "5p", last_tile=True)
    assert fan(out) == {"海底捞月": 1}


def test_heavenly_hand():
    out = jx("123p456p789p111p5p", "5p", winner="E", heavenly=True)
    assert fan(out) == {"天和": 2}
    assert out["points"] == 5 * 4
    assert out["payments"]["E"] == 60


def test_earthly_hand_first_draw():
    out = jx("123p456p789p111p5p", "5p", winner="W", earthly=True)
    assert fan(out) == {"地和": 2}


def test_earthly_hand_on_the_dealers_first_discard():
    options = {"dihu_mode": "dealer_first_discard", "allow_discard_win": True}
    out = jx("123p456p789p111p5p", "5p", winner="W", earthly=True, win_by="discard",
             **{"from": "E"}, options=options)
    assert fan(out) == {"地和": 2}
    assert out["payments"] == {"E": -20, "S": 0, "W": 20, "N": 0}
    with pytest.raises(ScoreInputError, match="earthly"):
        jx("123p456p789p111p5p", "5p", winner="W", earthly=True, options=options)


def test_carried_fan_on_heavenly_and_earthly_hands():
    out = jx("123p456p789p111p5p", "5p", winner="E", heavenly=True, carry_pool=1)
    assert fan(out) == {"天和": 2, "黄番": 1}
    assert out["carry_pool_after"] == 0
    out = jx("123p456p789p111p5p", "5p", winner="E", heavenly=True, carry_pool=1,
             options={"carry_on_tian_di": False})
    assert fan(out) == {"天和": 2}
    assert out["carry_pool_after"] == 1
    out = jx("123p456p789p111p5p", "5p", winner="N", earthly=True, carry_pool=1,
             options={"carry_on_tian_di": False})
    assert fan(out) == {"地和": 2}
    assert out["carry_pool_after"] == 1


def test_heavenly_hand_needs_the_dealer_and_no_kong():
    with pytest.raises(ScoreInputError, match="heavenly"):
        jx("123p456p789p111p5p", "5p", winner="S", heavenly=True)
    with pytest.raises(ScoreInputError, match="heavenly"):  # J-A19: after a 暗杠 it is 杠上开花
        jx("123p456p789p5p", "5p", melds=("akong 1p",), winner="E", heavenly=True)


def test_carry_tokens():
    assert [t.name for t in carry_tokens(HandStart(parse_tile("C"), (2, 5), None))] == ["老头黄"]
    assert [t.name for t in carry_tokens(HandStart(parse_tile("5m"), (3, 3), None))] == ["包子"]
    names = [t.name for t in carry_tokens(HandStart(parse_tile("E"), (4, 4), parse_tile("E")))]
    assert names == ["老头黄", "包子", "百搭连庄"]
    assert carry_tokens(HandStart(parse_tile("5m"), (1, 2), parse_tile("6m"))) == []


def test_fans_double():
    # 清一色 4 (wilds, so no 无百搭); 三百搭 + 杠上开花 + 海底捞月 + 黄番 = 4 fan
    out = jx("456p789p55p**", "*", melds=("akong 1p",), after_kong=True, last_tile=True,
             carry_pool=1)
    assert tai(out) == {"清一色": 4}
    assert fan(out) == {"三百搭": 1, "杠上开花": 1, "海底捞月": 1, "黄番": 1}
    assert out["points"] == 4 * 16


# ---------------------------------------------------------------- wilds (J-A5, J-A8, J-A18)


def test_wild_takes_the_face_that_pays_most():
    # the wild makes CCC (红中刻) or NNN (nothing) with the other as the pair
    out = jx("CC123p456p789pN*", "N")
    assert tai(out) == {"红中刻": 1, "混一色": 2}
    assert out["wilds"] == ["C"]


def test_a_wild_honour_makes_a_half_flush():
    # two wilds as an honour pair give 混一色 (2); as a 筒 pair, 清一色 (4)
    out = jx("123p456p789p111p*", "*")
    assert tai(out) == {"清一色": 4}
    out = jx("123p456p789p111p*", "*", indicator="E", options={"require_pattern": False})
    assert tai(out) == {"清一色": 4}


def test_wild_completed_honour_triplet_scores_by_default():
    out = jx("CC*123m456m789m1m", "1m")
    assert tai(out) == {"红中刻": 1, "混一色": 2}


def test_wild_completed_honour_triplet_when_configured_not_to_score():
    out = jx("CC*123m456m789m1m", "1m", options={"wild_honor_triplet_tai": False})
    assert tai(out) == {"混一色": 2}


def test_wild_as_its_own_face_voids_no_wild_by_default():
    out = jx("123m4m*6m789m111m9m", "9m", indicator="5m")
    assert tai(out) == {"清一色": 4}


def test_wild_as_its_own_face_counts_as_natural_when_configured():
    out = jx("123m4m*6m789m111m9m", "9m", indicator="5m",
             options={"wild_as_self_is_natural": True})
    assert tai(out) == {"清一色": 4, "无百搭": 1}
    assert out["wilds"] == ["5m"]


def test_wild_as_a_fifth_copy():
    # four natural 1m and a wild: the wild must be a fifth 1m (the pair 1m1m) for 清一色
    out = jx("1111m234m567m789m", "*")
    assert out["legal"]
    assert out["wilds"] == ["1m"]
    out = jx("1111m234m567m789m", "*", options={"wild_fifth_copy": False})
    assert out["legal"]
    assert out["wilds"] != ["1m"]


def test_no_fifth_copy_can_make_a_hand_not_win():
    # the single 6p pairs with the wild drawn: a fifth 6p beside the 碰 of 6p
    melds = ("pon 6p", "pon 2p", "pon 3p", "pon 4p")
    out = jx("6p", "*", melds=melds)
    assert tai(out) == {"清一色": 4, "对对和": 2}
    assert fan(out) == {"单吊": 1}
    out = jx("6p", "*", melds=melds, options={"wild_fifth_copy": False})
    assert out["legal"] is False
    assert "fifth" in out["reason"]


def test_wilds_read_as_a_second_triplet_of_a_held_honour():
    """J-A18 (yes): EEE and three 百搭 read as a second EEE score 门风 and 风圈 twice."""
    east = dict(winner="E", round_wind="E", indicator="5m")
    out = jx("EEE***123p456p9p", "9p", **east)
    assert tai(out) == {"门风": 2, "风圈": 2, "混一色": 2}
    assert out["tai_total"] == 6 and out["wilds"] == ["E", "E", "E"]
    # no 5th copy: the wilds are the best other honour triplet, 红中 (5 tai)
    out = jx("EEE***123p456p9p", "9p", options={"wild_fifth_copy": False}, **east)
    assert tai(out) == {"红中刻": 1, "门风": 1, "风圈": 1, "混一色": 2}
    # wild triplets that do not score (J-A8 no): the second EEE adds nothing
    out = jx("EEE***123p456p9p", "9p", options={"wild_honor_triplet_tai": False}, **east)
    assert tai(out) == {"门风": 1, "风圈": 1, "混一色": 2}


@pytest.mark.parametrize("concealed,melds,item", [
    ("C**123p456p9p", ("pon C",), "红中刻"),  # a 碰 of C, and the fourth C with two 百搭
    ("CCCC**123p456p9p", (), "红中刻"),  # four C and two 百搭: CCC + C**
    ("***123p456p9p", ("mkong E",), "门风"),  # a kong of E and three 百搭 (6th, 7th copy)
])
def test_a_held_honour_and_wilds_make_two_triplets(concealed, melds, item):
    east = dict(winner="E", round_wind="E", indicator="5m")
    out = jx(concealed, "9p", melds=melds, **east)
    assert tai(out)[item] == 2
    out = jx(concealed, "9p", melds=melds, options={"wild_fifth_copy": False}, **east)
    assert out["legal"] is False or tai(out).get(item) == 1


# ---------------------------------------------------------------- win methods (J-A3, J-A9)


def test_no_discard_win_by_default():
    out = jx("123p456p789p111p5p", "5p", win_by="discard", **{"from": "E"})
    assert out["legal"] is False
    assert out["reason"] == "硬自摸: no win on a discard"


def test_discard_win_one_share():
    out = jx("123p456p789p111p5p", "5p", win_by="discard", **{"from": "E"},
             options={"allow_discard_win": True})
    assert out["points"] == 5
    assert out["payments"] == {"E": -5, "S": 5, "W": 0, "N": 0}


def test_discard_win_one_share_with_the_house_bonus_is_seed_000s_13():
    out = jx("FFF123s45s*N", "N", melds=("akong 9s",), indicator="5m", winner="W",
             carry_pool=2, win_by="discard", **{"from": "S"},
             options={"allow_discard_win": True, "winner_bonus_points": 1})
    assert out["tai_total"] == 3
    # no 杠上开花 on a discard: 3 tai 1 fan = 6, + 1
    assert out["payments"] == {"E": 0, "S": -6, "W": 7, "N": 0}


def test_discard_win_three_shares():
    out = jx("123p456p789p111p5p", "5p", win_by="discard", **{"from": "N"},
             options={"allow_discard_win": True, "discard_win_payment": "discarder_three_shares"})
    assert out["payments"] == {"E": 0, "S": 15, "W": 0, "N": -15}


def test_a_discarded_wild_is_dead():
    out = jx("123p456p789p111p5p", "*", win_by="discard", **{"from": "N"},
             options={"allow_discard_win": True})
    assert out["legal"] is False
    assert "百搭" in out["reason"]


def test_robbing_a_kong_the_robbed_player_pays_three_shares():
    out = jx("123p678p789p11p46p", "5p", win_by="rob_kong", **{"from": "W"})
    assert out["legal"]
    assert out["points"] == 5
    assert out["payments"] == {"E": 0, "S": 15, "W": -15, "N": 0}


def test_rob_refused_when_the_hand_wins_on_any_tile():
    # CCC FFF PPP E + three wilds: any tile makes a triplet or the pair
    hand = "CCCFFFPPPE***"
    out = jx(hand, "1m", win_by="rob_kong", **{"from": "W"})
    assert out["legal"] is False
    assert out["reason"] == "抢杠 refused: the hand wins on any tile"
    out = jx(hand, "1m", win_by="rob_kong", **{"from": "W"},
             options={"qianggang_forbid": "wild_pair"})
    assert out["legal"]
    out = jx(hand, "1m", win_by="rob_kong", **{"from": "W"},
             options={"qianggang_forbid": "universal_wait"})
    assert out["legal"] is False


def test_rob_refused_when_the_robbed_tile_pairs_with_a_wild():
    melds = ("chi 123m", "pon C", "pon F", "pon E")
    out = jx("*", "5m", melds=melds, win_by="rob_kong", **{"from": "W"})
    assert out["legal"] is False
    assert "单吊抢杠" in out["reason"]
    out = jx("*", "5m", melds=melds, win_by="rob_kong", **{"from": "W"},
             options={"qianggang_forbid": "wild_pair"})
    assert out["legal"] is False
    # not a universal wait: a 1p would break the pattern
    out = jx("*", "5m", melds=melds, win_by="rob_kong", **{"from": "W"},
             options={"qianggang_forbid": "universal_wait"})
    assert out["legal"]
    assert fan(out) == {"单吊": 1}


def test_rob_allowed_when_some_reading_does_not_pair_with_the_wild():
    out = jx("123p678p789p11p4p*", "5p", win_by="rob_kong", **{"from": "W"})
    assert out["legal"]
    assert out["payments"] == {"E": 0, "S": 12, "W": -12, "N": 0}


def test_robbed_tile_cannot_be_held_twice():
    with pytest.raises(ScoreInputError, match="win_tile"):
        jx("123p456p789p111p5p", "5p", win_by="rob_kong", **{"from": "W"})


def test_seed_004_chengbao_and_robbing():
    out = jx("12p*56p7p*9p*CCEE", "3p", indicator="5m", winner="S", round_wind="S", base=5,
             carry_pool=1, santan=[["S", "W"]], win_by="rob_kong", **{"from": "W"})
    assert out["points"] == 60
    assert out["payments"] == {"E": -120, "S": 720, "W": -480, "N": -120}
    assert fan(out) == {"三百搭": 1, "黄番": 1}


# ---------------------------------------------------------------- settlement (§A5, §A6)

QYS = ("123p456p789p111p5p", "5p")  # 清一色 + 无百搭 = 5 tai


def test_base_multiplies_the_share():
    out = jx(*QYS, base=5)
    assert out["points"] == 25
    assert out["payments"] == {"E": -25, "S": 75, "W": -25, "N": -25}


def test_the_house_bonus_is_paid_by_the_house():
    out = jx(*QYS, options={"winner_bonus_points": 1})
    assert out["payments"] == {"E": -5, "S": 16, "W": -5, "N": -5}
    assert sum(out["payments"].values()) == 1


def test_chengbao_winner_is_a_partner():
    out = jx(*QYS, santan=[["S", "N"]])
    assert out["payments"] == {"E": -10, "S": 45, "W": -10, "N": -25}


def test_chengbao_with_a_player_who_gave_up():
    out = jx(*QYS, santan=[["S", "N"]], gave_up=["E"])
    assert out["payments"] == {"E": 0, "S": 35, "W": -10, "N": -25}


def test_chengbao_winner_is_not_a_partner():
    out = jx(*QYS, santan=[["E", "N"]])
    assert out["payments"] == {"E": -10, "S": 25, "W": -5, "N": -10}
    out = jx(*QYS, santan=[["E", "N"]], gave_up=["W"])
    assert out["payments"] == {"E": -10, "S": 20, "W": 0, "N": -10}


def test_two_chengbao_pairs():
    out = jx(*QYS, santan=[["S", "N"], ["E", "W"]])
    assert out["payments"] == {"E": -10, "S": 45, "W": -10, "N": -25}


def test_a_player_who_gave_up_cannot_win():
    out = jx(*QYS, santan=[["E", "N"]], gave_up=["S"])
    assert out["legal"] is False
    assert "放弃" in out["reason"]
    out = jx(*QYS, santan=[["E", "N"]], gave_up=["S"], options={"gaveup_can_win": True})
    assert out["payments"] == {"E": -10, "S": 25, "W": -5, "N": -10}


def test_robbing_with_chengbao_absorb_and_additive():
    rob = dict(win_by="rob_kong", santan=[["E", "N"]], **{"from": "W"})
    hand = ("123p678p789p11p46p", "5p")
    out = jx(*hand, **rob)  # W is a plain payer: 3, not 1 + 3
    assert out["payments"] == {"E": -10, "S": 35, "W": -15, "N": -10}
    out = jx(*hand, **rob, options={"rob_with_chengbao": "additive"})
    assert out["payments"] == {"E": -10, "S": 40, "W": -20, "N": -10}


@pytest.mark.parametrize("mode", ["absorb", "additive"])
@pytest.mark.parametrize("payment,discarder_pays", [
    ("discarder_one_share", 1), ("discarder_three_shares", 3),
])
def test_without_a_chengbao_pair_both_modes_keep_the_plain_rule(mode, payment, discarder_pays):
    """J-A10: the modes are 承包 arithmetic; with no pair in force only the robbed player
    (3 shares) or the discarder (per discard_win_payment) pays, nobody else."""
    hand = ("123p678p789p11p46p", "5p")  # 清一色 4 + 无百搭 1 = 5 tai
    options = {"rob_with_chengbao": mode, "discard_win_payment": payment}
    out = jx(*hand, win_by="rob_kong", options=options, **{"from": "W"})
    assert out["payments"] == {"E": 0, "S": 15, "W": -15, "N": 0}
    options["allow_discard_win"] = True
    out = jx(*hand, win_by="discard", options=options, **{"from": "N"})
    assert out["payments"] == {"E": 0, "S": 5 * discarder_pays, "W": 0, "N": -5 * discarder_pays}


def test_robbing_a_partner():
    out = jx("123p678p789p11p46p", "5p", win_by="rob_kong", santan=[["S", "W"]],
             **{"from": "W"})
    assert out["payments"] == {"E": -10, "S": 60, "W": -40, "N": -10}


def test_chi_at_a_table_without_chi():
    out = jx("456p789p111p5p", "5p", melds=("chi 123p",), options={"allow_chi": False})
    assert out["legal"] is False
    assert "吃" in out["reason"]
    assert jx("456p789p111p5p", "5p", melds=("chi 123p",))["legal"]


def test_santan_off_rejects_pairs():
    with pytest.raises(ScoreInputError, match="santan"):
        jx(*QYS, santan=[["E", "N"]], options={"santan_enabled": False})


@pytest.mark.parametrize("option,value", [
    ("dealer_keeps_on_draw", False),  # J-A1: who deals next
    ("santan_threshold", 2),  # J-A11: when a 三摊 pair forms
    ("carry_tokens_on_draw", False),  # J-A13: the pool after a drawn hand
    ("wall_reserve", 14),  # J-A16: when the wall ends
    ("rounds", 1),  # J-A20: match length
])
def test_options_of_play_do_not_change_a_score(option, value):
    plain = jx(*QYS, santan=[["S", "N"]], carry_pool=1)
    assert jx(*QYS, santan=[["S", "N"]], carry_pool=1, options={option: value}) == plain


def test_score_json_takes_an_array():
    one = {"ruleset": "jiaxing", "indicator": "9s", "winner": "S",
           "hand": {"concealed": QYS[0]}, "win_tile": QYS[1]}
    out = score_json([one, dict(one, winner="E")])
    assert [o["payments"]["E"] for o in out] == [-5, 15]
    with pytest.raises(ScoreInputError) as failure:
        score_json([one, dict(one, winner="X")])
    assert str(failure.value).startswith("[1].winner: ")
