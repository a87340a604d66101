"""The live table in a real browser, on scripted walls: no stray key is irreversible (claim
keys arm first, anything but the offered win asks), a reload during the settlement brings the
stored settlement back, wilds leftmost and labelled and what each stood for, the 听牌 hint
against the hall's /api/waits, the 生牌阶段 banner, chat, 托管 and taking the seat back, the
承包 summary, the 银子 settlement, the pointer highlight, sounds, the settlement folding away
when the next hand needs the player, and a whole hand at phone size."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from web_support import (
    DESKTOP,
    FAST,
    Scenario,
    Web,
    answered,
    enter_as_guest,
    install_scenario,
    mo_qie,
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


# ------------------------------------------------------------------ a reload during the settlement

TIANHU = dict(
    hands=["111234567888m9m", "12345678p12345s", "12345678p6789sE", "12345678p123sSW"],
    indicator="9p", extra="9m",
)


class HandResults:
    """The table's WebSocket through the test: it keeps the first ``hand_result``; after the
    reload it either drops every ``hand_result`` (``fallback``: the page must find the stored
    hand itself) or makes sure one follows the snapshot (``resent``: what the hall does for a
    client that comes back between hands; sent by the test if this hall does not)."""

    def __init__(self, page: Any, mode: str) -> None:
        self.mode = mode
        self.reloaded = False
        self.first: str | None = None
        self.hall_resent = False
        page.route_web_socket(re.compile(r"/ws/tables/\d+$"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda m: server.send(m))
        server.on_message(lambda m: self._from_server(ws, m))

    def _from_server(self, ws: Any, raw: str | bytes) -> None:
        msg = json.loads(raw)
        if msg["type"] == "hand_result":
            if not self.reloaded:
                self.first = self.first or str(raw)
            else:
                self.hall_resent = True
                if self.mode == "fallback":
                    return
        ws.send(raw)
        ended = msg["type"] == "snapshot" and (msg.get("view") or {}).get("phase") == "ended"
        if ended and self.reloaded and self.mode == "resent" and self.first is not None:
            ws.send(self.first)


# A seed whose Wenling deal gives the dealer (the own seat) a 天和: a real, verifiable hand
# that ends at the first prompt.
WENLING_TIANHU_SEED = (2305).to_bytes(32, "big")


@pytest.mark.parametrize("mode", ["resent", "fallback"])
def test_a_reload_during_the_settlement_brings_the_stored_settlement_back(
    web: Web, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    rnd = Round.from_seed("wenling", WENLING_TIANHU_SEED)
    assert any(a.type == "win" for a in rnd.legal_actions(0))
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 2}, seed=WENLING_TIANHU_SEED, policy=mo_qie))
    page = web.page()
    results = HandResults(page, mode)
    enter_as_guest(page, web.hall.base)
    quick_play(page, "wenling")
    assert "win" in wait_prompt(page)["types"]
    page.keyboard.press("w")
    settlement = page.locator(".modal.settlement")
    settlement.locator(".st-links").wait_for()
    replay = settlement.locator("[data-act='replay']").get_attribute("href")
    formula = settlement.locator(".st-formula").inner_text()
    assert results.first is not None
    results.reloaded = True
    page.reload()
    settlement.wait_for()
    settlement.locator(".st-links").wait_for(timeout=20000)  # stored: verify, replay, record
    assert settlement.locator(".st-saving").count() == 0
    assert settlement.locator(".st-formula").inner_text() == formula
    assert settlement.locator("[data-act='replay']").get_attribute("href") == replay
    assert "总分" in settlement.locator(".st-table thead").inner_text()  # the match totals
    source = page.evaluate("window.baidaTable.state.settlement.source")
    assert source == ("hand_result" if mode == "resent" else "api")
    settlement.locator("[data-act='verify']").click()
    page.wait_for_selector(".st-verify-result.ok")
    shot(page, f"settlement-after-reload-{mode}-zh-{DESKTOP['width']}")
    # it still stays until dismissed, and then the next hand can start
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    assert settlement.count() == 1
    settlement.locator("[data-act='continue-hand']").click()
    page.wait_for_function("(s => s.view && s.view.phase !== 'ended')(window.baidaTable.state)",
                           timeout=30000)


# ------------------------------------------------------------------ wilds

WILDS = {
    "jiaxing": dict(
        hands=["111m234m67m999m5m5m", "12345678p12345s", "12345678p6789sE", "12345678p123sSW"],
        indicator="5m", extra="2m", zh="五万 (百搭)", en="5 Characters (wild)", count=2,
    ),
    "wenling": dict(
        hands=["111234567888m12p5s9m", "456789p12346789sEE", "456789p12346789sCC",
               "456789p12346789sFF"],
        indicator="5s", extra="9m", zh="五条 (得)", en="5 Bamboo (wild)", count=1,
    ),
}
TILE_ZH = {"2m": "二万", "5m": "五万", "3p": "三筒"}


def _tianhu_result(ruleset: str, wall: list[int]) -> dict[str, Any]:
    """The engine's own settlement of the dealer's 天和 on this wall."""
    rnd = Round.from_wall(ruleset, wall, (1, 2))
    rnd.apply(next(a for a in rnd.legal_actions(0) if a.type == "win"))
    assert rnd.result is not None
    return rnd.result.to_json()


def hand_labels(page: Any) -> list[str]:
    return page.locator(".hand .tile-btn").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_wilds_leftmost_labelled_in_both_languages_and_what_each_stood_for(
    web: Web, monkeypatch: pytest.MonkeyPatch, ruleset: str
) -> None:
    spec = WILDS[ruleset]
    wall = scripted_wall(ruleset, spec["hands"], indicator=spec["indicator"], extra=spec["extra"])
    stood = _tianhu_result(ruleset, wall)["score"]["wilds"]
    assert len(stood) == spec["count"]
    install_scenario(web.hall, monkeypatch, Scenario(config={"hands": 1}, wall=wall, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, ruleset)
    wait_prompt(page)
    n = spec["count"]
    labels = hand_labels(page)
    assert labels[:n] == [spec["zh"]] * n and spec["zh"] not in labels[n:]
    classes = page.locator(".hand .tile-btn").evaluate_all("els => els.map(e => e.className)")
    assert all("wild" in c for c in classes[:n]) and not any("wild" in c for c in classes[n:])
    page.locator("#lang-toggle").click()
    labels = hand_labels(page)
    assert labels[:n] == [spec["en"]] * n and spec["en"] not in labels[n:]
    shot(page, f"wilds-{ruleset}-en-{DESKTOP['width']}")
    page.locator("#lang-toggle").click()
    page.keyboard.press("w")
    settlement = page.locator(".modal.settlement")
    settlement.wait_for()
    marked = settlement.locator(".st-outcome + .revealed .wild-as")
    assert marked.count() == n
    shown = marked.evaluate_all("els => els.map(e => e.dataset.as)")
    assert sorted(shown) == sorted(stood)
    for el, face in zip(marked.all(), shown, strict=True):
        assert el.get_attribute("aria-label") == f"{spec['zh']} → {TILE_ZH[face]}"
        assert el.locator(".wild-as-label").inner_text() == f"={face[0]}{TILE_ZH[face][1]}"
    shot(page, f"settlement-wilds-{ruleset}-zh-{DESKTOP['width']}")


# ------------------------------------------------------------------ the settlement stays


def test_the_settlement_stays_through_keys_and_folds_away_when_the_next_hand_needs_me(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = scripted_wall("jiaxing", TIANHU["hands"], indicator=TIANHU["indicator"],
                         extra=TIANHU["extra"])
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 2, "timing": {**FAST, "between_hands": 2.5, "turn": 60.0}},
        wall=wall, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    assert "win" in wait_prompt(page)["types"]
    page.keyboard.press("w")
    settlement = page.locator(".modal.settlement")
    settlement.locator(".st-links").wait_for()
    formula = settlement.locator(".st-formula").inner_text()
    for key in ["Enter", " ", "Escape", "w", "p", "x", "ArrowLeft", "Tab", "Enter"]:
        page.keyboard.press(key)
    assert settlement.count() == 1 and page.locator(".st-bar").count() == 0
    # the next hand starts (the 2.5 s between hands ran out) and stays under the settlement
    # until the player must act: then the settlement folds into a bar and the prompt is there
    page.wait_for_function("(s => s.view && s.view.phase !== 'ended')(window.baidaTable.state)",
                           timeout=20000)
    bar = page.locator(".table-status .st-bar")
    if not bar.count():
        assert settlement.count() == 1 and "下一局已开始" in settlement.inner_text()
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
