"""The live table in a real browser, later in a hand and a match: the 生牌阶段 banner, chat,
托管 and taking the seat back, the 银子 settlement, the focus order and dialogs, a whole hand at
phone size, the settlement folding away when the next hand needs the player, sounds, and a whole
match to the final standings."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from web_support import (
    DESKTOP,
    FAST,
    PHONE,
    Scenario,
    Web,
    answered,
    enter_as_guest,
    install_scenario,
    mo_qie,
    play_until_settlement,
    quick_play,
    scripted_wall,
    shot,
    wait_prompt,
)
from web_table_scenes import (
    ONE_CHI,
    TIANHU,
    WIN_OR_PON,
    HandResults,
    still_open,
    table_actor,
    tianhu_result,
)

pytest_plugins = ["web_fixtures"]


# ------------------------------------------------------------------ 生牌阶段, 托管, chat


def test_the_sheng_phase_banner_in_wenling(web: Web, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody claims or wins (摸切 bots, and the own seat throws what it draws), so the wall
    runs down to 15 pairs and the 生牌阶段 begins."""
    install_scenario(web.hall, monkeypatch, Scenario(config={"hands": 1}, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "wenling")
    banner = page.locator(".board .banner-sheng")
    deadline = time.monotonic() + 120
    while not banner.count():
        assert time.monotonic() < deadline, "no 生牌阶段"
        prompt = wait_prompt(page)
        assert not prompt.get("settlement"), "the hand ended before the 生牌阶段"
        if prompt["kind"] == "turn":
            page.keyboard.press("End")
            page.keyboard.press("Enter")
            # a 腊子 (three 得, or a set of flowers on a long hand) is a win offered too: it asks
            if {"win", "lazi"} & set(prompt["types"]):
                page.locator(".modal.guard").wait_for()
                page.keyboard.press("x")
        elif "win" in prompt["types"]:
            page.locator(".actions [data-act='pass']").click()
            page.keyboard.press("x")
        else:
            page.locator(".actions [data-act='pass']").click()
        answered(page, prompt["seq"])
    assert "生牌阶段" in banner.inner_text()
    assert page.evaluate("window.baidaTable.state.view.sheng_phase") is True
    assert page.evaluate("window.baidaTable.state.view.wall_remaining") <= 31
    assert any("生牌阶段开始" in line for line in page.evaluate("window.baidaTable.state.log"))
    shot(page, f"sheng-wenling-zh-{DESKTOP['width']}")
    page.set_viewport_size(PHONE)
    assert banner.is_visible()
    shot(page, f"sheng-wenling-zh-{PHONE['width']}")


def test_tuoguan_marker_take_back_and_a_quick_phrase(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    timing = {**FAST, "turn": 2.5, "bank": 0.0, "bot_turn": 3.0}
    install_scenario(web.hall, monkeypatch, Scenario(config={"hands": 1, "timing": timing},
                                                      policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    assert wait_prompt(page)["kind"] == "turn"
    # the tab's title says a decision waits (seen on a tab in the background)
    page.wait_for_function("document.title === '● 轮到你了 · 百搭 · 浙江麻将'")
    actor = table_actor(web, page)
    # the time runs out: 托管 plays the seat, marked at the seat and above the hand
    banner = page.locator(".my-area .banner-auto")
    banner.wait_for(timeout=10000)
    assert page.title() == "百搭 · 浙江麻将"  # nothing waits for the player now
    assert "托管中" in banner.inner_text() and "超时" in banner.inner_text()
    assert page.locator(".seat-bottom .badge-auto").count() == 1
    assert web.hall.call(lambda: actor.driver.modes[0].value) == "auto"
    shot(page, f"tuoguan-zh-{DESKTOP['width']}")
    # 我来打 sends resume: the seat is the player's again and the marker goes
    page.locator(".banner-auto [data-focus-key='resume']").click()
    page.wait_for_function("window.baidaTable.state.modes[0] === 'player'")
    banner.wait_for(state="detached")  # drawn at the next frame
    assert page.locator(".seat-bottom .badge-auto").count() == 0
    assert web.hall.call(lambda: actor.driver.modes[0].value) == "player"
    # a quick phrase goes to the table and comes back in the chat
    phrase = page.locator(".phrases button").first
    words = phrase.inner_text()
    phrase.click()
    page.wait_for_function(
        "w => [...document.querySelectorAll('.chat-lines li')]"
        ".some(li => li.textContent.endsWith(w))",
        arg=words)
    sent = page.evaluate("window.baidaTable.state.chat.at(-1)")
    assert sent["phrase"] == phrase.get_attribute("data-phrase") and sent["seat"] == 0
    # free text too, shown as text (markup is not markup), and the input is cleared
    words = "好牌 <b>x</b>"
    page.wait_for_timeout(1100)  # the hall takes one message a second from a person
    page.locator(".chat-form input").fill(words)
    page.locator(".chat-form button").click()
    page.wait_for_function(
        "w => [...document.querySelectorAll('.chat-lines li')]"
        ".some(li => li.textContent.endsWith(w))",
        arg=words)
    assert page.locator(".chat-lines li b").count() == 0
    assert page.locator(".chat-form input").input_value() == ""
    assert page.evaluate("window.baidaTable.state.chat.at(-1)")["text"] == words
    # a second message within the second is refused, in the page's language
    phrase.click()
    page.locator(".toast-error", has_text="未执行：聊天发得太快了，请稍等。").wait_for()


# ------------------------------------------------------------------ a 银子 table

CREATE_TABLE = """async (config) => {
  const api = await import('/static/js/api.js');
  return (await api.post('/api/tables', config)).table;
}"""


def test_the_silver_change_in_the_settlement_of_a_silver_table(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = scripted_wall("jiaxing", TIANHU["hands"], indicator=TIANHU["indicator"],
                         extra=TIANHU["extra"])
    install_scenario(web.hall, monkeypatch, Scenario(wall=wall, policy=mo_qie))
    page = web.page()
    results = HandResults(page, "fallback")
    enter_as_guest(page, web.hall.base)
    start = int(re.sub(r"\D", "", page.locator("#balance").inner_text()))
    table = page.evaluate(CREATE_TABLE, {
        "ruleset": "jiaxing", "stakes": "silver", "base": 2, "fee": 3, "hands": 2,
        "private": True, "timing": FAST, "bot": "efficient"})
    assert table["stakes"] == "silver"
    page.goto(f"{web.hall.base}/#/table/{table['id']}")
    page.locator(".wait-seat button").first.click()  # 坐这里
    page.get_by_role("button", name="空位补机器人，开始").click()  # and ready: one click
    prompt = wait_prompt(page)
    assert "win" in prompt["types"]
    page.keyboard.press("w")
    settlement = page.locator(".modal.settlement")
    settlement.locator(".st-links").wait_for()
    expected = tianhu_result("jiaxing", wall)  # base 1; this table's 底 is 2
    owed = expected["payments"][0] * 2
    assert "银子变化" in settlement.locator(".st-table thead").inner_text()
    mine = settlement.locator(".st-table tbody tr").first
    balance = start + owed - 3
    text = mine.inner_text()
    assert f"应付 +{owed}，实付 +{owed}，台费 3" in text and f"余额 {balance}" in text
    assert f"+{owed - 3}" in text
    others = settlement.locator(".st-table tbody tr").nth(1).inner_text()
    assert "台费 0" in others and "余额" not in others  # bots pay no fee; no one else's balance
    assert page.locator("#balance").inner_text() == f"银子 {balance}"
    shot(page, f"settlement-silver-zh-{DESKTOP['width']}")
    # after a reload with no hand_result at all the page finds the 银子 in the ledger
    results.reloaded = True
    page.reload()
    settlement.locator(".st-links").wait_for(timeout=20000)
    text = settlement.locator(".st-table tbody tr").first.inner_text()
    assert f"应付 +{owed}，实付 +{owed}，台费 3" in text and f"余额 {balance}" in text
    # the movements are on the player's own page
    page.goto(web.hall.base + "/#/me")
    page.wait_for_selector(".me-page .balance-big")
    page.wait_for_function("b => document.querySelector('.balance-big').textContent === String(b)",
                           arg=balance)
    # the balance may already read right before the history arrives: wait for its rows, which
    # come from one response and are added together
    ledger_table = page.locator(".me-page table").nth(1)
    ledger_table.locator("tbody tr").first.wait_for()
    ledger = ledger_table.inner_text()
    assert "牌局输赢" in ledger and f"+{owed}" in ledger and "台费" in ledger and "-3" in ledger


# ------------------------------------------------------------------ focus, phone size

DESCRIBE = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return 'body';
  if (e.closest('.modal')) return 'modal';
  if (e.classList.contains('skip')) return 'skip';
  if (e.classList.contains('tile-btn')) return 'tile';
  if (e.dataset.act) return 'act-' + e.dataset.act;
  if (e.dataset.phrase) return 'phrase';
  if (e.id) return '#' + e.id;
  if (e.closest('.chat-form')) return 'chat-' + e.tagName.toLowerCase();
  if (e.classList.contains('table-leave')) return 'leave';
  if (e.closest('.topbar')) return 'top';
  return e.tagName.toLowerCase() + '.' + e.className;
}"""


def test_the_focus_order_and_dialogs_that_trap_focus_and_give_it_back(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = scripted_wall("jiaxing", ONE_CHI["hands"], draws=ONE_CHI["draws"],
                         indicator=ONE_CHI["indicator"], extra=ONE_CHI["extra"])
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 1, "timing": {**FAST, "claim": 30.0}}, wall=wall, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    assert wait_prompt(page)["kind"] == "turn"
    page.locator(".hand .tile-btn.can[data-face='S']").click()
    claim = wait_prompt(page)
    assert claim["kind"] == "claim"
    # the hint's request settles (one under way is kept as null); nothing more redraws the bar
    page.wait_for_function("[...window.baidaTable.state.waits.values()].every(w => w !== null)")
    page.locator("a.skip").focus()
    order = []
    for _ in range(40):
        page.keyboard.press("Tab")
        order.append(page.evaluate(DESCRIBE))
        if order[-1] == "chat-button":
            break
    # the top bar (the table's information, language, sound, the rules (玩法), leaving), the
    # claim buttons, the hand (one stop), then the chat
    stops = [x for x in order if x != "top"]
    assert stops[:3] == ["act-table-info", "#lang-toggle", "#sound-toggle"], order
    assert stops[3:8] == ["act-rules", "leave", "act-c", "act-pass", "tile"], order
    assert order.count("tile") == 1
    rest = stops[8:]
    assert rest[-2:] == ["chat-input", "chat-button"], order
    assert rest[:-2] and set(rest[:-2]) == {"phrase"}, order
    assert still_open(page, claim["seq"])  # Tab pressed nothing
    # a dialog keeps the focus inside and gives it back where it was
    leave = page.locator(".table-leave")
    leave.focus()
    page.keyboard.press("Enter")
    page.locator(".modal").wait_for()
    for key in ["Tab"] * 5 + ["Shift+Tab"] * 3:
        page.keyboard.press(key)
        assert page.evaluate(DESCRIBE) == "modal", key
    page.keyboard.press("Escape")
    assert page.locator(".modal").count() == 0
    assert page.evaluate(
        "document.activeElement === document.querySelector('.table-leave')")
    assert still_open(page, claim["seq"])


def no_overflow(page: Any) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, document.body.scrollWidth,"
                           " window.innerWidth]")
    assert max(widths[:2]) <= widths[2], widths


def test_a_whole_hand_at_phone_size_without_horizontal_overflow(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_scenario(web.hall, monkeypatch, Scenario(config={"hands": 1}))
    page = web.page(PHONE)
    enter_as_guest(page, web.hall.base)
    page.wait_for_selector(".table-row")  # the list of tables comes from a fetch: check it too
    no_overflow(page)
    quick_play(page, "jiaxing")
    checked = []

    def check(prompt: dict[str, Any]) -> None:
        no_overflow(page)
        checked.append(prompt)

    turns = play_until_settlement(page, on_prompt=check)
    assert turns >= 1 and len(checked) >= 2
    settlement = page.locator(".modal.settlement")
    settlement.locator(".st-table tbody tr").nth(3).wait_for()
    # once stored it is drawn anew, wider (the totals, the links): check that one
    settlement.locator(".st-links").wait_for(timeout=20000)
    no_overflow(page)
    box = settlement.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    shot(page, f"phone-hand-settlement-zh-{PHONE['width']}")


# ------------------------------------------------------------------ the settlement stays


def won_tianhu(
    web: Web, monkeypatch: pytest.MonkeyPatch, config: dict[str, Any]
) -> tuple[Any, Any]:
    """Quick play (``config``) dealt the scripted 天和, won with W: (page, its settlement once
    stored)."""
    wall = scripted_wall("jiaxing", TIANHU["hands"], indicator=TIANHU["indicator"],
                         extra=TIANHU["extra"])
    install_scenario(web.hall, monkeypatch, Scenario(config=config, wall=wall, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    assert "win" in wait_prompt(page)["types"]
    page.keyboard.press("w")
    settlement = page.locator(".modal.settlement")
    settlement.locator(".st-links").wait_for()
    return page, settlement


FOLDED = """() => ({
  bar: Boolean(document.querySelector('.table-status .st-bar')),
  settlements: [...document.querySelectorAll('.modal.settlement')].map(e => e.innerText),
})"""


def test_the_settlement_stays_through_keys_and_folds_away_when_the_next_hand_needs_me(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    page, settlement = won_tianhu(web, monkeypatch, {
        "hands": 2, "timing": {**FAST, "between_hands": 2.5, "turn": 60.0}})
    formula = settlement.locator(".st-formula").inner_text()
    for key in ["Enter", " ", "Escape", "w", "p", "x", "ArrowLeft", "Tab", "Enter"]:
        page.keyboard.press(key)
    assert settlement.count() == 1 and page.locator(".st-bar").count() == 0
    # the next hand starts (the 2.5 s between hands ran out) and stays under the settlement
    # until the player must act: then the settlement folds into a bar and the prompt is there
    page.wait_for_function("(s => s.view && s.view.phase !== 'ended')(window.baidaTable.state)",
                           timeout=20000)
    bar = page.locator(".table-status .st-bar")
    # read both in one go: the prompt may fold the settlement away between two reads
    now = page.evaluate(FOLDED)
    if not now["bar"]:
        assert len(now["settlements"]) == 1 and "下一局已开始" in now["settlements"][0]
    bar.wait_for(timeout=20000)
    assert settlement.count() == 0
    prompt = wait_prompt(page)
    assert "结算 · 第1局" in bar.inner_text()
    shot(page, f"settlement-folded-zh-{DESKTOP['width']}")
    bar.locator("[data-act='reopen-settlement']").click()  # it opens again, the same
    settlement.locator(".st-links").wait_for()
    assert "下一局已开始" in settlement.inner_text()
    assert settlement.locator(".st-formula").inner_text() == formula
    settlement.locator("[data-act='continue-hand']").click()
    assert settlement.count() == 0 and bar.count() == 0
    if prompt["kind"] == "turn":
        page.locator(".hand .tile-btn.can").last.click()
    else:
        page.locator(".actions [data-act='pass']").click()
        if "win" in prompt["types"]:
            page.keyboard.press("x")
    answered(page, prompt["seq"])
    assert page.evaluate("window.baidaTable.state.modes[0]") == "player"  # never went to 托管


# ------------------------------------------------------------------ sounds


def sounds(page: Any) -> list[str]:
    return page.evaluate("window.baidaSounds.map(s => s.name)")


def test_sounds_for_a_discard_a_claim_and_a_win_and_mute_stops_them(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = scripted_wall("jiaxing", WIN_OR_PON["hands"], draws="8m9m",
                         indicator=WIN_OR_PON["indicator"], extra=WIN_OR_PON["extra"])
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 1, "options": {"allow_discard_win": True}}, wall=wall, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    page.locator("#sound-toggle").click()  # muted
    quick_play(page, "jiaxing")
    assert wait_prompt(page)["kind"] == "turn"
    page.locator(".hand .tile-btn.can[data-face='E']").click()
    claim = wait_prompt(page)  # 下家 threw 8m: two discards, my turn's chime, all silent
    assert claim["kind"] == "claim" and sounds(page) == []
    page.locator("#sound-toggle").click()  # sound on (it says so with a chime)
    assert sounds(page) == ["turn"]
    page.keyboard.press("p")  # 和 is offered too: the guard asks, X confirms the 碰
    page.locator(".modal.guard").wait_for()
    page.keyboard.press("x")
    page.wait_for_selector(".seat-bottom .meld-pon")
    assert wait_prompt(page)["kind"] == "turn"
    page.locator(".hand .tile-btn.can[data-face='9m']").first.click()
    win = wait_prompt(page)  # 下家 threw 9m: I win on it
    assert "win" in win["types"]
    page.keyboard.press("w")
    page.locator(".modal.settlement").wait_for()
    played = sounds(page)
    assert played[:2] == ["turn", "pon"], played
    rest = played[2:]
    assert rest.index("discard") < rest.index("win"), played
    assert rest.count("discard") >= 2  # mine and 下家's
    page.locator("#sound-toggle").click()  # muted again: nothing more plays
    before = len(sounds(page))
    page.evaluate("import('/static/js/sound.js').then(m => m.play('discard'))")
    page.wait_for_timeout(100)
    assert len(sounds(page)) == before


# ------------------------------------------------------------------ a whole match


def test_a_whole_match_to_the_final_standings_and_play_again(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two hands (a scripted 天和, then a dealt hand played from the page) to the match's end:
    the last settlement shows the final standings, the totals the hall keeps, and 再来一场
    starts the next match at the same table."""
    page, settlement = won_tianhu(web, monkeypatch,
                                  {"hands": 2, "timing": {**FAST, "between_hands": 30.0}})
    assert settlement.locator(".standings").count() == 0  # one hand of two: no standings yet
    settlement.locator("[data-act='continue-hand']").click()  # 准备下一局
    assert settlement.count() == 0
    page.wait_for_function("(s => s.view && s.view.phase !== 'ended')(window.baidaTable.state)",
                           timeout=30000)
    play_until_settlement(page, timeout=240.0)
    settlement.locator(".standings").wait_for(timeout=30000)
    assert "最终排名" in settlement.inner_text()
    shown = settlement.locator(".standings tbody tr").all_inner_texts()
    totals = page.evaluate("window.baidaTable.state.match.totals")
    assert len(shown) == 4 and sum(totals) == 0
    # the player's own total is what the hall stored for the match's two hands
    table_id = page.evaluate("window.baidaTable.state.table.id")  # a new table: this match's
    hands = page.evaluate("fetch('/api/me/hands').then(r => r.json())")["hands"]
    mine = [h for h in hands if h["table_id"] == table_id]
    assert len(mine) == 2
    total = sum(h["payment"] for h in mine)
    seat = page.evaluate("window.baidaTable.state.seat")
    assert totals[seat] == total
    me = settlement.locator(".standings tr.me").inner_text()
    assert me.split()[-1] == (f"{total:+d}" if total else "0"), (me, totals)
    ranks = settlement.locator(".standings tbody .rank").all_inner_texts()
    assert ranks[0] == "1" and ranks == sorted(ranks), ranks  # a table: rank, player, total
    shot(page, f"match-over-zh-{DESKTOP['width']}")
    last_hand = page.evaluate("window.baidaTable.state.handId")
    settlement.locator("[data-act='again']").click()  # 再来一场: ready for the next match
    assert settlement.count() == 0
    prompt = wait_prompt(page, timeout=60.0)  # the bots are ready: a new match deals
    assert not prompt.get("settlement")
    assert page.evaluate("window.baidaTable.state.handId") != last_hand
