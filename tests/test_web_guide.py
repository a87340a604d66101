"""The game teaches itself, in a real browser: the 玩法 page of each ruleset from the lobby and
as a panel at the table (the hand goes on underneath), listing every item the scorers can
award in Chinese and in English; the pattern hint of a Jiaxing table against the hall's own
answer as the hand changes; and the guided first hand, offered once, skippable at every step,
never in the way of play."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_web_table import post_json, table_actor, waits_request
from web_support import (
    DESKTOP,
    FAST,
    PHONE,
    Scenario,
    Web,
    enter_as_guest,
    install_scenario,
    mo_qie,
    quick_play,
    scripted_wall,
    shot,
    wait_prompt,
)

from baida.rulebook import rules_page
from baida.rulesets import ruleset as _ruleset

pytest_plugins = ["web_fixtures"]

SLOW_BOTS = {**FAST, "bot_turn": 4.0}
# I am the dealer: 111 234 567 88 99m and E (清一色 one tile away once E goes)
JIAXING_HAND = dict(
    hands=["111234567m88m99m", "123456789p1234s", "123456789p5678s", "123456789sSSWW"],
    indicator="N", extra="E", draws="1p2p3p",
)
ITEMS = """() => [...document.querySelectorAll('%s tr[data-item]')].map(tr => ({
  id: tr.dataset.item, name: tr.querySelector('.item-name').firstChild.textContent,
  value: tr.querySelector('.item-value').textContent}))"""


def catalogue_names(ruleset: str, lang: str) -> dict[str, str]:
    """Every item of the rule book by id, with its name in ``lang``."""
    page = rules_page(ruleset)
    return {i["id"]: i["name"][lang] for g in page["items"] for i in g["items"]}


def listed(page: Any, where: str) -> dict[str, str]:
    return {row["id"]: row["name"] for row in page.evaluate(ITEMS % where)}


def jiaxing_table(web: Web, monkeypatch: pytest.MonkeyPatch, viewport: dict[str, int] = DESKTOP,
                  timing: dict[str, Any] = SLOW_BOTS) -> Any:
    wall = scripted_wall("jiaxing", **JIAXING_HAND)
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 1, "timing": timing}, wall=wall, policy=mo_qie))
    page = web.page(viewport)
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    return page


def set_lang(page: Any, lang: str) -> None:
    if page.evaluate("document.documentElement.lang").startswith(lang):
        return
    page.locator("#lang-toggle").click()
    page.wait_for_function("lang => document.documentElement.lang.startsWith(lang)", arg=lang)


# ------------------------------------------------------------------ the words

JS = Path(__file__).resolve().parents[1] / "baida" / "web" / "js"


def test_every_word_the_guide_and_the_rules_page_use_is_in_both_languages() -> None:
    strings = dict(
        (key, (zh, en)) for key, zh, en in re.findall(
            r'"([\w.]+)":\s*\["((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"\]',
            (JS / "guide-i18n.js").read_text(encoding="utf-8")))
    assert all(zh and en for zh, en in strings.values())
    used: set[str] = set()
    for name in ("guide.js", "rules-page.js", "pattern-hint.js"):
        text = (JS / name).read_text(encoding="utf-8")
        used |= set(re.findall(r'gt\("([\w.]+)"', text))
        for prefix, suffix in re.findall(r'gt\(`([\w.]+)\$\{[^}]+\}([\w.]*)`', text):
            if prefix == "guide.":
                steps = re.findall(r'\{ id: "(\w+)"', (JS / "guide.js").read_text(encoding="utf-8"))
                used |= {f"guide.{step}.title" for step in steps}
                used |= {f"guide.{step}.text" for step in steps if step not in ("discard", "claim")}
            else:
                used |= {f"{prefix}{ruleset}{suffix}" for ruleset in ("jiaxing", "wenling")}
    missing = sorted(used - set(strings))
    assert not missing, f"words used but not in guide-i18n.js: {missing}"
    assert len(used) > 40


# ------------------------------------------------------------------ the 玩法 page


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_rules_page_from_the_lobby_lists_every_item_in_both_languages(
    web: Web, viewport: dict[str, int]
) -> None:
    page = web.page(viewport)
    page.goto(web.hall.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.locator(".card.learn [data-rules='jiaxing']").click()
    page.wait_for_selector(".rules-book[data-ruleset='jiaxing'] tr[data-item]")
    assert page.evaluate("location.hash") == "#/rules/jiaxing"
    for ruleset in ("jiaxing", "wenling"):
        if ruleset == "wenling":
            page.locator(".rules-tabs [data-rules='wenling']").click()
            page.wait_for_selector(".rules-book[data-ruleset='wenling'] tr[data-item]")
        for lang in ("zh", "en"):
            set_lang(page, lang)
            page.wait_for_selector(f".rules-book[data-ruleset='{ruleset}'] tr[data-item]")
            shown = listed(page, ".rules-book")
            assert shown == catalogue_names(ruleset, lang), (ruleset, lang)
            if lang == "zh":  # every name the scorer can write, straight from its item tables
                scorer = [n for names in _ruleset(ruleset).awardable().values() for n in names]
                assert sorted(shown.values()) == sorted(scorer)
            sections = page.locator(".rules-section h2").all_inner_texts()
            expected = [s["title"][lang] for s in rules_page(ruleset)["sections"]]
            assert sections == expected
            # the examples are drawn as the table draws tiles
            assert page.locator(".rules-hand .tile svg use").count() > 20
            shot(page, f"rules-{ruleset}-{lang}-{viewport['width']}")
        set_lang(page, "zh")
    # no horizontal scrolling on a phone
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    # the contents scroll to a section without changing the address
    page.locator(".rules-contents button").nth(4).click()
    assert page.evaluate("location.hash") == "#/rules/wenling"


def test_the_rules_panel_opens_at_the_table_without_leaving_the_hand(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = jiaxing_table(web, monkeypatch, timing={**SLOW_BOTS, "bot_turn": 0.3})
    prompt = wait_prompt(page)
    assert prompt["kind"] == "turn"
    address = page.evaluate("location.hash")
    hand_id = page.evaluate("window.baidaTable.state.handId")
    page.locator("#topbar [data-act='rules']").click()
    panel = page.locator(".rules-panel")
    panel.locator("tr[data-item]").first.wait_for()
    assert panel.get_by_text("按本桌的规则选项").count() == 1
    assert listed(page, ".rules-panel") == catalogue_names("jiaxing", "zh")
    # the table is still there, the hand going on, and the panel says a move is waiting
    assert page.evaluate("location.hash") == address
    assert page.evaluate("window.baidaTable.state.handId") == hand_id
    assert page.locator(".hand .tile-btn").count() == 14
    panel.locator(".rules-panel-notice .banner").wait_for()
    shot(page, f"rules-panel-zh-{DESKTOP['width']}")
    # the other ruleset (with its defaults), and English
    panel.locator("[data-rules='wenling']").click()
    page.wait_for_selector(".rules-panel .rules-book[data-ruleset='wenling']")
    assert panel.get_by_text("默认规则选项").count() == 1
    set_lang(page, "en")
    page.wait_for_selector(".rules-panel .rules-book[data-ruleset='wenling'] tr[data-item]")
    assert listed(page, ".rules-panel") == catalogue_names("wenling", "en")
    panel.locator("[data-rules='jiaxing']").click()
    page.wait_for_selector(".rules-panel .rules-book[data-ruleset='jiaxing'] tr[data-item]")
    assert listed(page, ".rules-panel") == catalogue_names("jiaxing", "en")
    assert "your move" in panel.locator(".rules-panel-notice").inner_text()
    shot(page, f"rules-panel-en-{DESKTOP['width']}")
    # Escape (or the button) closes it; the turn is still ours to play
    page.keyboard.press("Escape")
    assert page.locator(".rules-panel").count() == 0
    assert page.evaluate("(p => Boolean(p && !p.answered))(window.baidaTable.state.prompt)")
    page.locator(".hand .tile-btn.can").last.click()
    page.wait_for_function("window.baidaTable.state.view.players[0].discards.length === 1")
    assert page.evaluate("window.baidaTable.state.handId") == hand_id


def test_the_rules_panel_at_phone_size_follows_the_tables_options(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = scripted_wall("jiaxing", **JIAXING_HAND)
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 1, "timing": SLOW_BOTS, "options": {"allow_chi": False}},
        wall=wall, policy=mo_qie))
    page = web.page(PHONE)
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    page.locator("#topbar [data-act='rules']").click()
    panel = page.locator(".rules-panel")
    panel.locator("tr[data-item]").first.wait_for()
    box = panel.bounding_box()
    assert box["width"] <= PHONE["width"] and box["height"] <= PHONE["height"] + 1
    assert panel.get_by_text("本桌不能吃。").count() == 1
    shot(page, f"rules-panel-zh-{PHONE['width']}")
    panel.locator("[data-act='close-rules']").click()
    assert page.locator(".rules-panel").count() == 0
    assert page.locator(".hand .tile-btn").count() == 14


# ------------------------------------------------------------------ the pattern hint


def hint_distances(page: Any) -> dict[str, str]:
    return page.locator(".pattern-hint .pattern").evaluate_all(
        "els => Object.fromEntries(els.map(e => [e.dataset.pattern, e.dataset.distance]))")


def server_distances(web: Web, page: Any) -> dict[str, str]:
    actor = table_actor(web, page)
    view = web.hall.call(lambda: actor.driver.round.view(0).to_json())
    answer = post_json(web.hall.base + "/api/waits", waits_request(view))
    return {p["pattern"]: "" if p["distance"] is None else str(p["distance"])
            for p in answer["patterns"]}


def test_the_pattern_hint_shows_and_follows_the_hand(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = jiaxing_table(web, monkeypatch)
    assert wait_prompt(page)["kind"] == "turn"
    hint = page.locator(".my-area .pattern-hint")
    hint.wait_for()
    expected = server_distances(web, page)
    page.wait_for_function("want => [...document.querySelectorAll('.pattern-hint .pattern')]"
                           ".map(e => e.dataset.distance).join() === want",
                           arg=",".join(expected.values()))
    assert hint_distances(page) == expected
    # 14 tiles, one 万 short of a 清一色 ready hand: 1 tile from it, the nearest
    assert expected["qingyise"] == "1"
    assert words(hint.inner_text()).startswith("牌型 清一色 1张")
    assert hint.locator(".pattern.near").count() >= 1
    shot(page, f"pattern-hint-zh-{DESKTOP['width']}")
    # discard the East wind: the hint follows the hand (now 13 tiles: still 1 from 清一色)
    page.locator(".hand .tile-btn.can[data-face='E']").click()
    page.wait_for_function("window.baidaTable.state.view.players[0].discards.length === 1")
    expected = server_distances(web, page)
    page.wait_for_function("want => [...document.querySelectorAll('.pattern-hint .pattern')]"
                           ".map(e => e.dataset.distance).join() === want",
                           arg=",".join(expected.values()))
    set_lang(page, "en")
    page.wait_for_function("(el => el && el.innerText.includes('Full flush'))"
                           "(document.querySelector('.pattern-hint'))")
    shot(page, f"pattern-hint-en-{DESKTOP['width']}")


def words(text: str) -> str:
    return " ".join(text.split())


def test_the_pattern_hint_fits_a_phone_and_a_wenling_table_has_none(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = jiaxing_table(web, monkeypatch, PHONE)
    hint = page.locator(".my-area .pattern-hint")
    hint.wait_for()
    box = hint.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["height"] <= 48  # one line, two at most
    shot(page, f"pattern-hint-zh-{PHONE['width']}")
    install_scenario(web.hall, monkeypatch, Scenario(config={"hands": 1, "timing": SLOW_BOTS},
                                                     policy=mo_qie))
    page.goto(web.hall.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    quick_play(page, "wenling")
    page.wait_for_function("window.baidaTable.state.waits.size > 0"
                           " && [...window.baidaTable.state.waits.values()].some(v => v)")
    assert page.locator(".pattern-hint").count() == 0


# ------------------------------------------------------------------ the guided first hand


def guide_state(page: Any) -> Any:
    return page.evaluate("JSON.parse(localStorage.getItem('baida.guide'))")


def lobby_of_first_visit(web: Web, monkeypatch: pytest.MonkeyPatch,
                         viewport: dict[str, int] = DESKTOP) -> Any:
    """The lobby of a browser new to the hall, the guide's practice hand scripted."""
    wall = scripted_wall("jiaxing", **JIAXING_HAND)
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 1, "timing": SLOW_BOTS}, wall=wall, policy=mo_qie))
    page = web.page(viewport)
    page.goto(web.hall.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    return page


def bubble_step(page: Any, step: str) -> Any:
    bubble = page.locator(f".guide-bubble[data-step='{step}']")
    bubble.wait_for(state="visible")
    return bubble


def clear_of_own_area(page: Any) -> None:
    """The bubble lies inside the screen and above the own hand and its buttons (once it has
    followed the own area's last change of size: the next frame after it)."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            "() => { const b = document.querySelector('.guide-bubble').getBoundingClientRect();"
            " const m = document.querySelector('.my-area').getBoundingClientRect();"
            " return b.bottom <= m.top + 1; }", timeout=2000)
    box = page.locator(".guide-bubble").bounding_box()
    mine = page.locator(".my-area").bounding_box()
    viewport = page.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= mine["y"] + 1, (box, mine)
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_first_time_visitor_is_guided_through_the_first_hand_once(
    web: Web, monkeypatch: pytest.MonkeyPatch, viewport: dict[str, int]
) -> None:
    page = lobby_of_first_visit(web, monkeypatch, viewport)
    offer = page.locator(".guide-offer")
    offer.wait_for()
    shot(page, f"guide-offer-zh-{viewport['width']}")
    # one click: a guest, a practice table for points against three bots, the first hand
    offer.locator("[data-act='guide-start'][data-ruleset='jiaxing']").click()
    page.wait_for_selector(".hand .tile-btn", timeout=30000)
    table = page.evaluate("window.baidaTable.state.table")
    assert table["stakes"] == "points" and table["ruleset"] == "jiaxing"
    assert all(s["kind"] == "bot" for s in table["seats"] if s["user"] is None)
    assert web.hall.quick_plays[-1] == ("jiaxing", True)  # the practice table (long clocks)
    bubble = bubble_step(page, "hand")
    page.locator(".hand.guide-focus").wait_for()  # (a redrawn hand is marked at the next frame)
    clear_of_own_area(page)
    shot(page, f"guide-hand-zh-{viewport['width']}")
    bubble.locator("[data-act='guide-next']").click()
    bubble_step(page, "pattern")
    page.locator("[data-act='guide-next']").click()
    bubble = bubble_step(page, "hint")
    page.locator(".pattern-hint.guide-focus").wait_for()
    clear_of_own_area(page)
    shot(page, f"guide-hint-zh-{viewport['width']}")
    page.locator("[data-act='guide-next']").click()
    bubble = bubble_step(page, "discard")
    assert "点击" in bubble.inner_text()
    # the guide is in nobody's way: the turn is played with the bubble up, and that is the lesson
    assert wait_prompt(page)["kind"] == "turn"
    page.locator(".hand .tile-btn.can[data-face='E']").click()
    bubble = bubble_step(page, "claim")
    assert "6 秒" in bubble.inner_text()  # the table's own claim window
    page.locator(".actions.guide-focus").wait_for()
    page.locator("[data-act='guide-next']").click()
    bubble_step(page, "zimo")
    page.locator("[data-act='guide-next']").click()
    bubble = bubble_step(page, "end")
    shot(page, f"guide-end-zh-{viewport['width']}")
    bubble.locator("[data-act='guide-finish']").click()
    assert page.locator(".guide-bubble").count() == 0
    assert guide_state(page) == {"status": "done"}
    # never again: not after a reload, not in the lobby
    page.reload()
    page.wait_for_selector(".hand .tile-btn", timeout=30000)
    page.wait_for_timeout(300)  # the guide would show at the next frame
    assert page.locator(".guide-bubble").count() == 0
    page.goto(web.hall.base + "/")
    page.wait_for_selector(".card.learn")
    assert page.locator(".guide-offer").count() == 0


# The Wenling guide's steps, with what each outlines (none for the scoring).
WENLING_STEPS = [("hand16", ".hand"), ("de", ".compass .wilds"), ("specials", ".my-seat-slot"),
                 ("winany", ".hand"), ("discard", ".hand"), ("claim", ".actions"),
                 ("points", None), ("sheng", ".compass .wall-count"), ("end", ".rules-button")]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_wenling_first_hand_is_guided_through_wenlings_own_rules(
    web: Web, monkeypatch: pytest.MonkeyPatch, viewport: dict[str, int]
) -> None:
    """The offer names both games; Wenling's guide teaches what Jiaxing's does not: 16 tiles,
    得, flowers, winning on a discard, the scoring, the 生牌 stage (and no pattern hint)."""
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 1, "timing": SLOW_BOTS}, seed=(5).to_bytes(32, "big"), policy=mo_qie))
    page = web.page(viewport)
    page.goto(web.hall.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    lang = "en" if viewport is PHONE else "zh"
    set_lang(page, lang)
    offer = page.locator(".guide-offer")
    assert [b.get_attribute("data-ruleset") for b in offer.locator(
        "[data-act='guide-start']").all()] == ["jiaxing", "wenling"]
    shot(page, f"guide-offer-{lang}-{viewport['width']}")
    offer.locator("[data-act='guide-start'][data-ruleset='wenling']").click()
    page.wait_for_selector(".hand .tile-btn", timeout=30000)
    table = page.evaluate("window.baidaTable.state.table")
    assert table["stakes"] == "points" and table["ruleset"] == "wenling"
    words = {"zh": ("16张", "得", "花牌", "别人打出的牌", "500", "包三家"),
             "en": ("16 tiles", "得", "Flowers", "anyone's discard", "500", "包三家")}[lang]
    said = []
    for i, (step, focus) in enumerate(WENLING_STEPS, start=1):
        bubble = bubble_step(page, step)
        if focus:
            page.locator(f"{focus}.guide-focus").wait_for()
        clear_of_own_area(page)
        assert bubble.locator(".guide-count").inner_text() == f"{i}/{len(WENLING_STEPS)}"
        said.append(bubble.inner_text())
        if step in ("de", "sheng"):
            shot(page, f"guide-wenling-{step}-{lang}-{viewport['width']}")
        if step == "discard":  # played with the bubble up: that is the lesson, and it moves on
            assert wait_prompt(page)["kind"] == "turn"
            face = page.evaluate("""() => { const s = window.baidaTable.state;
              return [...document.querySelectorAll('.hand .tile-btn.can')].map(b => b.dataset.face)
                .find(f => !s.view.wilds.includes(f)); }""")
            page.locator(f".hand .tile-btn.can[data-face='{face}']").first.click()
            continue
        act = "guide-finish" if step == "end" else "guide-next"
        bubble.locator(f"[data-act='{act}']").click()
    assert page.locator(".guide-bubble").count() == 0
    assert guide_state(page) == {"status": "done"}
    assert page.locator(".pattern-hint").count() == 0
    text = "\n".join(said)
    assert all(w in text for w in words), (words, text)
    # the 玩法 page's Wenling tab starts the Wenling guide again, at a new practice table
    page.goto(web.hall.base + "/#/rules/wenling")
    page.locator(".rules-page [data-act='guide-again']").click()
    bubble_step(page, "hand16")
    assert page.evaluate("window.baidaTable.state.table.ruleset") == "wenling"
    assert page.evaluate("window.baidaTable.state.table.id") != table["id"]


def test_the_guide_can_be_skipped_declined_and_started_again_from_the_rules_page(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = lobby_of_first_visit(web, monkeypatch)
    set_lang(page, "en")
    page.locator(".guide-offer [data-act='guide-start'][data-ruleset='jiaxing']").click()
    bubble = bubble_step(page, "hand")
    assert "Your hand" in bubble.inner_text()
    bubble.locator("[data-act='guide-next']").click()
    bubble = bubble_step(page, "pattern")
    bubble.locator("[data-act='guide-skip']").click()
    assert page.locator(".guide-bubble").count() == 0
    assert guide_state(page) == {"status": "skipped"}
    page.reload()
    page.wait_for_selector(".hand .tile-btn", timeout=30000)
    page.wait_for_timeout(300)
    assert page.locator(".guide-bubble").count() == 0
    # the 玩法 page starts it again, at a new practice table
    page.goto(web.hall.base + "/#/rules/jiaxing")
    page.locator(".rules-page [data-act='guide-again']").click()
    bubble_step(page, "hand")
    assert guide_state(page)["status"] == "running"
    # and at a table, from the panel: the guide starts over there
    page.locator("[data-act='guide-next']").click()
    bubble_step(page, "pattern")
    page.locator("#topbar [data-act='rules']").click()
    page.locator(".rules-panel [data-act='guide-again']").click()
    assert page.locator(".rules-panel").count() == 0
    bubble_step(page, "hand")
    # another visitor declines the offer: it is not made again
    other = web.page()
    other.goto(web.hall.base + "/")
    other.locator(".guide-offer [data-act='guide-decline']").click()
    assert other.locator(".guide-offer").count() == 0
    other.reload()
    other.wait_for_selector(".card.learn")
    assert other.locator(".guide-offer").count() == 0
    assert guide_state(other) == {"status": "declined"}


def test_the_discard_lesson_moves_on_when_the_ack_comes_before_the_next_frame(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy machine draws late: the hall's ack (which clears the answered prompt) may arrive
    before the guide's next frame, and the answer still counts."""
    page = lobby_of_first_visit(web, monkeypatch)
    page.locator(".guide-offer [data-act='guide-start'][data-ruleset='jiaxing']").click()
    for step in ("hand", "pattern", "hint"):
        bubble_step(page, step).locator("[data-act='guide-next']").click()
    bubble_step(page, "discard")
    assert wait_prompt(page)["kind"] == "turn"
    # frames held back 1.5 s from here: the ack comes in long before the guide's next look
    page.evaluate("""() => {
      const later = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (f) => setTimeout(() => later(f), 1500);
    }""")
    page.locator(".hand .tile-btn.can[data-face='E']").click()
    page.wait_for_function("() => window.baidaTable.state.prompt === null", timeout=5000)
    assert page.locator(".guide-bubble[data-step='discard']").count() == 1  # not drawn yet
    bubble_step(page, "claim")
    assert guide_state(page)["step"] == 4


def test_on_a_phone_held_sideways_the_bubble_leaves_the_middle_in_view(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 844×390 the centred bubble covered the middle box, the indicator and the 百搭 the
    first step speaks of."""
    landscape = {"width": 844, "height": 390}
    page = lobby_of_first_visit(web, monkeypatch, landscape)
    page.locator(".guide-offer [data-act='guide-start'][data-ruleset='jiaxing']").click()
    page.wait_for_selector(".hand .tile-btn", timeout=30000)
    for step in ("hand", "pattern"):
        bubble = bubble_step(page, step)
        clear_of_own_area(page)
        b = bubble.bounding_box()
        c = page.locator(".center .compass").bounding_box()
        assert b["x"] + b["width"] <= c["x"] or b["y"] + b["height"] <= c["y"], (step, b, c)
        shot(page, f"guide-{step}-zh-844x390")
        bubble.locator("[data-act='guide-next']").click()
