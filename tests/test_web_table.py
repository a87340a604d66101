"""The live table in a real browser, on scripted walls: no stray key is irreversible (claim
keys arm first, anything but the offered win asks), a reload during the settlement brings the
stored settlement back, wilds leftmost and labelled and what each stood for, the 听牌 hint
against the hall's /api/waits, the 生牌阶段 banner, chat, 托管 and taking the seat back, the
承包 summary, the 银子 settlement, the pointer highlight, sounds, the settlement folding away
when the next hand needs the player, and a whole hand at phone size."""

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
    hand_faces,
    install_scenario,
    mo_qie,
    play_until_settlement,
    quick_play,
    scripted_wall,
    shot,
    wait_prompt,
)

from baida.engine import Round

pytest_plugins = ["web_fixtures"]

UNANSWERED = "seq => (p => p && p.seq === seq && !p.answered)(window.baidaTable.state.prompt)"


def still_open(page: Any, seq: int) -> bool:
    return bool(page.evaluate(UNANSWERED, seq))


def table_actor(web: Web, page: Any) -> Any:
    table_id = page.evaluate("window.baidaTable.state.table.id")
    return web.hall.runtime.hall.get(table_id)


# ------------------------------------------------------------------ no stray key is irreversible

# I (the dealer) discard E and wait on 8m/9m (清一色); 下家 draws 8m and throws it: 和 or 碰.
WIN_OR_PON = dict(
    hands=["111234567m88m99m", "123456789p1234s", "123456789p5678s", "123456789sSSWW"],
    draws="8m", indicator="N", extra="E",
)


def test_a_claim_key_or_button_never_drops_an_offered_win(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = scripted_wall("jiaxing", WIN_OR_PON["hands"], draws=WIN_OR_PON["draws"],
                         indicator=WIN_OR_PON["indicator"], extra=WIN_OR_PON["extra"])
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 1, "options": {"allow_discard_win": True}}, wall=wall, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    assert wait_prompt(page)["kind"] == "turn"
    page.locator(".hand .tile-btn.can[data-face='E']").click()
    claim = wait_prompt(page)
    assert claim["kind"] == "claim" and {"win", "pon", "pass"} <= set(claim["types"])
    guard = page.locator(".modal.guard")
    # the P key asks first
    page.keyboard.press("p")
    guard.wait_for()
    assert "碰" in guard.inner_text()
    page.keyboard.press("Escape")
    assert guard.count() == 0 and still_open(page, claim["seq"])
    # the 碰 button asks too, and Enter (on 取消) cancels
    page.locator(".actions [data-act='p']").click()
    guard.wait_for()
    page.keyboard.press("Enter")
    assert guard.count() == 0 and still_open(page, claim["seq"])
    # P pressed again inside the guard is not a confirmation: it cancels
    page.keyboard.press("p")
    guard.wait_for()
    page.keyboard.press("p")
    assert guard.count() == 0 and still_open(page, claim["seq"])
    assert page.locator(".seat-bottom .meld-pon").count() == 0
    # 过 asks as well; then W wins
    page.locator(".actions [data-act='pass']").click()
    guard.wait_for()
    page.keyboard.press("w")
    settlement = page.locator(".modal.settlement")
    settlement.wait_for()
    assert "你 和了" in settlement.locator(".st-outcome").inner_text()


# I (the dealer) discard S; 上家 throws 5m, which I can 吃 one way only (3m 4m).
ONE_CHI = dict(
    hands=["34m99m147p147sEEW", "123456789p1234s", "123456789p5678s", "123456789sSSWN"],
    draws="FP5m", indicator="C", extra="S",
)


def test_a_claim_key_acts_only_on_a_deliberate_second_press(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = scripted_wall("jiaxing", ONE_CHI["hands"], draws=ONE_CHI["draws"],
                         indicator=ONE_CHI["indicator"], extra=ONE_CHI["extra"])
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 1, "timing": {**FAST, "claim": 20.0}}, wall=wall, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    assert wait_prompt(page)["kind"] == "turn"
    page.locator(".hand .tile-btn.can[data-face='S']").click()
    claim = wait_prompt(page)
    assert claim["kind"] == "claim" and set(claim["types"]) == {"chi", "pass"}
    chi = page.locator(".actions [data-act='c']")
    # a key held down (repeats) arms the button once and does nothing more
    page.keyboard.down("c")
    page.keyboard.down("c")
    page.keyboard.up("c")
    page.wait_for_selector(".actions [data-act='c'].armed")
    assert "再按一次 C" in page.locator(".actions .armed-hint").inner_text()
    assert still_open(page, claim["seq"])
    shot(page, f"claim-armed-zh-{DESKTOP['width']}")
    # the arming runs out: a press much later arms again, it does not act
    page.wait_for_function("!document.querySelector('.actions .armed')", timeout=6000)
    page.keyboard.press("c")
    page.wait_for_selector(".actions [data-act='c'].armed")
    assert still_open(page, claim["seq"]) and page.locator(".seat-bottom .meld-chi").count() == 0
    page.keyboard.press("c")  # the second press: 吃
    answered(page, claim["seq"])
    page.wait_for_selector(".seat-bottom .meld-chi")
    assert chi.count() == 0
    # a click on a claim button is deliberate already: it acts at once (covered by the
    # next turn's discard here: the hand goes on)
    turn = wait_prompt(page)
    assert turn["kind"] == "turn"
