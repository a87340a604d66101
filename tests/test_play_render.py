"""The terminal game's pure parts: strings, tiles, keys and renderers on hand-made views."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from rich.console import Console

from baida.tiles import NUM_ALL_KINDS, tile_str
from baida.tui.i18n import ITEM_NAMES_EN, STRINGS, item_name, text, tile_label
from baida.tui.keys import DISCARD_KEYS, build_menu
from baida.tui.render import render_event, render_hand, render_menu, render_table, seat_name
from baida.tui.settlement import render_settlement, render_standings
from baida.tui.tiles import compact_label, sort_faces, tile_text


def plain(renderable: Any, width: int = 120) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def player(seat: int, **kw: Any) -> dict[str, Any]:
    base = {
        "seat": seat, "wind": "ESWN"[seat], "concealed": None, "concealed_count": 13,
        "drawn": None, "melds": [], "discards": [], "claimed": [], "flowers": [],
        "gave_up": False,
    }
    base.update(kw)
    return base


def jiaxing_view(**kw: Any) -> dict[str, Any]:
    view = {
        "ruleset": "jiaxing", "seat": 0, "dealer": 0, "seat_winds": ["E", "S", "W", "N"],
        "round_wind": "E", "dice": [3, 5], "commitment": "ab", "seed": None,
        "indicator": "5m", "wilds": ["5m"], "specials": [],
        "phase": "turn", "turn": 0, "to_act": [0], "wall_remaining": 83,
        "last_discard": {"seat": 3, "tile": "C"},
        "players": [
            player(
                0,
                concealed=["1m", "2m", "5m", "3s", "9p", "9p", "9p", "C", "E", "E", "3s"],
                concealed_count=11,
                drawn="3s",
                melds=[{"type": "pon", "tiles": ["P", "P", "P"], "from": 1}],
                discards=["N", "F"],
            ),
            player(1, discards=["P", "7s"], claimed=[0]),
            player(2, melds=[{"type": "akong", "tiles": None, "from": None}],
                   concealed_count=10),
            player(3, discards=["C"], melds=[{"type": "chi", "tiles": ["3m", "4m", "5m"],
                                              "from": 2}], concealed_count=10),
        ],
        "santan_pairs": [], "claim_counts": [[0] * 4 for _ in range(4)],
        "sheng_phase": False, "carry_pool": 2, "result": None,
    }
    view.update(kw)
    return view


def act(kind: str, seat: int = 0, **kw: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **kw}


# -- strings -----------------------------------------------------------------------------------
def test_every_string_has_both_languages_and_the_same_fields() -> None:
    import string

    for key, (zh, en) in STRINGS.items():
        assert zh and en, key
        fields = {f for _, f, _, _ in string.Formatter().parse(zh) if f}
        assert fields == {f for _, f, _, _ in string.Formatter().parse(en) if f}, key


def test_every_tile_has_a_label_in_both_languages() -> None:
    for kind in range(NUM_ALL_KINDS):
        face = tile_str(kind)
        assert tile_label(face, "en") == face
        zh = tile_label(face, "zh")
        assert zh != face and zh
    assert tile_label("5m", "zh") == "5万"
    assert tile_label("P", "zh") == "白"
    assert tile_label(None) == "?"


def test_scorer_item_names_translate_and_unknown_names_pass_through() -> None:
    from baida.scoring import jiaxing_items

    for item in jiaxing_items.TAI_ITEMS + jiaxing_items.FAN_ITEMS:
        assert item_name(item.name, "en") == ITEM_NAMES_EN[item.name]
    assert item_name("清一色", "zh") == "清一色"
    assert item_name("未知项", "en") == "未知项"


# -- tiles ---------------------------------------------------------------------------------------
def test_sort_faces_puts_wilds_leftmost_then_suits_honours_flowers() -> None:
    faces = ["C", "f1", "3s", "5m", "E", "1m", "9p", "5m"]
    assert sort_faces(faces, ["5m"]) == ["5m", "5m", "1m", "9p", "3s", "E", "C", "f1"]
    assert sort_faces(faces) == ["1m", "5m", "5m", "9p", "3s", "E", "C", "f1"]


def test_wild_tiles_are_marked_without_colour() -> None:
    assert tile_text("5m", "zh", wilds=["5m"]).plain == "*5万"
    assert tile_text("5m", "zh").plain == "5万"
    assert tile_text("E", "en", wilds=["5m"]).plain == "E"


def test_compact_label_merges_runs() -> None:
    assert compact_label(["3m", "4m", "5m"], "zh") == "345万"
    assert compact_label(["C", "C", "C"], "zh") == "中中中"
    assert compact_label(["1s", "2s", "E"], "en") == "12sE"


# -- keys ----------------------------------------------------------------------------------------
def turn_legal() -> list[dict[str, Any]]:
    faces = ["1m", "2m", "5m", "3s", "9p", "C", "E"]
    return [act("discard", tile=f) for f in faces] + [
        act("win"), act("akong", tile="9p"), act("bukong", tile="P"),
    ]


def test_discard_keys_follow_the_hand_order_with_the_drawn_tile_last() -> None:
    view = jiaxing_view()
    menu = build_menu(turn_legal(), view, "zh")
    # shown: *5m 1m 2m 9p 9p 9p 3s E E C | drawn 3s
    assert menu.discard_keys == {
        "5m": "1", "1m": "2", "2m": "3", "9p": "4", "3s": "5", "E": "6", "C": "7",
    }
    assert menu.resolve("1").action == act("discard", tile="5m")
    assert menu.resolve(" ").action == act("discard", tile="3s")  # 摸切
    assert menu.resolve("\n").action == act("discard", tile="3s")
    assert menu.resolve("w").action == act("win")
    for reserved in "wpckqlyn":
        assert reserved not in DISCARD_KEYS


def test_several_kongs_open_a_sub_menu_and_escape_goes_back() -> None:
    menu = build_menu(turn_legal(), jiaxing_view(), "zh")
    choice = menu.resolve("k")
    assert choice.kind == "menu" and choice.menu is not None
    sub = choice.menu
    assert [e.label for e in sub.entries] == ["暗杠 9筒", "补杠 白"]
    assert sub.resolve("2").action == act("bukong", tile="P")
    assert sub.resolve("\x1b").kind == "back"
    assert sub.resolve("7").kind == "invalid"  # discards are not keys of the sub-menu


def test_invalid_keys_explain_and_leave_the_menu_as_it_was() -> None:
    menu = build_menu(turn_legal(), jiaxing_view(), "en")
    before = copy.deepcopy(menu)
    choice = menu.resolve("x")
    assert choice.kind == "invalid"
    assert "'x'" in choice.message and "keys:" in choice.message
    assert menu == before
    assert menu.resolve("p").kind == "invalid"  # no 碰 offered on one's own turn
    assert menu.resolve("q").kind == "quit" and menu.resolve("?").kind == "help"


def test_claim_window_keys() -> None:
    view = jiaxing_view(phase="claim", turn=3, to_act=[0], last_discard={"seat": 3, "tile": "4m"})
    legal = [
        act("pass"), act("pon"),
        act("chi", tiles=["2m", "3m"]),
        act("chi", tiles=["3m", "5m"]),
        act("chi", tiles=["5m", "6m"]),
    ]
    menu = build_menu(legal, view, "zh")
    assert menu.discards == {}
    assert menu.resolve(" ").action == act("pass")
    assert menu.resolve("p").action == act("pon")
    sub = menu.resolve("c").menu
    assert sub is not None
    assert [e.label for e in sub.entries] == ["吃 234万", "吃 345万", "吃 456万"]
    assert sub.resolve("3").action == act("chi", tiles=["5m", "6m"])
    line = render_menu(menu, "zh").plain
    assert "p 碰 4万" in line and "c 吃…" in line and "空格/回车 过" in line


def test_santan_keys_default_to_continue() -> None:
    view = jiaxing_view(phase="santan", santan_pairs=[[3, 1]])
    menu = build_menu([act("continue"), act("give_up")], view, "zh")
    assert menu.resolve("y").action == act("continue")
    assert menu.resolve("n").action == act("give_up")
    assert menu.resolve("\n").action == act("continue")
    text_ = plain(render_table(view, 0, "zh", menu=menu))
    assert "三摊" in text_ and "坚持" in text_ and "放弃" in text_


# -- the table -----------------------------------------------------------------------------------
def test_table_shows_hand_wilds_leftmost_melds_discards_and_the_header() -> None:
    view = jiaxing_view()
    menu = build_menu(turn_legal(), view, "zh")
    out = plain(render_table(view, 0, "zh", menu=menu, hand_no=2, hands_total=4))
    header = out.splitlines()[0]
    for part in ("嘉兴台头和", "第2/4局", "东风圈", "余牌 83", "翻牌 5万", "百搭 *5万", "黄番 2"):
        assert part in header
    assert "碰 白白白" in out and "吃 345万" in out and "暗杠 ■■■■" in out
    assert "下家 南" in out and "对家 西" in out and "上家 北" in out and "你 东·庄" in out
    hand_line = next(line for line in out.splitlines() if line.lstrip().startswith("*5万"))
    assert hand_line.split() == [
        "*5万", "1万", "2万", "9筒", "9筒", "9筒", "3条", "东", "东", "中", "摸", "3条",
    ]
    assert "轮到你出牌" in out and "w 和" in out and "k 杠…" in out
    assert "空格/回车 摸切 3条" in out


def test_hand_keys_sit_under_the_tiles() -> None:
    view = jiaxing_view()
    menu = build_menu(turn_legal(), view, "en")
    lines = plain(render_hand(view, 0, "en", menu)).splitlines()
    tiles, keys = lines[0], lines[1]
    assert tiles.split() == ["*5m", "1m", "2m", "9p", "9p", "9p", "3s", "E", "E", "C", "drew", "3s"]
    # each key is printed below (within) the column of its tile
    for face, key in menu.discard_keys.items():
        col = keys.index(key) if keys.count(key) == 1 else keys.rindex(key)
        assert face in tiles[max(0, col - 2): col + 3], (face, key)


def test_english_table_and_spectator_names() -> None:
    view = jiaxing_view()
    out = plain(render_table(view, None, "en"))
    assert "Jiaxing" in out and "Wall 83" in out and "Wild *5m" in out
    assert "Seat 1 East·Dealer" in out
    assert seat_name(1, 0, "en") == "Right" and seat_name(3, 0, "zh") == "上家"


def test_sheng_phase_and_gave_up_are_visible() -> None:
    view = jiaxing_view(ruleset="wenling", round_wind=None, wilds=["7m"], indicator="7m",
                        specials=["P", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"],
                        sheng_phase=True)
    view["players"][1]["flowers"] = ["P", "f2"]
    out = plain(render_table(view, 0, "zh"))
    assert "温岭麻将" in out and "生牌阶段" in out and "得 *7万" in out and "花 白夏" in out
    view = jiaxing_view(santan_pairs=[[3, 1]])
    view["players"][2]["gave_up"] = True
    out = plain(render_table(view, 0, "zh"))
    assert "对家 西 放弃" in out and "承包" in out


def test_events_as_log_lines() -> None:
    line = render_event({"type": "discard", "seat": 1, "tile": "5m"}, 0, "zh")
    assert line is not None and line.plain == "下家 打 5万"
    assert render_event({"type": "draw", "seat": 0, "tile": "E", "source": "wall"}, 0, "zh")
    assert render_event({"type": "draw", "seat": 2, "tile": None, "source": "wall"}, 0) is None
    sheng = render_event({"type": "sheng_phase", "seat": None, "remaining": 31}, 0, "zh")
    assert sheng is not None and "生牌阶段" in sheng.plain and "31" in sheng.plain
    santan = render_event({"type": "santan", "seat": None, "pair": [3, 1], "asks": [0, 2]}, 0)
    assert santan is not None and santan.plain == "三摊: 上家 与 下家 互为承包方"
    win = render_event({"type": "win", "seat": 2, "win_by": "rob_kong", "tile": "3p"}, 0, "en")
    assert win is not None and win.plain == "Across wins! robbing a kong 3p"


# -- settlement ----------------------------------------------------------------------------------
def jiaxing_result_view() -> dict[str, Any]:
    view = jiaxing_view(phase="ended", to_act=[])
    view["result"] = {
        "outcome": "win", "winner": 1, "win_by": "self_draw", "win_tile": "3s", "from": None,
        "liable": None, "payments": [-12, 36, -12, -12], "carry_pool_after": 0,
        "score": {
            "legal": True, "reason": None,
            "tai": [{"name": "红中刻", "value": 1}, {"name": "混一色", "value": 2}],
            "fan": [{"name": "黄番", "value": 1}], "base_items": None,
            "tai_total": 3, "fan_total": 1, "base_points": None, "raw": None, "points": 6,
            "totals": None, "payments": {"E": -12, "S": 36, "W": -12, "N": -12},
            "carry_pool_after": 0, "wilds": ["C"],
        },
        "hands": [
            {"concealed": ["1m"], "melds": [], "flowers": []},
            {"concealed": ["5m", "1s", "2s", "3s", "3s", "4s", "5s", "C", "C", "C", "E"],
             "melds": [{"type": "pon", "tiles": ["7s", "7s", "7s"], "from": 0}],
             "flowers": []},
            {"concealed": [], "melds": [], "flowers": []},
            {"concealed": [], "melds": [], "flowers": []},
        ],
        "seed": "00",
    }
    return view


def test_jiaxing_settlement_lists_every_item_the_sums_and_payments() -> None:
    out = plain(render_settlement(jiaxing_result_view(), 0, "zh", totals=[-2, 40, -20, -18],
                                  hand_no=3, base=2))
    assert "结算 · 第3局" in out and "下家 南 和了 · 自摸 3条" in out
    assert "*5万 1条 2条 3条 4条 5条 东 中 中 中 + 3条" in out
    assert "红中刻 1 · 混一色 2" in out and "= 3台" in out and "黄番 1" in out and "= 1番" in out
    assert "底 2 × 3台 × 2^1番 = 6" in out
    rows = {line.split()[0]: line.split()[-2:] for line in out.splitlines()
            if line.strip().startswith(("你", "下家", "对家", "上家"))}
    assert rows == {"你": ["-12", "-2"], "下家": ["+36", "40"], "对家": ["-12", "-20"],
                    "上家": ["-12", "-18"]}
    assert "黄番池 → 0" in out


def test_english_settlement_translates_items() -> None:
    out = plain(render_settlement(jiaxing_result_view(), 0, "en", base=1))
    assert "Red dragon triplet 1 · Half flush 2" in out and "Carried fan 1" in out
    assert "base 1 × 3 tai × 2^1 fan = 6" in out


def test_wenling_settlement_shows_base_items_totals_and_liability() -> None:
    view = jiaxing_view(ruleset="wenling", round_wind=None, phase="ended", to_act=[])
    view["result"] = {
        "outcome": "win", "winner": 2, "win_by": "discard", "win_tile": "6p", "from": 3,
        "liable": 3, "payments": [0, 0, 63, -63], "carry_pool_after": None,
        "score": {
            "legal": True, "reason": None, "tai": [],
            "fan": [{"name": "对对和", "value": 2}],
            "base_items": [{"name": "刻子", "value": 4}, {"name": "暗刻", "value": 8}],
            "tai_total": None, "fan_total": 2, "base_points": 32, "raw": 208, "points": 210,
            "totals": {"E": 40, "S": 30, "W": 210, "N": 0},
            "payments": {"E": 0, "S": 0, "W": 63, "N": -63}, "carry_pool_after": None,
            "wilds": [],
        },
        "hands": [{"concealed": [], "melds": [], "flowers": []}] * 2
        + [{"concealed": ["6p", "6p", "6p"], "melds": [], "flowers": ["P"]}]
        + [{"concealed": [], "melds": [], "flowers": []}],
        "seed": "00",
    }
    out = plain(render_settlement(view, 0, "zh"))
    assert "对家 西 和了 · 抓铳 6筒" in out and "放铳: 上家" in out and "包三家: 上家" in out
    assert "刻子 4 · 暗刻 8" in out and "= 32" in out and "对对和 2" in out
    assert "(32 + 20) × 2^2番 = 208 → 210" in out
    assert "牌点" in out and "210" in out and "+63" in out and "-63" in out
    assert "黄番池" not in out


def test_draw_settlement_and_standings() -> None:
    view = jiaxing_view(phase="ended", to_act=[])
    view["result"] = {"outcome": "draw", "winner": None, "win_by": None, "win_tile": None,
                      "from": None, "liable": None, "payments": [0, 0, 0, 0],
                      "carry_pool_after": 3, "score": None, "hands": [], "seed": "00"}
    out = plain(render_settlement(view, 0, "zh", totals=[5, -5, 0, 0]))
    assert "流局" in out and "黄番池 → 3" in out
    out = plain(render_standings([5, -5, 10, -10], 0, "en"))
    names = [line.split()[1] for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert names == ["Across", "You", "Right", "Left"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_event_type_renders_or_is_silent(lang: str) -> None:
    events = [
        {"type": t, "seat": 1, "tile": "5m", "from": 0, "by": 2, "pair": [0, 1],
         "choice": "give_up", "remaining": 31, "win_by": "discard"}
        for t in ("hand_start", "deal", "flower", "draw", "discard", "chi", "pon", "mkong",
                  "akong", "bukong", "kong_robbed", "santan", "santan_choice", "sheng_phase",
                  "win", "hand_end")
    ]
    for event in events:
        line = render_event(event, 0, lang)
        assert line is None or line.plain
    assert text("give_up", lang) in render_event(events[12], 0, lang).plain


def test_rob_prompt_names_the_added_kong() -> None:
    view = jiaxing_view(phase="rob", turn=1, to_act=[0])
    view["players"][1]["melds"] = [{"type": "pon", "tiles": ["E", "E", "E"], "from": 2},
                                   {"type": "pon", "tiles": ["C", "C", "C"], "from": 3}]
    menu = build_menu([act("pass"), act("win")], view, "zh")
    out = plain(render_table(view, 0, "zh", menu=menu, rob_tile="E"))
    assert "下家补杠 东, 抢杠?" in out and "w 和" in out and "空格/回车 过" in out
    out = plain(render_table(view, 0, "en", menu=menu))
    assert "Right adds a kong of C: rob it?" in out


def test_string_tables_export_per_language() -> None:
    from baida.tui.i18n import UnknownLanguage, strings

    zh, en = strings("zh"), strings("en")
    assert zh.keys() == en.keys() == STRINGS.keys()
    assert zh["win"] == "和" and en["win"] == "Win"
    with pytest.raises(UnknownLanguage):
        strings("fr")


def test_santan_warning_one_claim_before() -> None:
    from baida.tui.render import santan_warnings

    counts = [[0] * 4 for _ in range(4)]
    counts[0][3] = 2  # you claimed 上家's discards twice
    counts[2][1] = 2  # 对家 claimed 下家's twice: not about you
    view = jiaxing_view(claim_counts=counts)
    assert santan_warnings(view, 3) == [(0, 3, 2), (2, 1, 2)]
    out = plain(render_table(view, 0, "zh", santan_threshold=3))
    assert "你已吃碰杠上家的牌 2 次" in out and "对家已吃碰杠" not in out
    assert "吃碰杠" not in plain(render_table(view, 0, "zh"))  # 三摊 off: no warning
    counts[0][3] = 3
    view = jiaxing_view(claim_counts=counts, santan_pairs=[[0, 3]])
    assert santan_warnings(view, 3) == [(2, 1, 2)]


def test_enter_after_a_pon_discards_the_rightmost_tile_and_says_so() -> None:
    view = jiaxing_view()
    view["players"][0]["drawn"] = None  # after a 碰 there is no drawn tile
    faces = ["1m", "2m", "5m", "3s", "9p", "C", "E"]
    menu = build_menu([act("discard", tile=f) for f in faces], view, "zh")
    assert menu.resolve("\n").action == act("discard", tile="C")
    assert "空格/回车 打 中" in render_menu(menu, "zh").plain
    assert not menu.drawn_is_new
