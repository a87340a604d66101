"""Every item the scorers can award, with a stable id, its names and its meaning in Chinese and
English: the one place the 玩法 page (``baida.rulebook``) and anything else that names an
item to a person take them from.

The values are never restated here: they come from the scorers' own item tables
(``jiaxing_items``, ``wenling_items``), looked up by the Chinese name the scorer writes in its
breakdown. ``jiaxing_awardable()`` and ``wenling_awardable()`` list those names from the same
tables, and the tests check that every one of them has an entry (and that no entry names an
item the scorer lacks). A ruleset object offers its own as ``catalogue(options)``,
``awardable()`` and ``catalogue_entries()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.options import JiaxingOptions, WenlingOptions
from ..tiles import GREEN, RED, WHITE
from . import jiaxing_items as jx
from . import wenling_items as wl

Text = dict[str, str]  # {"zh": ..., "en": ...}


def text(zh: str, en: str) -> Text:
    return {"zh": zh, "en": en}


@dataclass(frozen=True, slots=True)
class Entry:
    """How a person reads one item: id (unique in its ruleset), English name, what it needs."""

    id: str
    en: str
    when_zh: str
    when_en: str
    each: bool = False  # counted once per occurrence (each triplet, each exposed tile)


def _e(id_: str, en: str, when_zh: str, when_en: str, each: bool = False) -> Entry:
    return Entry(id_, en, when_zh, when_en, each)


# ---------------------------------------------------------------- Jiaxing (English: the scorer's)

JIAXING_TAI: dict[str, Entry] = {
    "红中刻": _e("tai.red_dragon_triplet", "",
        "红中的刻子或杠子", "a triplet or kong of 红中 (C)", each=True),
    "发财刻": _e("tai.green_dragon_triplet", "",
        "发财的刻子或杠子", "a triplet or kong of 发财 (F)", each=True),
    "白板刻": _e("tai.white_dragon_triplet", "",
        "白板的刻子或杠子", "a triplet or kong of 白板 (P)", each=True),
    "门风": _e("tai.seat_wind_triplet", "",
        "自己门风的刻子或杠子（庄家是东）",
        "a triplet or kong of your seat wind (the dealer is East)", each=True),
    "风圈": _e("tai.round_wind_triplet", "",
        "本圈风的刻子或杠子；和门风可以相加",
        "a triplet or kong of the round wind; adds to the seat wind", each=True),
    "无百搭": _e("tai.no_wild", "",
        "和牌时手里没有百搭", "no 百搭 in the winning hand"),
    "对对和": _e("tai.all_triplets", "",
        "四组都是刻子或杠子，加一对将；不能有顺子、不能吃",
        "four triplets or kongs and a pair: no sequence, no 吃"),
    "混一色": _e("tai.half_flush", "",
        "只有一种花色（万、筒或条），再加风牌或箭牌",
        "one suit only (万, 筒 or 条) plus winds or dragons"),
    "清一色": _e("tai.full_flush", "",
        "只有一种花色，没有风牌和箭牌", "one suit only, no winds or dragons"),
    "全老头": _e("tai.all_honours", "",
        "全是风牌和箭牌（东南西北中发白）", "winds and dragons only"),
}

JIAXING_FAN: dict[str, Entry] = {
    "三百搭": _e("fan.three_wilds", "",
        "三张百搭都在和牌里", "all three 百搭 in the winning hand"),
    "杠上开花": _e("fan.kong_replacement_win", "",
        "和的是杠后补的那张牌", "the winning tile is the replacement drawn after a kong"),
    "单吊": _e("fan.single_wait", "",
        "吃碰杠了四组，手里只剩一张牌时和牌",
        "four melds made, a single tile left in hand, and the win pairs it"),
    "黄番": _e("fan.carried_fan", "",
        "从黄番池里用掉一个（见黄番）", "one token taken from the carried-fan pool (see below)"),
    "海底捞月": _e("fan.last_tile", "",
        "摸到最后一张能摸的牌和牌", "the winning tile is the last tile that could be drawn"),
    "天和": _e("fan.heavenly_hand", "",
        "庄家用起手的14张牌和，还没打过牌也没杠过",
        "the dealer wins on the 14 dealt tiles, before any discard or kong"),
    "地和": _e("fan.earthly_hand", "",
        "闲家摸第一张牌就自摸和，之前没打牌也没吃碰",
        "a non-dealer wins on the first draw, before any discard or claim"),
}

JIAXING_CARRY: dict[str, Entry] = {
    "老头黄": _e("carry.honour_wild", "",
        "本局的百搭是风牌或箭牌", "the wild kind is a wind or a dragon"),
    "包子": _e("carry.dice_double", "",
        "本局掷出的两颗骰子点数相同", "the two dice show the same number"),
    "百搭连庄": _e("carry.same_wild_again", "",
        "本局的百搭和上一局相同", "the wild kind is the same as in the previous hand"),
}

# ---------------------------------------------------------------- Wenling

# the exposed special dragons score both 和 and 番, under the same names
_EXPOSED = {
    "翻白板": ("exposed_white", "Exposed White", "每张翻出的白板", "each exposed 白板"),
    "翻红中": ("exposed_red", "Exposed Red", "红中是特殊牌时，每张翻出的红中",
            "each exposed 红中, when 红中 is a special"),
    "翻发财": ("exposed_green", "Exposed Green", "发财是特殊牌时，每张翻出的发财",
            "each exposed 发财, when 发财 is a special"),
}

WENLING_BASE: dict[str, Entry] = {
    "对子": _e("he.valued_pair", "Valued pair",
        "将是自己的门风或箭牌（中发白）", "the pair is your seat wind or a dragon"),
    "刻子": _e("he.exposed_triplet", "Exposed triplet",
        "碰出来的刻子", "a triplet claimed with 碰", each=True),
    "暗刻": _e("he.concealed_triplet", "Concealed triplet",
        "手里的三张相同牌", "three identical tiles held in the hand", each=True),
    "明杠": _e("he.exposed_kong", "Exposed kong",
        "明杠或补杠", "a kong on a discard or an added kong", each=True),
    "暗杠": _e("he.concealed_kong", "Concealed kong",
        "四张自己摸的相同牌杠下", "a kong of four tiles you drew yourself", each=True),
    **{name: _e(f"he.{id_}", *rest, each=True) for name, (id_, *rest) in _EXPOSED.items()},
    "单吊": _e("he.single_wait", "Single wait",
        "和的牌凑成将", "the winning tile completes the pair"),
    "嵌档": _e("he.closed_wait", "Closed wait",
        "和的牌是顺子中间那张（13万和2万）",
        "the winning tile is the middle of a sequence (2m to 1m 3m)"),
    "靠柄": _e("he.edge_wait", "Edge wait",
        "12和3，或89和7", "a 3 completing 1-2-3, or a 7 completing 7-8-9"),
    "自摸": _e("he.self_draw", "Self-draw",
        "和自己摸到的牌", "the winning tile was drawn"),
}

WENLING_FAN: dict[str, Entry] = {
    **{name: _e(f"fan.{id_}", *rest, each=True) for name, (id_, *rest) in _EXPOSED.items()},
    "门风花牌": _e("fan.seat_flower", "Seat flower",
        "每张翻出的本门风花牌（春梅东、夏兰南、秋竹西、冬菊北）",
        "each exposed flower of your seat (East 春梅, South 夏兰, West 秋竹, North 冬菊)",
        each=True),
    "门风刻": _e("fan.seat_wind_triplet", "Seat wind triplet",
        "自己门风的刻子或杠子", "a triplet or kong of your seat wind"),
    "字牌刻": _e("fan.dragon_triplet", "Dragon triplet",
        "箭牌（不是特殊牌的中发白）的刻子或杠子",
        "a triplet or kong of a dragon that is not a special", each=True),
    "清一色": _e("fan.full_flush", "Full flush",
        "只有一种花色，没有风牌和箭牌", "one suit only, no winds or dragons"),
    "混一色": _e("fan.half_flush", "Half flush",
        "风牌或箭牌，加最多一种花色", "winds or dragons with one suit at most"),
    "对对和": _e("fan.all_triplets", "All triplets",
        "五组都是刻子或杠子", "all five sets are triplets or kongs"),
    "旁和": _e("fan.all_sequences", "All sequences, two-sided wait",
        "五组都是顺子，而且是两面听", "all five sets are sequences and the wait was two-sided"),
    "无得": _e("fan.no_wild", "No wild",
        "和牌里没有得", "no 得 in the winning hand"),
    "2张得": _e("fan.two_wilds", "Two wilds",
        "和牌里正好两张得", "exactly two 得 in the winning hand"),
    "杠上开花": _e("fan.kong_replacement_win", "Win on a kong replacement",
        "和的是杠后补的牌", "the winning tile is a kong's replacement"),
    "抢杠和": _e("fan.robbing_a_kong", "Robbing a kong",
        "和别人补杠的那张牌", "the win robs another player's added kong"),
    "自摸得": _e("fan.self_drawn_wild", "Self-drawn wild",
        "自摸到的和牌是得", "the self-drawn winning tile is a 得"),
}

WENLING_LIMIT: dict[str, Entry] = {
    wl.LAZI_THREE_WILDS: _e("limit.three_wilds", "Three wilds (limit)",
        "三张得都在手里", "all three 得 in your hand"),
    wl.LAZI_RED_FLOWERS: _e("limit.four_red_flowers", "Four red flowers",
        "春夏秋冬四张都翻出", "the four flowers 春夏秋冬 exposed"),
    wl.LAZI_BLACK_FLOWERS: _e("limit.four_black_flowers", "Four black flowers",
        "梅兰竹菊四张都翻出", "the four flowers 梅兰竹菊 exposed"),
    wl.LAZI_FOUR_SPECIALS[WHITE]: _e("limit.four_whites", "Four Whites",
        "四张白板都翻出", "all four 白板 exposed"),
    wl.LAZI_FOUR_SPECIALS[RED]: _e("limit.four_reds", "Four Reds",
        "红中是特殊牌时，四张红中都翻出", "all four 红中 exposed, when 红中 is a special"),
    wl.LAZI_FOUR_SPECIALS[GREEN]: _e("limit.four_greens", "Four Greens",
        "发财是特殊牌时，四张发财都翻出", "all four 发财 exposed, when 发财 is a special"),
    wl.LAZI_SEAT_WIND_KONG: _e("limit.seat_wind_kong", "Concealed seat wind kong",
        "暗杠自己的门风", "a concealed kong of your seat wind"),
    wl.LAZI_DRAGON_KONG: _e("limit.dragon_kong", "Concealed dragon kong",
        "暗杠不是得也不是特殊牌的箭牌",
        "a concealed kong of a dragon that is neither 得 nor a special"),
    wl.SIFENG: _e("limit.four_winds", "All four winds",
        "东南西北四种风都有（刻子、杠子或将）", "all four winds, as triplets, kongs or the pair"),
}

# base items a non-winner counts too (RULES.md §B4.3: no wait and no 自摸 items)
WENLING_NONWINNER_BASE = ("对子", "刻子", "暗刻", "明杠", "暗杠", "翻白板", "翻红中", "翻发财")


# ---------------------------------------------------------------- what the scorers can award


def jiaxing_awardable() -> dict[str, tuple[str, ...]]:
    """The names the Jiaxing scorer can write, by group, read from its item tables."""
    return {
        "tai": tuple(item.name for item in jx.TAI_ITEMS),
        "fan": tuple(item.name for item in jx.FAN_ITEMS),
        "carry": tuple(token.name for token in jx.CARRY_TOKENS),
    }


def wenling_awardable() -> dict[str, tuple[str, ...]]:
    """The names the Wenling scorer can write, by group, read from its item tables."""
    base = [wl.PAIR, *wl.MELD_ITEMS.values(), wl.CONCEALED_PUNG, *wl.EXPOSED_SPECIAL.values(),
            *wl.WAIT_ITEMS.values(), wl.SELF_DRAW]
    limits = [wl.LAZI_THREE_WILDS, wl.LAZI_RED_FLOWERS, wl.LAZI_BLACK_FLOWERS,
              *wl.LAZI_FOUR_SPECIALS.values(), wl.LAZI_SEAT_WIND_KONG, wl.LAZI_DRAGON_KONG,
              wl.SIFENG]
    return {
        "he": tuple(dict.fromkeys(item.name for item in base)),
        "fan": tuple(item.name for item in wl.FAN_ITEMS),
        "limit": tuple(limits),
    }


def jiaxing_entries() -> dict[str, dict[str, Entry]]:
    """The catalogue's Jiaxing entries by group, keyed by the scorer's name."""
    return {"tai": JIAXING_TAI, "fan": JIAXING_FAN, "carry": JIAXING_CARRY}


def wenling_entries() -> dict[str, dict[str, Entry]]:
    """The catalogue's Wenling entries by group, keyed by the scorer's name."""
    return {"he": WENLING_BASE, "fan": WENLING_FAN, "limit": WENLING_LIMIT}


# ---------------------------------------------------------------- the catalogue as data


def _item(name: str, entry: Entry, en: str, value: Any, **extra: Any) -> dict[str, Any]:
    out = {
        "id": entry.id,
        "name": text(name, en or entry.en),
        "when": text(entry.when_zh, entry.when_en),
        "value": value,
        "each": entry.each,
        "available": True,
        "note": None,
    }
    out.update(extra)
    return out


def _note(item: dict[str, Any], zh: str, en: str) -> None:
    item["note"] = text(zh, en)


def jiaxing_catalogue(options: JiaxingOptions) -> list[dict[str, Any]]:
    """The Jiaxing item groups as data: each item's id, names, meaning, value (from the
    scorer's tables), whether it counts per occurrence, and what this table's options say."""
    tai = [_item(i.name, JIAXING_TAI[i.name], i.english, i.value) for i in jx.TAI_ITEMS]
    fan = [_item(i.name, JIAXING_FAN[i.name], i.english, i.value) for i in jx.FAN_ITEMS]
    carry = [_item(t.name, JIAXING_CARRY[t.name], t.english, t.value) for t in jx.CARRY_TOKENS]
    by_name = {item["name"]["zh"]: item for item in tai + fan}
    honour = ("红中刻", "发财刻", "白板刻", "门风", "风圈")
    for name in honour:
        if options.wild_honor_triplet_tai:
            _note(by_name[name], "百搭补成的刻子也算", "a triplet completed with 百搭 counts too")
        else:
            _note(by_name[name], "百搭补成的刻子不算",
                  "a triplet completed with 百搭 does not count")
    if options.wild_as_self_is_natural:
        _note(by_name["无百搭"], "百搭全当它自己用时也算无百搭",
              "a hand whose 百搭 all stand for their own face counts as having none")
    else:
        _note(by_name["无百搭"], "百搭当它自己用也还是百搭",
              "a 百搭 used as its own face is still a 百搭")
    ddh = by_name["对对和"]["value"]
    if options.qlt_stacks_with_ddh:
        _note(by_name["全老头"], f"总是同时算对对和，共 {by_name['全老头']['value'] + ddh} 台",
              f"always scores 对对和 too: {by_name['全老头']['value'] + ddh} in all")
    else:
        _note(by_name["全老头"], "不另算对对和", "does not add 对对和")
    _note(by_name["清一色"], "可以和对对和相加", "adds to 对对和")
    _note(by_name["混一色"], "可以和对对和相加", "adds to 对对和")
    if options.dandiao_mode == "pair_wait":
        _note(by_name["单吊"], "本桌：凡是和牌凑成将都算",
              "this table: any win that completes the pair")
    if options.dihu_mode == "dealer_first_discard":
        _note(by_name["地和"], "本桌：和庄家打出的第一张牌",
              "this table: a win on the dealer's first discard")
    if not options.carry_fans_enabled:
        for item in [by_name["黄番"], *carry]:
            item["available"] = False
            _note(item, "本桌不算黄番", "this table plays without carried fan")
    elif not options.carry_on_tian_di:
        _note(by_name["黄番"], "天和、地和不用黄番", "not taken by 天和 or 地和")
    return [
        {"id": "tai", "unit": "tai", "items": tai},
        {"id": "fan", "unit": "fan", "items": fan},
        {"id": "carry", "unit": "fan", "items": carry},
    ]


def wenling_catalogue(options: WenlingOptions) -> list[dict[str, Any]]:
    """The Wenling item groups as data (as ``jiaxing_catalogue``)."""
    base: list[dict[str, Any]] = [
        _item(wl.PAIR.name, WENLING_BASE[wl.PAIR.name], "", wl.PAIR.value)
    ]
    for item in (wl.PUNG, wl.CONCEALED_PUNG, wl.EXPOSED_KONG, wl.CONCEALED_KONG):
        base.append(_item(item.name, WENLING_BASE[item.name], "",
                          {"heavy": item.heavy, "light": item.light}))
    flats = [*wl.EXPOSED_SPECIAL.values(), *wl.WAIT_ITEMS.values(), wl.SELF_DRAW]
    base += [_item(i.name, WENLING_BASE[i.name], "", i.value) for i in flats]
    for item in base:
        item["nonwinner"] = item["name"]["zh"] in WENLING_NONWINNER_BASE
    fan = [_item(i.name, WENLING_FAN[i.name], "", i.value, nonwinner=i.nonwinner)
           for i in wl.FAN_ITEMS]
    limit = [_item(name, entry, "", wl.LIMIT, nonwinner=True)
             for name, entry in WENLING_LIMIT.items()]
    base_by = {i["name"]["zh"]: i for i in base}
    fan_by = {i["name"]["zh"]: i for i in fan}
    limit_by = {i["name"]["zh"]: i for i in limit}
    if options.ron_triplet_concealed:
        _note(base_by["暗刻"], "和别人打出（或抢杠）的牌凑成的刻子也算暗刻",
              "a triplet completed by another player's tile counts as concealed too")
    else:
        _note(base_by["暗刻"], "和别人打出的牌凑成的刻子只算刻子",
              "a triplet completed by another player's tile counts as exposed")
    special = ("只在翻出白板或花牌、红中发财成为特殊牌时" if options.flower_flip_specials
               else "只在翻出白板、红中发财成为特殊牌时")
    special_en = ("only when 白板 or a flower is the indicator, making 红中 and 发财 specials"
                  if options.flower_flip_specials
                  else "only when 白板 is the indicator, making 红中 and 发财 specials")
    for group in (base_by, fan_by):
        for name in ("翻红中", "翻发财"):
            _note(group[name], special, special_en)
    if options.panghe_selfdraw_only:
        _note(fan_by["旁和"], "本桌：必须自摸", "this table: self-drawn only")
    if options.gangkai_on_flower:
        _note(fan_by["杠上开花"], "补花、补白板后和也算",
              "a flower's or a special's replacement counts too")
    else:
        _note(fan_by["杠上开花"], "补花、补白板后和不算",
              "not on a flower's or a special's replacement")
    fan_by["门风花牌"]["nonwinner"] = options.nonwinner_seat_flower
    for name in (wl.LAZI_FOUR_SPECIALS[RED], wl.LAZI_FOUR_SPECIALS[GREEN]):
        if not options.special_four_lazi:
            limit_by[name]["available"] = False
            _note(limit_by[name], "本桌不算", "not at this table")
    limit_by[wl.SIFENG]["nonwinner"] = options.nonwinner_sifeng_lazi
    _note(limit_by[wl.SIFENG], "不用宣布：和牌时算满贯",
          "not declared: the win is scored at the limit")
    return [
        {"id": "he", "unit": "he", "items": base},
        {"id": "fan", "unit": "fan", "items": fan},
        {"id": "limit", "unit": "limit", "items": limit},
    ]
