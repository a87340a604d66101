"""The live table in a real browser, on scripted walls: no stray key is irreversible (claim
keys arm first, anything but the offered win asks), a reload during the settlement brings the
stored settlement back, the seed checked against the commitment, wilds leftmost and labelled and
what each stood for, the pointer highlight and the 听牌 hint against the hall's /api/waits.
Later in a hand and a match: test_web_table_match.py."""

from __future__ import annotations

import hashlib
import json
import re
import urllib.request
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
    settlement_drawn,
    shot,
    wait_prompt,
)
from web_table_scenes import (
    ONE_CHI,
    WIN_OR_PON,
    HandResults,
    still_open,
    table_actor,
    tianhu_result,
    words,
)

from baida.engine import Round

pytest_plugins = ["web_fixtures"]







# ------------------------------------------------------------------ no stray key is irreversible

# I (the dealer) discard E and wait on 8m/9m (清一色); 下家 draws 8m and throws it: 和 or 碰.


def scripted_quick_play(web: Web, monkeypatch: pytest.MonkeyPatch, ruleset: str,
                        spec: dict[str, Any], config: dict[str, Any]) -> Any:
    """A guest's page at a quick-play table whose first hand is dealt from ``spec`` (the
    keywords of ``scripted_wall``), the bots throwing what they draw."""
    wall = scripted_wall(ruleset, **spec)
    install_scenario(web.hall, monkeypatch, Scenario(config=config, wall=wall, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, ruleset)
    return page


# Wenling: the dealer holds three 得 (5m with the indicator 5m): a 腊子, a win by its own key.
LAZI = dict(
    hands=["5m5m5m1p4p7p1s4s7s3m6m2p8p3sWC", "2s5s8s3m6m3p6p3s6s9m9pSWNCF",
           "1m4m7m1p4p7p1s4s7s2m8m2p5p8pSN", "1m4m7m1p4p7p1s4s7s2m8m2p5p8pEN"],
    indicator="5m", extra="E",
)


def test_a_lazi_is_offered_loudly_and_no_discard_key_throws_it_away(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = scripted_quick_play(web, monkeypatch, "wenling", LAZI, {"hands": 1})
    prompt = wait_prompt(page)
    assert "lazi" in prompt["types"] and "win" not in prompt["types"]
    assert "腊子" in page.locator(".actions.win-offer .prompt-text.loud").inner_text()
    for press in ("Enter", " "):  # the discard keys ask first; Escape keeps the 腊子
        page.keyboard.press("End")  # the cursor on the tile just drawn (摸切)
        page.keyboard.press(press)
        guard = page.locator(".modal.guard")
        guard.wait_for()
        assert "按 L" in guard.inner_text() and "腊子和 (L)" in guard.inner_text()
        page.keyboard.press("Escape")
        assert page.locator(".modal.guard").count() == 0
    page.locator(".hand .tile-btn").first.click()  # a click asks too; L in the dialog wins
    page.locator(".modal.guard").wait_for()
    assert page.evaluate("window.baidaTable.state.prompt.answered") is None
    page.keyboard.press("l")
    settlement = page.locator(".modal.settlement")
    settlement.wait_for()
    assert "腊子" in settlement.inner_text()
    assert settlement.locator(".st-formula").inner_text() == "满贯 500"  # the limit, no formula


# Wenling: the dealer's three 得 also complete the hand (123p 456p 789p 123s, 4s5s with a 得,
# a pair of 得): a 天和 and a 腊子 at once, and the 腊子 (500, the cap of any win) is the one
# the guard offers.
LAZI_AND_WIN = dict(
    hands=["5m5m5m123p456p789p123s4s", "2s5s8s3m6m3p6p3s6s9m9pSWNCF",
           "1m4m7m1p4p7p1s4s7s2m8m2p5p8pSN", "1m4m7m1p4p7p1s4s7s2m8m2p5p8pEN"],
    indicator="5m", extra="5s",
)


def test_with_a_lazi_and_a_win_offered_the_guard_offers_the_lazi(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = scripted_quick_play(web, monkeypatch, "wenling", LAZI_AND_WIN, {"hands": 1})
    prompt = wait_prompt(page)
    assert {"lazi", "win"} <= set(prompt["types"])
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    guard = page.locator(".modal.guard")
    guard.wait_for()
    assert "按 L" in guard.inner_text() and "腊子和 (L)" in guard.inner_text()
    guard.locator("[data-act='guard-win']").click()
    settlement = page.locator(".modal.settlement")
    settlement.wait_for()
    assert "腊子" in settlement.inner_text()
    assert settlement.locator(".st-formula").inner_text() == "满贯 500"


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


# Two concealed kongs on the dealer's first turn (1m and 9p): K opens the choice of which.
TWO_KONGS = dict(
    hands=["1111m9999p2345sE", "2345678m12345sN", "2345678p6789sSW", "12345678p123sWN"],
    indicator="C", extra="7s",
)


def test_k_offers_the_choice_of_a_kong_and_the_kong_is_made(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = scripted_quick_play(web, monkeypatch, "jiaxing", TWO_KONGS,
                               {"hands": 1, "timing": {**FAST, "turn": 60.0}})
    turn = wait_prompt(page)
    assert turn["kind"] == "turn" and "akong" in turn["types"]
    page.keyboard.press("k")  # two kongs: a choice, nothing made yet
    choice = page.locator(".modal .btn-choice")
    choice.first.wait_for()
    labels = choice.evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    assert len(labels) == 2 and all(label.startswith("暗杠") for label in labels), labels
    assert still_open(page, turn["seq"])
    shot(page, f"kong-choice-zh-{DESKTOP['width']}")
    key = next(i for i, label in enumerate(labels, 1) if "筒" in label)
    page.keyboard.press(str(key))  # the kong of 9p, by its number
    answered(page, turn["seq"])
    page.wait_for_function("window.baidaTable.state.view.players[0].melds.length === 1")
    meld = page.evaluate("window.baidaTable.state.view.players[0].melds[0]")
    assert meld["type"] == "akong" and meld["tiles"][0] == "9p"
    again = wait_prompt(page)  # the replacement tile drawn: the turn goes on, 1m still a kong
    assert again["kind"] == "turn" and "akong" in again["types"]


# ------------------------------------------------------------------ a reload during the settlement





# A seed whose Wenling deal gives the dealer (the own seat) a 天和: a real, verifiable hand
# that ends at the first prompt.
WENLING_TIANHU_SEED = (2305).to_bytes(32, "big")


def test_the_seed_is_checked_in_the_page_against_the_commitment_shown_at_the_deal(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The verify button hashes the revealed seed in the page (Web Crypto, or the page's own
    SHA-256 where there is none) and compares it with the commitment shown at the deal; a
    hall whose record says otherwise is caught, whatever the hall's own check answers."""
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 1}, seed=WENLING_TIANHU_SEED, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "wenling")
    assert "win" in wait_prompt(page)["types"]
    shown = page.evaluate("window.baidaTable.state.view.commitment")
    assert shown == hashlib.sha256(WENLING_TIANHU_SEED).hexdigest()  # as the deal showed it
    page.keyboard.press("w")
    settlement = page.locator(".modal.settlement")
    settlement.locator(".st-links").wait_for(timeout=20000)
    assert WENLING_TIANHU_SEED.hex() in settlement.locator("code.seed").inner_text()
    # verified at once, while a Wenling win's non-winners' items may still redraw the
    # settlement: the answer stays through every redraw, and through a language switch
    settlement.locator("[data-act='verify']").click()
    settlement_drawn(page)
    page.wait_for_selector(".st-verify-result.ok .st-verify-local.ok")
    assert "本页算出的 SHA-256(种子) 就是开局时公布的承诺" in settlement.inner_text()
    page.locator("#lang-toggle").click()
    page.wait_for_selector(".st-verify-result.ok .st-verify-local.ok")
    assert "SHA-256(seed), computed in this page, is the commitment" in settlement.inner_text()
    page.locator("#lang-toggle").click()
    # the page's own SHA-256 (for pages without Web Crypto) is the standard one
    samples = [bytes(range(n)) * 3 for n in (0, 1, 21, 55, 56, 64, 100)]
    digests = page.evaluate(
        """async samples => {
             const m = await import("/static/js/sha256.js");
             return samples.map(s => m.sha256HexJs(Uint8Array.from(s)));
           }""", [list(b) for b in samples])
    assert digests == [hashlib.sha256(b).hexdigest() for b in samples]
    # a hall that answers "ok" about a record with another seed than the page saw is caught

    def other_record(route: Any) -> None:
        answer = route.fetch().json()
        answer["seed"] = "00" * 32
        route.fulfill(json={**answer, "ok": True, "problems": []})

    page.route(re.compile(r"/api/hands/\d+/verify$"), other_record)
    settlement.locator("[data-act='verify']").click()
    page.wait_for_selector(".st-verify-result.bad")
    assert "大厅记录里的种子或承诺与本页所见不同" in settlement.inner_text()


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
    settlement_drawn(page)  # a redraw after the click keeps the answer
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




def hand_labels(page: Any) -> list[str]:
    return page.locator(".hand .tile-btn").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_wilds_leftmost_labelled_in_both_languages_and_what_each_stood_for(
    web: Web, monkeypatch: pytest.MonkeyPatch, ruleset: str
) -> None:
    spec = WILDS[ruleset]
    wall = scripted_wall(ruleset, spec["hands"], indicator=spec["indicator"], extra=spec["extra"])
    stood = tianhu_result(ruleset, wall)["score"]["wilds"]
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
    # (the hand is drawn anew at the next frame: read it once it is; a loaded run read the
    # Chinese labels still there)
    page.wait_for_function("want => document.querySelector('.hand .tile-btn')"
                           "?.getAttribute('aria-label') === want", arg=spec["en"])
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
    # and listed, as legible as the winning hand (they were 18 px wide)
    widths = settlement.locator(".st-wilds .tile").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width)")
    assert len(widths) == n and min(widths) >= 22, widths
    shot(page, f"settlement-wilds-{ruleset}-zh-{DESKTOP['width']}")


# ------------------------------------------------------------------ the pointer and the 听牌 hint

SLOW_BOTS = {**FAST, "bot_turn": 4.0}
TENPAI = dict(  # discarding E leaves 111 234 567 88 99m: waiting on 8m and 9m (清一色)
    hands=["111234567m88m99m", "123456789p1234s", "123456789p5678s", "123456789sSSWW"],
    indicator="N", extra="E",
)
SHORT = {"m": "万", "p": "筒", "s": "条"}


def post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:  # the hall on loopback
        return json.loads(response.read())


def waits_request(view: dict[str, Any]) -> dict[str, Any]:
    """POST /api/waits for the own hand, built from the hall's own view of the seat."""
    me = view["players"][view["seat"]]
    return {
        "ruleset": view["ruleset"], "options": view["options"], "indicator": view["indicator"],
        "seat_wind": view["seat_winds"][view["seat"]], "round_wind": view["round_wind"] or "E",
        "concealed": me["concealed"], "flowers": me["flowers"], "discarded_wild": False,
        "melds": [{"type": m["type"], "tiles": m["tiles"]} for m in me["melds"] if m["tiles"]],
    }


def live(view: dict[str, Any], face: str) -> int:
    """Copies of ``face`` the seat has not seen (the hint's count), from the hall's view."""
    seen = view["players"][view["seat"]]["concealed"].count(face)
    for p in view["players"]:
        seen += sum(1 for i, f in enumerate(p["discards"]) if f == face and i not in p["claimed"])
        seen += sum((m["tiles"] or []).count(face) for m in p["melds"])
        seen += p["flowers"].count(face)
    return 4 - (face == view["indicator"]) - seen


def waits_text(view: dict[str, Any], waits: dict[str, Any]) -> str:
    """The hint's words for an answer of /api/waits: each wait and its live count, and
    whether a drawn wild wins too."""
    parts = [f"{w[0]}{SHORT[w[1]]} 剩{live(view, w)}张" for w in waits["waits"]]
    if waits["wild_wins"]:
        parts.append("摸到百搭也和")
    return " · ".join(parts)




def test_the_pointer_highlight_and_the_tenpai_hint_with_live_counts(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = scripted_wall("jiaxing", TENPAI["hands"], indicator=TENPAI["indicator"],
                         extra=TENPAI["extra"])
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 1, "timing": SLOW_BOTS}, wall=wall, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    assert wait_prompt(page)["kind"] == "turn"
    actor = table_actor(web, page)
    # the hand is drawn anew when the page's /api/waits answer comes (it marks the discards
    # that leave a waiting hand): wait for it before pointing at a tile and reading the marks
    page.locator(".hand .tile-btn.tenpai-discard").first.wait_for()
    # the tile under the pointer lifts in a red frame; the others do not move
    style = "el => (s => [s.transform, s.boxShadow])(getComputedStyle(el))"
    tiles = page.locator(".hand .tile-btn.can")
    east = page.locator(".hand .tile-btn.can[data-face='E']")
    other = tiles.first
    rest = other.evaluate(style)
    page.mouse.move(0, 0)
    east.hover()
    page.wait_for_function("el => getComputedStyle(el).transform !== 'none'",
                           arg=east.element_handle())
    lifted = east.evaluate(style)
    assert lifted != rest and "rgb(194, 38, 46)" in lifted[1]  # --red
    assert other.evaluate(style) == rest
    shot(page, f"hover-zh-{DESKTOP['width']}")
    # on the turn: the discards that leave a waiting hand, and their waits when pointed at
    view = web.hall.call(lambda: actor.driver.round.view(0).to_json())
    server = post_json(web.hall.base + "/api/waits", waits_request(view))
    marked = page.locator(".hand .tile-btn.tenpai-discard").evaluate_all(
        "els => [...new Set(els.map(e => e.dataset.face))]")
    assert sorted(marked) == sorted(d["tile"] for d in server["discards"])
    after_east = next(d for d in server["discards"] if d["tile"] == "E")
    hint = page.locator(".my-area .hint.tenpai")
    hint.wait_for()
    assert words(hint.inner_text()) == f"打出后听 东: {waits_text(view, after_east)}"
    # after the discard: the waits and how many of each are live, as the hall counts them
    east.click()
    page.wait_for_function("window.baidaTable.state.view.players[0].discards.length === 1")
    page.wait_for_function("document.querySelector('.my-area .hint.tenpai strong')"
                           " && document.querySelector('.my-area .hint.tenpai strong')"
                           ".textContent.startsWith('听牌')")
    view = web.hall.call(lambda: actor.driver.round.view(0).to_json())
    server = post_json(web.hall.base + "/api/waits", waits_request(view))
    assert {"8m", "9m"} <= set(server["waits"])
    assert words(hint.inner_text()) == f"听牌: {waits_text(view, server)}"
    faces = hint.locator(".tile").evaluate_all("els => els.map(e => e.dataset.face)")
    assert faces == server["waits"]
    assert "8万 剩2张" in hint.inner_text()
    shot(page, f"tenpai-zh-{DESKTOP['width']}")
