"""The terminal game's pure parts: strings, tiles, keys and renderers on hand-made views."""

from __future__ import annotations

from typing import Any

import pytest
from play_views import act, jiaxing_view, plain, turn_legal

from baida.tiles import NUM_ALL_KINDS, tile_str
from baida.tui.i18n import ITEM_NAMES_EN, STRINGS, item_name, text, tile_label
from baida.tui.keys import build_menu
from baida.tui.render import render_event, render_hand, render_table, seat_name
from baida.tui.settlement import render_settlement, render_standings
from baida.tui.tiles import compact_label, sort_faces, tile_text


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


# -- the table -----------------------------------------------------------------------------------
def test_table_shows_hand_wilds_leftmost_melds_discards_and_the_header() -> None:
    view = jiaxing_view()
    menu = build_menu(turn_legal(), view, "zh")
    out = plain(render_table(view, 0, "zh", menu=menu, hand_no=2, hands_total=4))
    header = out.splitlines()[0]
    for part in ("嘉兴台头和", "第2/4局", "东风圈", "余牌 83", "翻牌 5万", "百搭 *5万", "黄番 2"):
        assert part in header
    assert "不可吃" not in header
    assert "碰 白白白" in out and "吃 345万" in out and "暗杠 ■■■■" in out
    assert "下家 南" in out and "对家 西" in out and "上家 北" in out and "你 东·庄" in out
    hand_line = next(line for line in out.splitlines() if line.lstrip().startswith("*5万"))
    assert hand_line.split() == [
        "*5万", "1万", "2万", "9筒", "9筒", "9筒", "3条", "东", "东", "中", "摸", "3条",
    ]
    assert "★ 可以和牌! 自摸 3条 — 按 w 和牌 ★" in out and "k 杠…" in out
    assert "回车 摸切 3条" in out and "1…a 打" in out


def test_every_tile_has_its_position_key_and_the_cursor_sits_under_one() -> None:
    view = jiaxing_view()
    menu = build_menu(turn_legal(), view, "en")
    lines = plain(render_hand(view, 0, "en", menu)).splitlines()
    tiles, keys, marks = lines[0], lines[1], lines[2]
    assert tiles.split() == ["*5m", "1m", "2m", "9p", "9p", "9p", "3s", "E", "E", "C", "drew", "3s"]
    assert keys.split() == list("1234567890a")  # every tile, the gap before the drawn one not
    # each key under its tile, ▲ under the drawn tile
    for word, key in zip(tiles.replace("drew", "    ").split(), keys.split(), strict=True):
        col = keys.index(key)
        assert word in tiles[max(0, col - 2): col + 3], (word, key)
    assert marks.index("▲") in (tiles.rindex("3s"), tiles.rindex("3s") + 1)
    menu.resolve("left")
    lines = plain(render_hand(view, 0, "en", menu)).splitlines()
    assert lines[2].index("▲") == lines[0].index("C")


def test_the_table_fits_80_by_24_late_in_a_hand_with_melds_on_one_line() -> None:
    """A crowded end of a Wenling hand: four melds and flowers a seat, 20 discards each."""
    discards = ["1m", "9p", "E", "C", "5s", "6s", "7m", "8m", "N", "F", "2p", "3p", "4s", "S",
                "W", "1s", "9s", "2m", "3m", "4m"]
    view = jiaxing_view(ruleset="wenling", round_wind=None, wilds=["7m"], indicator="7m",
                        specials=["P", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"],
                        wall_remaining=18, carry_pool=None)
    melds = [{"type": "bukong", "tiles": ["5p"] * 4, "from": 1},
             {"type": "pon", "tiles": ["N"] * 3, "from": 2},
             {"type": "chi", "tiles": ["3s", "4s", "5s"], "from": 3},
             {"type": "mkong", "tiles": ["E"] * 4, "from": 2}]
    for p in view["players"]:
        p.update(melds=melds, discards=discards, flowers=["P", "f2", "f7"], concealed_count=4)
    view["players"][0].update(concealed=["7m", "1m", "1m", "2s", "3s"], drawn="3s",
                              concealed_count=5)
    legal = [act("discard", tile=f) for f in ("7m", "1m", "2s", "3s")] + [act("win")]
    claims = [{"type": "pon", "seat": 1, "tile": "N", "from": 2},
              {"type": "chi", "seat": 2, "tile": "5s", "from": 1},
              {"type": "mkong", "seat": 3, "tile": "E", "from": 2}]
    for lang in ("zh", "en"):
        menu = build_menu(legal, view, lang)
        out = plain(render_table(view, 0, lang, menu=menu, hand_no=12, hands_total=16,
                                 totals=[-120, 35, 260, -175], claims=claims), width=80)
        rows = out.rstrip("\n").split("\n")
        assert len(rows) <= 23, "\n".join(rows)
        meld_rows = [r for r in rows if ("碰 北北北" if lang == "zh" else "Pon NNN") in r]
        assert len(meld_rows) == 4  # every seat's melds and flowers on its own line
        for row in meld_rows:
            assert ("花" if lang == "zh" else "Flowers") in row


def test_the_last_claims_by_others_stay_in_view() -> None:
    claims = [{"type": "pon", "seat": 1, "tile": "N", "from": 0},
              {"type": "chi", "seat": 2, "tile": "5s", "from": 1},
              {"type": "bukong", "seat": 3, "tile": "E"}]
    out = plain(render_table(jiaxing_view(), 0, "zh", claims=claims))
    assert "最近吃碰杠: 下家碰你的北 · 对家吃下家的5条 · 上家补杠东" in out
    out = plain(render_table(jiaxing_view(), 0, "en", claims=claims))
    assert "Last claims: Right Pon N from you · Across Chi 5s from Right · Left Kong+ E" in out


def test_a_small_terminal_is_told_and_no_chi_is_shown() -> None:
    from baida.tui.render import size_warning

    assert size_warning(80, 24) is None and size_warning(120, 40) is None
    warning = size_warning(79, 30, "en")
    assert warning is not None and "too small (79×30)" in warning.plain and "80×24" in warning.plain
    view = jiaxing_view(options={"allow_chi": False})
    out = plain(render_table(view, 0, "zh", warning=size_warning(70, 20)))
    assert out.rstrip().splitlines()[-1].startswith("终端太小 (70×20)")
    assert "嘉兴台头和 不可吃" in out.splitlines()[0]
    assert "Jiaxing no chi" in plain(render_table(view, 0, "en")).splitlines()[0]


def test_english_table_and_spectator_names() -> None:
    view = jiaxing_view()
    out = plain(render_table(view, None, "en"))
    assert "Jiaxing" in out and "Wall 83" in out and "Wild *5m" in out
    assert "Seat 1 E·Dealer" in out and "11 in hand: N F" in out
    assert seat_name(1, 0, "en") == "Right" and seat_name(3, 0, "zh") == "上家"


def test_english_grammar_of_counts_and_possessives() -> None:
    from baida.tui.i18n import count_of, pair_names, possessive, times

    assert times(1, "en") == "1 time" and times(2, "en") == "2 times" and times(2) == "2 次"
    assert count_of(1, "share", "shares", "en") == "1 share"
    assert possessive("You", "en") == "your" and possessive("Right", "en") == "Right's"
    assert pair_names("Right", "You", "en") == "Right and you"
    assert pair_names("You", "Left", "en", start=False) == "you and Left"
    counts = [[0] * 4 for _ in range(4)]
    counts[1][0] = 2  # Right claimed your discards twice
    counts[0][3] = 1
    view = jiaxing_view(claim_counts=counts)
    out = plain(render_table(view, 0, "en", santan_threshold=3))
    assert "Right claimed your discards 2 times: one more claim makes Right and you liable" in out
    out = plain(render_table(view, 0, "en", santan_threshold=2))
    assert "You claimed Left's discards 1 time: one more claim makes you and Left liable" in out
    robbed = render_event({"type": "kong_robbed", "seat": 0, "tile": "3p", "by": 2}, 0, "en")
    assert robbed is not None and robbed.plain == "Across robbed your kong of 3p"
    win = render_event({"type": "win", "seat": 0, "win_by": "self_draw", "tile": "3p"}, 0, "en")
    assert win is not None and win.plain == "You won by self-draw: 3p"


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
    assert santan is not None and santan.plain == "三摊: 上家与下家 互为承包方"
    win = render_event({"type": "win", "seat": 2, "win_by": "rob_kong", "tile": "3p"}, 0, "en")
    assert win is not None and win.plain == "Across won by robbing a kong: 3p"


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
    assert "*5万 12345条 东 中 中 中 + 3条  │ 碰 777条" in out
    assert "红中刻 1 · 混一色 2" in out and "= 3台" in out and "黄番 1" in out and "= 1番" in out
    assert "底 2 × 3台 × 2^1番 = 6" in out
    assert "百搭当作: 中" in out  # what the wild stood for
    rows = {line.split()[0]: line.split()[-2:] for line in out.splitlines()
            if line.strip().startswith(("你", "下家", "对家", "上家"))}
    assert rows == {"你": ["-12", "-2"], "下家": ["+36", "40"], "对家": ["-12", "-20"],
                    "上家": ["-12", "-18"]}
    assert "黄番池 → 0" in out


def test_english_settlement_translates_items() -> None:
    out = plain(render_settlement(jiaxing_result_view(), 0, "en", base=1))
    assert "Red dragon triplet 1 · Half flush 2" in out and "Carried fan 1" in out
    assert "base 1 × 3 tai × 2^1 fan = 6" in out
    assert "The wild stood for: C" in out and "Right South won by self-draw: 3s" in out


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
    assert "闲家计分项" in out and "被包: 牌点记 0" in out  # 上家 dealt in a 生牌
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


def test_rob_prompt_names_the_added_kong_and_announces_the_win() -> None:
    view = jiaxing_view(phase="rob", turn=1, to_act=[0], robbable={"seat": 1, "tile": "E"})
    view["players"][1]["melds"] = [{"type": "bukong", "tiles": ["E"] * 4, "from": 2},
                                   {"type": "pon", "tiles": ["C", "C", "C"], "from": 3}]
    menu = build_menu([act("pass"), act("win")], view, "zh")
    out = plain(render_table(view, 0, "zh", menu=menu))
    assert "★ 你可以抢下家的杠和 东! 按 w 和牌 ★" in out and "w 和" in out
    assert "回车/空格 过" in out
    out = plain(render_table(view, 0, "en", menu=build_menu([act("pass")], view, "en")))
    assert "Right adds a kong of E: rob it?" in out


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


def santan_result_view(gave_up: bool = True) -> dict[str, Any]:
    """下家 (a 承包方 with 上家) wins by self-draw, one share 60: 上家 pays 5, you 2, 对家 gave
    up (or, continuing, pays 2)."""
    view = jiaxing_result_view()
    view["santan_pairs"] = [[1, 3]]
    view["players"][2]["gave_up"] = gave_up
    across = 0 if gave_up else -120
    view["result"]["payments"] = [-120, 420 - across, across, -300]
    view["result"]["score"]["points"] = 60
    return view


def test_santan_settlement_shows_the_shares_actually_paid() -> None:
    out = plain(render_settlement(santan_result_view(), 0, "zh"))
    assert "三摊 (下家–上家), 每份 60: 你 付 2 份 · 对家 放弃: 不付, 也不能和 · 上家 付 5 份" in out
    out = plain(render_settlement(santan_result_view(gave_up=False), 0, "en"), width=160)
    assert ("Three claims (Right–Left), one share = 60: You paid 2 shares · Across paid 2 shares"
            " · Left paid 5 shares") in out
    view = santan_result_view()
    view["santan_pairs"] = []
    assert "三摊" not in plain(render_settlement(view, 0, "zh"))  # no pair, no shares line


@pytest.mark.parametrize("lang,can_win,said", [
    ("zh", False, "对家 放弃: 不付, 也不能和"),
    ("en", False, "Across gave up: paid nothing and could not win"),
    ("zh", True, "对家 放弃: 不付 (仍可自摸和)"),
    ("en", True, "Across gave up: paid nothing (could still win by self-draw)"),
])
def test_the_settlement_says_that_giving_up_also_means_no_win(lang, can_win, said) -> None:
    """放弃 costs the right to win (unless ``gaveup_can_win``): the settlement says so."""
    view = santan_result_view()
    view["options"] = {"gaveup_can_win": can_win}
    out = plain(render_settlement(view, 0, lang), width=200)
    assert said in out, out


def test_wenling_non_winners_items_add_up_to_the_scorers_totals() -> None:
    """For real hands: each non-winner's items, read again from the final view, give the
    total the scorer settled with; the settlement lists them."""
    import hashlib

    from baida.bots.policy import make_bot
    from baida.engine import Round
    from baida.tiles import SEAT_WINDS
    from baida.tui.nonwinners import wenling_nonwinners

    checked = shown = 0
    for n in range(12):
        rnd = Round.from_seed("wenling", hashlib.sha256(f"nonwinners {n}".encode()).digest())
        bots = [make_bot("greedy", seed=s) for s in range(4)]
        while not rnd.ended:
            seat = rnd.to_act[0]
            rnd.apply(bots[seat].choose(rnd.view(seat), rnd.legal_actions(seat)))
        view = rnd.view(0).to_json()
        items = wenling_nonwinners(view)
        if not items:
            continue
        totals = view["result"]["score"]["totals"]
        out = plain(render_settlement(view, 0, "zh"), width=100)
        for seat, got in items.items():
            assert got.total == totals[SEAT_WINDS[(seat - view["dealer"]) % 4]], (n, seat)
            checked += 1
            for name, _ in got.base_items + got.fan_items:
                assert name in out
                shown += 1
    assert checked >= 9 and shown > 0



def test_a_lazi_settlement_says_limit_hand_not_a_formula() -> None:
    """A 腊子 scores the 500 cap: its item is shown and the line says 满贯, not
    "(0 + 20) × 2^0番 = 500"."""
    from test_engine_helpers import act as engine_act
    from test_engine_helpers import scripted

    dealer = "5m5m5m 1p4p7p 1s4s7s 3m6m 2p8p 3s W C"
    others = ["2s5s8s 3m6m 3p6p 3s6s 9m 9p S W N C F",
              "1m4m7m 1p4p7p 1s4s7s 2m8m 2p5p8p S N", "1m4m7m 1p4p7p 1s4s7s 2m8m 2p5p8p E N"]
    rnd = scripted("wenling", [dealer, *others], extra="E", indicator="5m")
    engine_act(rnd, "lazi", 0)
    view = rnd.view(0).to_json()
    zh = plain(render_settlement(view, 0, "zh"), width=100)
    assert "满贯 500" in zh and "3张得" in zh and "× 2^" not in zh
    en = plain(render_settlement(view, 0, "en"), width=100)
    assert "Limit hand 500" in en and "× 2^" not in en
