"""``baida play`` in a real pseudo-terminal: the win guard, the settlement that waits for
Enter, the hands list, the cursor and arrow keys, invalid keys, a terminal too small, records.

Each test first finds, in-process and deterministically, the key presses that lead to the
situation it needs (``BotKeys``), then replays them to the real program in a pseudo-terminal.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import time
import uuid

import pytest
from play_terminal import ROOT, BotKeys, Terminal
from rich.cells import cell_len
from rich.console import Console

from baida.cli import main
from baida.tui.i18n import tile_label
from baida.tui.session import EndOfInput, Session, Settings

LEFT = "\x1b[D"


def keys_until(settings: Settings, stop) -> tuple[list[str], Session]:
    """The keys a bot presses for the player until ``stop(session)``; the session there."""
    reader = BotKeys(stop=stop)
    console = Console(file=io.StringIO(), width=80, color_system=None)
    session = Session(settings, console, reader)
    reader.session = session
    with pytest.raises(EndOfInput):
        session.run()
    return reader.pressed, session


def self_draw_offered(session: Session) -> bool:
    menu = session.menu
    rnd = session.driver.round
    return menu is not None and menu.win_offered and rnd is not None and rnd.phase == "turn"


def first_decision(session: Session) -> bool:
    return session.menu is not None


def cells(row: str, start: int, end: int) -> str:
    """The characters of ``row`` shown in screen columns ``start``..``end`` (inclusive)."""
    out, col = "", 0
    for ch in row:
        width = cell_len(ch)
        if col + width > start and col <= end:
            out += ch
        col += width
    return out


def rows_fit(page: str, height: int = 24) -> bool:
    return len(page.rstrip("\n").split("\n")) <= height - 1


@pytest.fixture
def terminals():
    opened: list[Terminal] = []

    def start(args: list[str], width: int = 80, height: int = 24) -> Terminal:
        term = Terminal(args, width, height)
        opened.append(term)
        return term

    yield start
    for term in opened:
        term.close()


def test_a_self_drawn_win_is_guarded_and_the_settlement_waits_for_enter(terminals, tmp_path):
    settings = Settings(seed="w1", hands=1, bot="greedy")
    keys, session = keys_until(settings, self_draw_offered)
    menu = session.menu
    assert menu is not None
    drawn_key = menu.slots[-1].key
    term = terminals(["--seed", "w1", "--hands", "1", "--bot", "greedy",
                      "--record", str(tmp_path)])
    term.wait_for("轮到你出牌")
    term.send("".join(keys))
    page = term.wait_for("★ 可以和牌! 自摸")
    assert rows_fit(page) and page.startswith("嘉兴台头和")
    # Space, Enter and the drawn tile's own key ask first: the win stays on offer
    drawn = tile_label(menu.slots[-1].face, "zh")
    for key in (" ", "\n", " ", drawn_key):
        before = term.pages()
        term.send(key)
        page = term.wait_for(f"确定要不和而打出 {drawn}, 请按 x (其他键取消)", after=before)
        assert "★ 可以和牌! 自摸" in page and page.startswith("嘉兴台头和") and rows_fit(page)
    # a win, then keys already pressed and Space do not leave the settlement: only Enter
    term.send("w  ")
    page = term.wait_for("按 回车 继续")
    assert "结算 · 第1局" in page and "你 东·庄 和了 · 自摸" in page and rows_fit(page)
    term.send(" x1")
    page = term.wait_for("结算画面要按 回车 才会离开")
    assert "结算 · 第1局" in page
    # the hands played so far, and a settlement shown again
    term.send("r")
    term.wait_for(lambda p: "本场各局" in p and "▶ 第1局" in p and "你 和了" in p)
    term.send("\n")
    page = term.wait_for("上一局/下一局")
    assert "结算 · 第1局" in page and "你 东·庄 和了 · 自摸" in page
    term.send("\x1b")
    term.wait_for("本场各局")
    term.send("\x1b")
    term.wait_for(lambda p: "按 回车 继续" in p and "本场各局" not in p)
    term.send("\n")
    assert term.finish() == 0
    out = term.text()
    assert "比赛结束" in out and "已保存 1 局的记录" in out
    records = sorted(tmp_path.glob("*.json"))
    assert [p.name for p in records] == ["w1-hand01.json"]
    assert json.loads(records[0].read_text())["settlement"]["winner"] == 0
    assert main(["replay", str(records[0])]) == 0


def test_arrow_keys_move_the_cursor_and_invalid_keys_keep_the_table(terminals):
    _, session = keys_until(Settings(seed="arrows", hands=1, bot="greedy"), first_decision)
    menu = session.menu
    assert menu is not None and menu.cursor == len(menu.slots) - 1
    target = menu.slots[-3].face
    label = tile_label(target, "zh")
    term = terminals(["--seed", "arrows", "--hands", "1", "--bot", "greedy"])
    first = term.wait_for("轮到你出牌")
    header = first.split("\n")[0]
    term.send("z" * 30)
    page = term.wait_for("无效的键 'z'")
    page = term.settle()
    assert page.split("\n")[0] == header and rows_fit(page)  # nothing scrolled away
    assert page.count("无效的键") == 1  # one status line, not thirty
    term.send(LEFT + LEFT)
    page = term.wait_for(f"回车 打出 {label}")
    rows = page.split("\n")
    marks = next(i for i, row in enumerate(rows) if "▲" in row)
    column = cell_len(rows[marks][: rows[marks].index("▲")])
    assert label in cells(rows[marks - 2], column - 1, column + 2)  # ▲ under the tile
    term.send("\n")
    term.wait_for(f"你 打 {label}")


def test_a_small_terminal_is_told(terminals):
    term = terminals(["--seed", "small", "--hands", "1", "--bot", "greedy"], width=60, height=20)
    page = term.wait_for("请放大到至少 80×24")
    assert page.rstrip().endswith("终端太小 (60×20): 请放大到至少 80×24")
    assert "轮到你出牌" in page


def test_english_help_pages_and_no_chi_on_the_table(terminals):
    term = terminals(["--seed", "en", "--hands", "1", "--bot", "greedy", "--lang", "en",
                      "--no-chi"])
    page = term.wait_for("Your turn")
    assert "Jiaxing no chi" in page.split("\n")[0]
    term.send("?")
    page = term.wait_for(lambda p: "Keys  (1/2)" in p and "Enter/Esc back" in p)
    assert "A win is never thrown away by accident" in page and rows_fit(page)
    term.send("\x1b[C")
    page = term.wait_for(lambda p: "Notation and terms  (2/2)" in p and "Enter/Esc back" in p)
    assert "1p-9p dots" in page and "三摊" in page and "承包" in page and rows_fit(page)
    term.send("\n")
    page = term.wait_for("Your turn")
    assert page.startswith("Jiaxing no chi")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_tmux_the_header_stays_on_the_first_row():
    """The same in a real terminal emulator: after many invalid keys row 1 is the header."""
    socket = f"baida-test-{uuid.uuid4().hex[:8]}"
    tmux = ["tmux", "-L", socket]
    command = f"{sys.executable} -m baida.cli play --seed tmux --hands 1 --bot greedy"
    subprocess.run([*tmux, "new-session", "-d", "-x", "80", "-y", "24", "-s", "t",
                    "-c", str(ROOT), command], check=True)
    try:
        def capture() -> list[str]:
            out = subprocess.run([*tmux, "capture-pane", "-p", "-t", "t"], check=True,
                                 capture_output=True, text=True).stdout
            return out.split("\n")

        def wait(test) -> list[str]:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                rows = capture()
                if test(rows):
                    return rows
                time.sleep(0.05)
            raise AssertionError("\n".join(capture()))

        wait(lambda rows: any("轮到你出牌" in r for r in rows))
        subprocess.run([*tmux, "send-keys", "-t", "t", *(["z"] * 40)], check=True)
        rows = wait(lambda rows: any("无效的键 'z'" in r for r in rows))
        assert rows[0].startswith("嘉兴台头和") and "轮到你出牌" in "\n".join(rows)
    finally:
        subprocess.run([*tmux, "kill-server"], check=False)
