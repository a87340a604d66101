"""The terminal game's keys: fixed positions, the cursor, the win guard, sub-menus, and the
key reader's escape sequences."""

from __future__ import annotations

import copy
import io
import os

import pytest
from play_views import act, jiaxing_view, plain, turn_legal

from baida.tui.keyboard import (
    BACKSPACE,
    DELETE,
    DOWN,
    END,
    ENTER,
    ESC,
    HOME,
    LEFT,
    RIGHT,
    UP,
    KeyReader,
    parse_escape,
)
from baida.tui.keys import POSITION_KEYS, build_menu, key_name
from baida.tui.render import render_menu, render_table


def no_win() -> list[dict]:
    return [a for a in turn_legal() if a["type"] != "win"]


# -- positions and the cursor ------------------------------------------------------------------
def test_every_tile_shown_has_the_key_of_its_position() -> None:
    menu = build_menu(no_win(), jiaxing_view(), "zh")
    # shown: *5m 1m 2m 9p 9p 9p 3s E E C | drawn 3s
    faces = [s.face for s in menu.slots]
    assert faces == ["5m", "1m", "2m", "9p", "9p", "9p", "3s", "E", "E", "C", "3s"]
    assert [s.key for s in menu.slots] == list(POSITION_KEYS[:11])
    assert menu.resolve("1").action == act("discard", tile="5m")
    assert menu.resolve("5").action == menu.resolve("6").action == act("discard", tile="9p")
    assert menu.resolve("a").action == act("discard", tile="3s")  # the drawn tile
    for reserved in "wpckqlynxrh?":
        assert reserved not in POSITION_KEYS
    assert len(POSITION_KEYS) >= 17  # a Wenling hand with its drawn tile


def test_the_same_position_keeps_its_key_whatever_the_tiles() -> None:
    """Keys follow positions, not faces: a hand of other tiles keeps 1..n from the left."""
    view = jiaxing_view()
    view["players"][0]["concealed"] = ["E", "E", "E", "1p", "2p", "3p", "4p", "5p", "6p", "7p",
                                       "8p", "9p", "9p", "C"]
    view["players"][0]["drawn"] = "C"
    legal = [act("discard", tile=f) for f in ("E", "1p", "2p", "3p", "4p", "5p", "6p", "7p",
                                                "8p", "9p", "C")]
    menu = build_menu(legal, view, "en")
    assert [s.key for s in menu.slots] == list(POSITION_KEYS[:14])
    # 1p..8p 9p 9p E E E | C: the tenth tile is 0, the twelfth b, the drawn one e
    assert menu.resolve("0").action == act("discard", tile="9p")
    assert menu.resolve("b").action == act("discard", tile="E")
    assert menu.resolve("e").action == act("discard", tile="C")


def test_a_tile_that_may_not_be_discarded_keeps_its_key_but_says_why() -> None:
    legal = [a for a in no_win() if a.get("tile") != "C"]
    menu = build_menu(legal, jiaxing_view(), "en")
    before = copy.deepcopy(menu)
    choice = menu.resolve("0")  # the C
    assert choice.kind == "invalid" and choice.message == "C cannot be discarded now"
    assert menu == before


def test_the_cursor_starts_on_the_drawn_tile_and_enter_discards_under_it() -> None:
    menu = build_menu(no_win(), jiaxing_view(), "zh")
    assert menu.cursor == 10 and menu.drawn
    assert menu.resolve(ENTER).action == act("discard", tile="3s")  # 摸切
    assert menu.resolve(" ").action == act("discard", tile="3s")
    assert menu.resolve(LEFT).kind == "move" and menu.cursor == 9
    assert "回车 打出 中" in render_menu(menu, "zh").plain
    assert menu.resolve(ENTER).action == act("discard", tile="C")
    assert menu.resolve(HOME).kind == "move" and menu.cursor == 0
    assert menu.resolve(LEFT).kind == "move" and menu.cursor == 0  # it stops at the edge
    assert menu.resolve(" ").action == act("discard", tile="5m")
    menu.resolve(END)
    assert menu.resolve(RIGHT).kind == "move" and menu.cursor == 10
    assert "回车 摸切 3条" in render_menu(menu, "zh").plain
    menu.resolve("3")  # a position key moves the cursor to what it discarded
    assert menu.cursor == 2


def test_after_a_pon_the_cursor_starts_on_the_rightmost_tile() -> None:
    view = jiaxing_view()
    view["players"][0]["drawn"] = None
    faces = ["1m", "2m", "5m", "3s", "9p", "C", "E"]
    menu = build_menu([act("discard", tile=f) for f in faces], view, "zh")
    assert not menu.drawn and menu.cursor == len(menu.slots) - 1
    assert menu.resolve(ENTER).action == act("discard", tile="C")
    assert "回车 打出 中" in render_menu(menu, "zh").plain


# -- the win guard ---------------------------------------------------------------------------
def test_a_self_drawn_win_is_never_discarded_by_one_key() -> None:
    menu = build_menu(turn_legal(), jiaxing_view(), "zh")
    assert menu.win_offered
    for key in (" ", ENTER, "a", "1", " ", ENTER):  # a key held down, the drawn tile's key
        choice = menu.resolve(key)
        assert choice.kind == "confirm" and "按 w 和牌" in choice.message
        assert "按 x" in choice.message
    assert menu.resolve("x").action == act("discard", tile="3s")  # Enter, then x: 摸切
    menu.resolve("2")
    assert menu.resolve("z").kind == "invalid"  # any other key cancels
    assert menu.resolve("x").kind == "invalid"  # x alone does nothing
    assert menu.resolve("w").action == act("win")
    menu.resolve("2")
    assert menu.resolve("w").action == act("win")  # winning is always one key


def test_a_lazi_is_a_win_no_key_throws_away() -> None:
    """A Wenling 腊子 offered with only discards beside it (no 和): the banner names its key,
    the bell rings, and neither the 摸切 keys nor the drawn tile's key discard at once."""
    faces = ["1m", "2m", "5m", "3s", "9p", "C", "E"]
    legal = [act("discard", tile=f) for f in faces] + [act("lazi")]
    for lang, banner, guard in (("zh", "★ 可以腊子和! 按 l 和牌 ★", "按 l 和牌"),
                                ("en", "★ You can win with a lazi! Press l to win ★", "Press l")):
        menu = build_menu(legal, jiaxing_view(), lang)
        assert menu.win_offered and menu.win_key == "l"
        assert banner in plain(render_table(jiaxing_view(), 0, lang, menu=menu))
        for key in (" ", ENTER, "a"):
            choice = menu.resolve(key)
            assert choice.kind == "confirm" and guard in choice.message, choice.message
        assert menu.resolve("x").action == act("discard", tile="3s")
        assert menu.resolve("l").action == act("lazi")


def test_passing_a_win_on_a_discard_or_a_robbed_kong_asks_first() -> None:
    view = jiaxing_view(phase="claim", turn=3, to_act=[0], last_discard={"seat": 3, "tile": "4m"})
    menu = build_menu([act("pass"), act("pon"), act("win")], view, "en")
    choice = menu.resolve(ENTER)
    assert choice.kind == "confirm" and "to pass and not win instead, press x" in choice.message
    assert menu.resolve(" ").kind == "confirm"
    assert menu.resolve("x").action == act("pass")
    assert menu.resolve("p").action == act("pon")  # a claim chosen by its key is not guarded
    out = plain(render_table(view, 0, "en", menu=menu))
    assert "★ You can win on Left's 4m! Press w to win ★" in out
    view = jiaxing_view(phase="rob", turn=1, to_act=[0], robbable={"seat": 1, "tile": "E"})
    menu = build_menu([act("pass"), act("win")], view, "zh")
    assert menu.resolve(ENTER).kind == "confirm" and menu.resolve("x").action == act("pass")


def test_without_a_win_enter_passes_and_discards_at_once() -> None:
    view = jiaxing_view(phase="claim", turn=3, to_act=[0], last_discard={"seat": 3, "tile": "4m"})
    assert build_menu([act("pass"), act("pon")], view).resolve(ENTER).action == act("pass")
    assert build_menu(no_win(), jiaxing_view()).resolve(" ").action == act("discard", tile="3s")


# -- claims, sub-menus, 三摊, invalid keys ------------------------------------------------------
def test_claim_window_keys() -> None:
    view = jiaxing_view(phase="claim", turn=3, to_act=[0], last_discard={"seat": 3, "tile": "4m"})
    legal = [
        act("pass"), act("pon"),
        act("chi", tiles=["2m", "3m"]),
        act("chi", tiles=["3m", "5m"]),
        act("chi", tiles=["5m", "6m"]),
    ]
    menu = build_menu(legal, view, "zh")
    assert menu.slots == [] and menu.cursor is None
    assert menu.resolve(" ").action == act("pass")
    assert menu.resolve("p").action == act("pon")
    sub = menu.resolve("c").menu
    assert sub is not None
    assert [e.label for e in sub.entries] == ["吃 234万", "吃 345万", "吃 456万"]
    assert sub.resolve("3").action == act("chi", tiles=["5m", "6m"])
    line = render_menu(menu, "zh").plain
    assert "p 碰 4万" in line and "c 吃…" in line and "回车/空格 过" in line


def test_several_kongs_open_a_sub_menu_and_escape_goes_back() -> None:
    menu = build_menu(turn_legal(), jiaxing_view(), "zh")
    choice = menu.resolve("k")
    assert choice.kind == "menu" and choice.menu is not None
    sub = choice.menu
    assert [e.label for e in sub.entries] == ["暗杠 9筒", "补杠 白"]
    assert sub.resolve("2").action == act("bukong", tile="P")
    assert sub.resolve(ESC).kind == "back" and sub.resolve(BACKSPACE).kind == "back"
    assert sub.resolve("7").kind == "invalid"  # discards are not keys of the sub-menu
    assert sub.resolve("q").kind == "invalid"


def test_santan_keys_default_to_continue_and_say_that_giving_up_means_no_win() -> None:
    view = jiaxing_view(phase="santan", santan_pairs=[[3, 1]])
    menu = build_menu([act("continue"), act("give_up")], view, "zh")
    assert menu.resolve("y").action == act("continue")
    assert menu.resolve("n").action == act("give_up")
    assert menu.resolve(ENTER).action == act("continue")
    out = plain(render_table(view, 0, "zh", menu=menu))
    assert "三摊! 上家与下家成为承包方" in out and "不付分, 也不能和" in out
    assert "n 放弃 (不能和)" in out
    view["options"] = {"gaveup_can_win": True}
    out = plain(render_table(view, 0, "en", menu=build_menu([act("give_up")], view, "en")))
    assert "a self-draw may still win" in out and "n Give up (self-draw only)" in out


def test_invalid_keys_explain_and_leave_the_menu_as_it_was() -> None:
    menu = build_menu(no_win(), jiaxing_view(), "en")
    before = copy.deepcopy(menu)
    choice = menu.resolve("z")
    assert choice.kind == "invalid"
    assert "'z'" in choice.message and "keys: 1…a ←/→ k Enter/Space" in choice.message
    assert menu == before
    assert menu.resolve(UP).kind == "invalid" and menu.resolve(DOWN).kind == "invalid"
    assert menu.resolve("p").kind == "invalid"  # no 碰 offered on one's own turn
    assert menu.resolve("q").kind == "quit" and menu.resolve("?").kind == "help"
    assert menu.resolve("h").kind == "help" and menu.resolve("r").kind == "history"


def test_key_names() -> None:
    assert key_name(ENTER, "zh") == "回车" and key_name(" ", "en") == "Space"
    assert key_name(LEFT) == "←" and key_name(ESC) == "Esc" and key_name(HOME) == "Home"
    assert key_name("x") == "'x'" and key_name("\x01") == "'\\x01'"


# -- the key reader ---------------------------------------------------------------------------
def read_all(reader: KeyReader) -> list[str]:
    keys = []
    while (key := reader.read_key()) is not None:
        keys.append(key)
    return keys


def test_escape_sequences_are_parsed_into_key_names() -> None:
    assert parse_escape("\x1b[A") == UP and parse_escape("\x1bOB") == DOWN
    assert parse_escape("\x1b[1;2C") == RIGHT and parse_escape("\x1b[H") == HOME
    assert parse_escape("\x1b[4~") == END and parse_escape("\x1b[3~") == DELETE
    assert parse_escape("\x1b[99~") == "\x1b[99~"  # unknown: the sequence itself
    piped = "a\x1b[D\x1bOC\x1b[1;5A\x1b\r\n\x7f\x1bq"
    assert read_all(KeyReader(io.StringIO(piped))) == [
        "a", LEFT, RIGHT, UP, ESC, ENTER, ENTER, BACKSPACE, ESC, "q",
    ]


def test_key_reader_on_a_terminal_reads_single_keys_and_restores_it() -> None:
    import pty
    import termios

    master, slave = pty.openpty()
    stream = os.fdopen(slave, "r", encoding="utf-8")
    try:
        before = termios.tcgetattr(slave)
        with KeyReader(stream) as reader:
            assert reader.is_tty
            assert not termios.tcgetattr(slave)[3] & termios.ICANON  # keys without Enter
            os.write(master, "a\x1b[B中".encode())
            assert reader.read_key() == "a"
            assert reader.read_key() == DOWN  # an arrow key is one key
            assert reader.read_key() == "中"
            os.write(master, b"zzz")
            reader.discard_typeahead()  # keys pressed before a settlement do not count
            os.write(master, b"\n\x04")
            assert reader.read_key() == ENTER
            assert reader.read_key() is None  # Ctrl-D ends the input
        assert termios.tcgetattr(slave) == before
    finally:
        stream.close()
        os.close(master)


def test_ctrl_c_interrupts() -> None:
    with pytest.raises(KeyboardInterrupt):
        KeyReader(io.StringIO("\x03")).read_key()
