"""The browser client in a real browser (Debian's Chromium through Playwright) against a real
hall: whole hands against bots in both rulesets, the claim buttons and their countdown, the 吃
choice, the 三摊 warning and dialog, the win guard, the settlement with its items and the
Wenling non-winners', the seed's verification, the replay, reload and dropped connections,
spectating by room code, Chinese and English, phone and desktop sizes, no console errors.
Screenshots go to tests/artifacts/web/."""

from __future__ import annotations

import json
import re
import struct
import time
from pathlib import Path
from typing import Any

import pytest
from test_web_layout import PAST_THE_RIGHT
from web_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    LIT_SIDE,
    PHONE,
    SANTAN,
    TOPBAR,
    LiveHall,
    Scenario,
    Web,
    answered,
    enter_as_guest,
    hand_faces,
    install_scenario,
    mo_qie,
    play_until_settlement,
    quick_play,
    santan_policy,
    script_hand,
    scripted_wall,
    settlement_drawn,
    shot,
    wait_prompt,
)

from baida.bots.review import review_record
from baida.engine import Round
from baida.engine.records import read_record

pytest_plugins = ["web_fixtures"]


NEXT_HAND = "(s => s.view && s.view.phase !== 'ended')(window.baidaTable.state)"
NONWINNERS_LOADED = """() => {
  const cells = [...document.querySelectorAll('.st-nonwinner')];
  return cells.length === 4 && !cells.some(e => e.textContent === '…');
}"""
ENGLISH_TILE = (r"Characters|Dots|Bamboo|wind|dragon|Spring|Summer|Autumn|Winter|Plum|Orchid|"
                r"Chrysanthemum")


def table_actor(hall: LiveHall, page: Any) -> Any:
    table_id = page.evaluate("window.baidaTable.state.table.id")
    return hall.runtime.hall.get(table_id)


# ------------------------------------------------------------------ whole hands


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_a_whole_hand_against_three_bots(web: Web, ruleset: str) -> None:
    page = web.page()
    enter_as_guest(page, web.hall.base)
    page.wait_for_selector(".table-row")
    shot(page, f"lobby-{ruleset}-zh-{DESKTOP['width']}")
    assert page.locator(".table-row .badge-jiaxing").count() >= 1  # rule badges
    assert page.locator(".table-row .badge-no_chi").count() >= 1
    quick_play(page, ruleset)
    wild = page.locator(".hand .tile-btn.wild:not(.drawn)")
    if wild.count():  # wilds leftmost (the tile just drawn apart) and labelled as wilds
        assert page.locator(".hand .tile-btn").first.get_attribute("class").count("wild")
        assert re.search(r"\((百搭|得)\)$", wild.first.get_attribute("aria-label"))
    turns = play_until_settlement(page)
    assert turns >= 1
    settlement = page.locator(".modal.settlement")
    settlement.locator(".st-table tbody tr").nth(3).wait_for()
    assert settlement.locator(".st-table tbody tr").count() == 4
    if settlement.locator(".st-formula").count():
        # the arithmetic, or a 满贯 hand (腊子, 四风会齐) by its limit
        formula = settlement.locator(".st-formula").inner_text()
        assert "=" in formula or formula == "满贯 500", formula
    page.wait_for_selector(".modal.settlement .st-links")  # stored: verification and replay
    shot(page, f"settlement-{ruleset}-zh-{DESKTOP['width']}")
    # the revealed seed, verified in one click; the answer stays when a Wenling win's
    # non-winners' items redraw the settlement afterwards
    settlement.locator("[data-act='verify']").click()
    settlement_drawn(page)
    page.wait_for_selector(".st-verify-result.ok")
    page.set_viewport_size(PHONE)
    shot(page, f"settlement-{ruleset}-zh-{PHONE['width']}")
    page.locator(".modal.settlement [data-act='continue-hand']").click()
    assert page.locator(".modal.settlement").count() == 0
    page.wait_for_function(NEXT_HAND, timeout=30000)  # the next hand is dealt
    page.wait_for_selector(".hand .tile-btn")
    shot(page, f"table-{ruleset}-zh-{PHONE['width']}")


# ------------------------------------------------------------------ a past hand, replayed


def claimer(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A bot that wins, then claims whatever it may (碰, 明杠, 吃), keeps on at 三摊, and
    otherwise throws the tile it drew: hands full of claims, deterministic."""
    for kind in ("win", "pon", "mkong", "chi", "continue"):
        for action in legal:
            if action["type"] == kind:
                return action
    return mo_qie(view, legal)


REPLAY_VIEWS = """async (handId) => {
  const { replayViews } = await import('/static/js/replay.js');
  const review = await (await fetch(`/api/hands/${handId}/replay`)).json();
  return { n: review.events.length, views: replayViews(review).map((s) => s.view) };
}"""
NARROWEST = {"width": 320, "height": 568}
REPLAY_KEYS = ("wall_remaining", "santan_pairs", "claim_counts", "last_discard")
REPLAY_PLAYER_KEYS = ("melds", "discards", "claimed", "flowers", "gave_up")


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_a_past_hand_full_of_claims_is_replayed_step_by_step_from_my_page(
    web: Web, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 1}, seed=(7).to_bytes(32, "big"), policy=claimer))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, ruleset)
    play_until_settlement(page, timeout=180)
    page.locator(".modal.settlement .st-links").wait_for(timeout=20000)  # stored
    # from the player's own page, the hand's replay
    page.goto(web.hall.base + "/#/me")
    row = page.locator(".hands-table tbody tr[data-hand]").first
    row.wait_for()
    hand_id = int(row.get_attribute("data-hand"))
    row.locator("a").first.click()
    page.wait_for_selector(".replay-controls")
    # the table right under the controls, the own seat at its foot in the first screen (the
    # bot's review follows it), on a desktop and on a phone
    for size in (DESKTOP, PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_function("() => { const b = document.querySelector('.replay-board');"
                               " return b && b.getBoundingClientRect().bottom <= innerHeight; }")
        assert page.evaluate("document.querySelector('.replay-board').compareDocumentPosition("
                             "document.querySelector('.card.rv')) & 4")  # FOLLOWING
    # a phone held sideways: the page scrolls to the table, which lies whole under the step
    # buttons (they stay at hand, sticky), the own seat in view; a tap on "next" steps with the
    # table still in view
    page.set_viewport_size({"width": 844, "height": 390})
    page.wait_for_function("document.querySelector('.replay-board .seat-bottom')"
                           ".getBoundingClientRect().bottom <= innerHeight")
    before = page.locator(".replay-pos").inner_text()
    page.locator(".replay-controls [data-step='next']").click()
    page.wait_for_function("t => document.querySelector('.replay-pos').innerText !== t", arg=before)
    placed = page.evaluate("""() => {
        const [c, b] = ['.replay-controls', '.replay-board']
          .map(s => document.querySelector(s).getBoundingClientRect());
        return [c.top, c.bottom, b.top, b.bottom, innerHeight]; }""")
    controls_top, controls_bottom, board_top, board_bottom, height = placed
    assert controls_top >= 0 and board_top >= controls_bottom - 1, placed
    assert board_bottom <= height + 1, placed
    shot(page, "replay-zh-844x390")
    page.locator(".replay-controls [data-step='first']").click()
    page.evaluate("scrollTo(0, 0)")
    page.set_viewport_size(DESKTOP)
    # the page's steps are the engine's hand: after each action of the stored record, every
    # seat's melds, discards, flowers and the table's counts as the engine shows them
    record = page.evaluate("id => fetch(`/api/hands/${id}/record`).then(r => r.json())", hand_id)
    rnd, actions, _ = read_record(record)
    checkpoints = []
    for action in actions:
        rnd.apply(action)
        checkpoints.append((len(rnd.events), rnd.view(0).to_json()))
    types = {e.type for e in rnd.events}
    assert {"chi", "pon"} & types and len(actions) >= 20, (sorted(types), len(actions))
    replayed = page.evaluate(REPLAY_VIEWS, hand_id)
    assert replayed["n"] == len(rnd.events)
    for after, want in checkpoints:
        mine = replayed["views"][after - 2]  # step i shows the events 0..i+1
        for key in REPLAY_KEYS:
            assert mine[key] == want[key], (after, key)
        for seat in range(4):
            for key in REPLAY_PLAYER_KEYS:
                assert mine["players"][seat][key] == want["players"][seat][key], (after, seat, key)
    # every step by the keyboard, the position told each time; Space plays and pauses. At
    # each step the compass is lit toward the pond of the seat whose card is framed, every
    # side in its turn
    steps = len(rnd.events) - 1
    position = page.locator(".replay-pos")
    lit = set()
    for i in range(2, steps + 1):
        page.keyboard.press("ArrowRight")
        assert position.inner_text().startswith(f"第 {i}/{steps} 步"), (i, position.inner_text())
        side, unlit = page.evaluate(LIT_SIDE)
        assert unlit is None, (i, unlit)
        lit.add(side)
    assert lit >= {"top", "left", "right", "bottom"}, lit
    page.wait_for_selector(".replay-screen .settlement")
    page.keyboard.press("Home")
    assert position.inner_text().startswith(f"第 1/{steps} 步")
    page.keyboard.press(" ")
    page.wait_for_function("() => !document.querySelector('.replay-pos').textContent"
                           ".startsWith('第 1/')")
    page.keyboard.press(" ")
    shot(page, f"replay-claims-{ruleset}-zh-{DESKTOP['width']}")
    _check_the_bots_review(page, hand_id, record, steps)
    # the narrowest phone: neither the replay with its review nor my page's list of hands
    # scrolls sideways
    page.set_viewport_size(NARROWEST)
    for lang in ("zh", "en"):
        wide, past = page.evaluate(PAST_THE_RIGHT)
        assert wide <= NARROWEST["width"] and not past, ("replay", lang, wide, past)
        shot(page, f"replay-review-{ruleset}-{lang}-320")
        page.goto(web.hall.base + "/#/me")
        page.locator(".hands-table tbody tr[data-hand]").first.wait_for()
        shot(page, f"me-{ruleset}-{lang}-320")
        wide, past = page.evaluate(PAST_THE_RIGHT)
        assert wide <= NARROWEST["width"] and not past, ("my page", lang, wide, past)
        if lang == "zh":
            page.locator("#lang-toggle").click()
            page.goto(web.hall.base + f"/#/hand/{hand_id}")
            page.wait_for_selector(".rv-summary")


REVIEW_OF = "id => fetch(`/api/hands/${id}/review`).then(r => r.json())"


def _check_the_bots_review(page: Any, hand_id: int, record: dict[str, Any], steps: int) -> None:
    """Beside the replay, the bot's review of the player's own choices (``baida review`` of
    the record for that seat): a summary, each choice at its step, the costliest a click away."""
    got = page.evaluate(REVIEW_OF, hand_id)
    want = review_record(record, seats={got["seat"]})
    assert got["decisions"] == want["decisions"] and want["decisions"]
    page.wait_for_selector(".rv-summary")
    n, best = len(want["decisions"]), sum(d["best"] for d in want["decisions"])
    assert f"你做了 {n} 个选择，{best} 个是机器人的首选" in page.locator(".rv-summary").inner_text()
    costly = [d for d in want["decisions"] if d["cost"] >= 0.005]
    assert costly, "throwing the tile just drawn is not always the bot's first choice"
    worst = min(costly, key=lambda d: (-d["cost"], d["index"]))
    page.locator(".rv-jump").first.click()
    step = max(0, worst["event_index"] - 2)  # the table the choice was made at
    assert page.locator(".replay-pos").inner_text().startswith(f"第 {step + 1}/{steps} 步")
    here = page.locator(".rv-here li").first.inner_text()
    assert "你选了打出" in here and f"少得 {worst['cost']:.2f}" in here, here
    page.set_viewport_size(PHONE)
    shot(page, f"replay-review-{record['ruleset']}-zh-{PHONE['width']}")
    page.locator("#lang-toggle").click()  # in English too
    assert f"You made {n} choices, {best} of them" in page.locator(".rv-summary").inner_text()
    assert "the bot prefers" in page.locator(".rv-here li").first.inner_text()
    page.locator("#lang-toggle").click()
    page.set_viewport_size(DESKTOP)


# ------------------------------------------------------------------ scripted hands

TIANHU_JIAXING = dict(
    hands=["111234567888m9m", "12345678p12345s", "12345678p6789sE", "12345678p123sSW"],
    indicator="9p", extra="9m",
)
TIANHU_WENLING = dict(
    hands=["111234567888m123p9m", "456789p12346789sEE", "456789p12346789sCC",
           "456789p12346789sFF"],
    indicator="5s", extra="9m",
)


def _expected(ruleset: str, wall: list[int], dice: tuple[int, int]) -> dict[str, Any]:
    """The engine's own settlement of the dealer's 天和 on this wall."""
    rnd = Round.from_wall(ruleset, wall, dice)
    win = next(a for a in rnd.legal_actions(0) if a.type == "win")
    rnd.apply(win)
    assert rnd.result is not None
    return rnd.result.to_json()


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_the_win_guard_and_the_settlement_with_every_item(
    web: Web, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = TIANHU_JIAXING if ruleset == "jiaxing" else TIANHU_WENLING
    wall = scripted_wall(ruleset, spec["hands"], indicator=spec["indicator"], extra=spec["extra"])
    install_scenario(web.hall, monkeypatch, Scenario(config={"hands": 1}, wall=wall, policy=mo_qie))
    expected = _expected(ruleset, wall, (1, 2))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, ruleset)
    prompt = wait_prompt(page)
    assert "win" in prompt["types"]
    page.wait_for_selector(".actions.win-offer .btn-win")  # offered loudly
    before = hand_faces(page)
    # Enter on a tile does not throw the win away: it asks, and Enter again cancels
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.wait_for_selector(".modal.guard")
    page.keyboard.press("Enter")
    assert page.locator(".modal.guard").count() == 0
    page.locator(".hand .tile-btn").first.click()  # a click asks too
    page.wait_for_selector(".modal.guard")
    shot(page, f"guard-{ruleset}-zh-{DESKTOP['width']}")
    page.keyboard.press("Escape")
    # nothing was thrown, nothing moved (the dealer's extra tile stays apart as the tile just
    # drawn whether the page followed the deal event or took a snapshot)
    assert hand_faces(page) == before
    assert page.evaluate("window.baidaTable.state.prompt.answered") is None
    page.keyboard.press("w")
    settlement = page.locator(".modal.settlement")
    settlement.wait_for()
    score = expected["score"]
    text = settlement.inner_text()
    names = [i["name"] for i in score["tai"] + score["fan"] + (score["base_items"] or [])]
    assert names and all(name in text for name in names)
    formula = settlement.locator(".st-formula").inner_text()
    if ruleset == "jiaxing":
        tai, fan, points = score["tai_total"], score["fan_total"], score["points"]
        assert formula.startswith(f"底 1 × {tai}台 × 2^{fan}番 = {points}")
    else:
        he, fan, raw, points = (score[k] for k in ("base_points", "fan_total", "raw", "points"))
        assert formula.startswith(f"({he} + 20) × 2^{fan}番 = {raw} → {points}")
        # the non-winners' items come from the hall, and add up to their points
        page.wait_for_function(NONWINNERS_LOADED)
        cells = settlement.locator(".st-nonwinner").all_inner_texts()
        assert sum(1 for c in cells if "对子" in c) >= 2
    payments = settlement.locator(".st-table tbody tr td.num").all_inner_texts()
    assert str(expected["payments"][0]) in " ".join(payments).replace("+", "")
    settlement.locator(".st-links").wait_for()
    shot(page, f"settlement-tianhu-{ruleset}-zh-{DESKTOP['width']}")
    # English, switched on the settlement itself
    page.locator("#lang-toggle").click()
    english = settlement.inner_text()
    assert "Settlement" in english and ("Full flush" in english or ruleset == "wenling")
    assert "base 1 ×" in english or "(" in english
    shot(page, f"settlement-tianhu-{ruleset}-en-{DESKTOP['width']}")
    page.set_viewport_size(PHONE)
    shot(page, f"settlement-tianhu-{ruleset}-en-{PHONE['width']}")
    page.set_viewport_size(DESKTOP)
    page.locator("#lang-toggle").click()
    # the replay of the hand, step by step, ends on the same settlement
    settlement.locator("[data-act='replay']").click()
    page.wait_for_selector(".replay-controls")
    page.keyboard.press("ArrowRight")
    assert "2/" in page.locator(".replay-pos").inner_text()
    page.keyboard.press("End")
    page.wait_for_selector(".replay-screen .settlement")
    assert all(name in page.locator(".replay-screen .settlement").inner_text() for name in names)
    shot(page, f"replay-{ruleset}-zh-{DESKTOP['width']}")
    # the player's own page lists the hand
    page.goto(web.hall.base + "/#/me")
    page.wait_for_selector(".hands-table tbody tr[data-hand]")
    # the record (战绩) counts the one hand: won, and the best hand is it
    record = page.locator(f".record[data-ruleset='{ruleset}']")
    record.wait_for()
    figures = {key: record.locator(f"[data-stat='{key}'] .stat-value").inner_text()
               for key in ("hands", "wins", "points", "best")}
    won = f"+{expected['payments'][0]}"
    assert figures == {"hands": "1", "wins": "1", "points": won, "best": won}
    assert "100% · 自摸 1" in record.locator("[data-stat='wins']").inner_text()
    hand_id = page.locator(".hands-table tbody tr[data-hand]").first.get_attribute("data-hand")
    assert record.locator("[data-stat='best'] a").get_attribute("href") == f"#/hand/{hand_id}"
    shot(page, f"my-hands-{ruleset}-zh-{DESKTOP['width']}")
    # on a phone the row's button is one line (回放与复盘 broke in two at 360 px) and nothing
    # runs off the side
    for width, label in ((DESKTOP["width"], "回放与复盘"), (360, "回放")):
        page.set_viewport_size({"width": width, "height": 640})
        button = page.locator(".hands-table .btn-replay").first
        assert button.inner_text() == label and button.get_attribute("aria-label") == "回放与复盘"
        assert page.evaluate("""() => {
            const b = document.querySelector('.hands-table .btn-replay');
            const line = parseFloat(getComputedStyle(b).lineHeight) || 20;
            const root = document.scrollingElement;
            return b.getBoundingClientRect().height < 2 * line + 16
                && root.scrollWidth <= innerWidth;
        }"""), width
    shot(page, f"my-hands-{ruleset}-zh-360")
    page.set_viewport_size(DESKTOP)


def test_claim_buttons_countdown_and_the_chi_choice(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = scripted_wall("jiaxing", [
        "345567m147p147sE", "235689p235689sW", "235689p235689sW",
        "1289m2356p2356sN",
    ], draws="FP5m", indicator="C", extra="S")
    install_scenario(web.hall, monkeypatch, Scenario(config={"hands": 1}, wall=wall, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    first = wait_prompt(page)
    assert first["kind"] == "turn"
    page.locator(".hand .tile-btn.can").last.click()  # the dealer's extra S
    claim = wait_prompt(page)
    assert claim["kind"] == "claim" and {"pon", "chi", "pass"} <= set(claim["types"])
    bar = page.locator(".actions.asking")
    bar.wait_for()
    assert "你可以" in page.locator("#live, #live-alert").all_inner_texts()[0] + \
        page.locator("#live, #live-alert").all_inner_texts()[1]  # announced
    assert bar.locator("[data-act='p']").count() == 1 and bar.locator("[data-act='c']").count() == 1
    seconds = int(page.locator(".countdown").first.get_attribute("data-seconds"))
    assert 1 <= seconds <= 6
    page.wait_for_function("s => Number(document.querySelector('.countdown').dataset.seconds) < s",
                           arg=seconds, timeout=3000)
    shot(page, f"claim-zh-{DESKTOP['width']}")
    page.set_viewport_size(PHONE)
    shot(page, f"claim-zh-{PHONE['width']}")
    page.set_viewport_size(DESKTOP)
    page.keyboard.press("c")  # three ways to 吃: a choice
    choices = page.locator(".modal .btn-choice")
    choices.first.wait_for()
    assert choices.count() == 3
    choices.nth(1).click()  # 4m 6m with the 5m
    page.wait_for_selector(".seat-bottom .meld-chi")
    meld = page.locator(".seat-bottom .meld-chi")
    assert "上家" in meld.inner_text() and "四万 五万 六万" in meld.get_attribute("aria-label")
    assert page.locator(".pond[data-seat='3'] .tile.claimed").count() == 1
    turn = wait_prompt(page)
    assert turn["kind"] == "turn" and "chi" not in turn["types"]
    page.keyboard.press("Home")
    page.keyboard.press("Enter")  # discard the leftmost tile with the keyboard
    page.wait_for_function("window.baidaTable.state.view.players[0].discards.length === 2")


def test_the_santan_warning_and_dialog(web: Web, monkeypatch: pytest.MonkeyPatch) -> None:
    script_hand(web.hall, monkeypatch, "jiaxing", SANTAN, {"options": {"allow_chi": False}},
                santan_policy)
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    warned = False
    for _ in range(6):
        prompt = wait_prompt(page)
        if prompt["kind"] == "santan":
            break
        assert prompt["kind"] == "turn", prompt
        if page.locator(".banner-santan").count():
            warned = True
            assert "2 次" in page.locator(".banner-santan").inner_text()
            shot(page, f"santan-warning-zh-{DESKTOP['width']}")
            # in English, whose discards: "your", never "You's"
            page.locator("#lang-toggle").click()
            english = page.locator(".banner-santan").inner_text()
            assert "claimed" in english and "'s discards 2 times" in english, english
            whose = page.evaluate("""async () => {
                const m = await import('/static/js/i18n.js');
                return [m.possessive(0, 0), m.possessive(1, 0), m.possessive(3, 0)];
            }""")
            assert whose == ["your", "Right's", "Left's"]
            page.locator("#lang-toggle").click()
        page.keyboard.press("End")
        page.keyboard.press("Enter")  # 摸切
        answered(page, prompt["seq"])
    assert warned
    dialog = page.locator(".modal.santan")
    dialog.wait_for()
    assert "对家与下家" in dialog.inner_text() or "下家与对家" in dialog.inner_text()
    assert "不付分" in dialog.inner_text()
    shot(page, f"santan-zh-{DESKTOP['width']}")
    page.set_viewport_size(PHONE)
    shot(page, f"santan-zh-{PHONE['width']}")
    page.set_viewport_size(DESKTOP)
    dialog.locator("[data-act='give_up']").click()
    page.wait_for_selector(".seat-bottom .badge-gaveup")
    assert page.locator(".badge-chengbao").count() == 2  # 对家 and 下家, each with the other
    # 本盘承包情况一览, as the rule document shows it: the pair, then the others' choices,
    # the player who gave up struck through (here and at the seat)
    summary = page.locator(".board .chengbao-summary")
    summary.wait_for()
    assert summary.locator("h3").inner_text() == "本盘承包情况一览"
    assert summary.locator(".cb-pair").inner_text() == "下家与对家互为承包"
    mine = summary.locator(".cb-seat.gaveup[data-seat='0']")
    assert mine.locator("s").inner_text() == "你" and "放弃" in mine.inner_text()
    struck = "q => getComputedStyle(document.querySelector(q)).textDecorationLine"  # at once:
    # the board is redrawn with every event, so a located element may be gone when asked
    assert page.evaluate(struck, ".chengbao-summary .cb-seat.gaveup[data-seat='0'] s") == \
        "line-through"
    assert page.evaluate(struck, ".seat-bottom .seat-who") == "line-through"
    other = ".chengbao-summary .cb-seat[data-seat='3']"
    page.wait_for_function("q => (e => e && e.textContent.includes('坚持'))"
                           "(document.querySelector(q))", arg=other)
    assert summary.locator(".cb-seat").count() == 2  # 上家 and me: the pair is one line
    shot(page, f"santan-gave-up-zh-{DESKTOP['width']}")


# ------------------------------------------------------------------ reconnecting, watching


def _comparable(view: dict[str, Any]) -> dict[str, Any]:
    keep = ("concealed", "concealed_count", "melds", "discards", "claimed", "flowers", "gave_up")
    return {
        "players": [{k: p[k] for k in keep} for p in view["players"]],
        "wall": view["wall_remaining"], "wilds": view["wilds"], "pairs": view["santan_pairs"],
    }


# bots slow enough that the own turn is still open when the test looks
SLOW_BOTS = {"timing": {"pause": 0.12, "claim": 6.0, "turn": 30.0, "bank": 10.0, "santan": 30.0,
                        "bot_turn": 2.5, "bot_claim": 0.05, "between_hands": None}}


def test_a_reload_and_a_dropped_connection_resume_the_same_view(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_scenario(web.hall, monkeypatch, Scenario(config=SLOW_BOTS))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    prompt = wait_prompt(page)
    assert prompt["kind"] == "turn"
    before = hand_faces(page)
    page.reload()
    page.wait_for_selector(".hand .tile-btn")
    again = wait_prompt(page)
    assert again["kind"] == "turn" and hand_faces(page) == before
    actor = table_actor(web.hall, page)
    server = web.hall.call(lambda: actor.driver.round.view(0).to_json())
    client = page.evaluate("window.baidaTable.state.view")
    assert _comparable(client) == _comparable(server)
    # a dropped connection: the page reconnects by itself and carries on
    dropped = page.evaluate_handle("window.baidaTable.socket.ws")
    # a discard clicked in the moment the connection goes is not taken as sent: the prompt
    # stays open (the page says it is reconnecting), to be answered once it is back
    lost = page.evaluate("""() => {
        window.baidaTable.socket.drop();
        [...document.querySelectorAll('.hand .tile-btn.can')].at(-1).click();
        return window.baidaTable.state.prompt.answered;
    }""")
    assert not lost
    # the close comes later: until then the old connection still reads open, with its prompt
    page.wait_for_function("ws => (s => s.conn === 'open' && s.prompt)(window.baidaTable.state)"
                           " && window.baidaTable.socket.ws !== ws", arg=dropped)
    assert hand_faces(page) == before
    page.locator(".hand .tile-btn.can").last.click()
    page.wait_for_function("window.baidaTable.state.view.players[0].discards.length === 1")
    # someone else watches by the room code: no hand of theirs, no concealed tile of anyone
    code = page.evaluate("window.baidaTable.state.table.room_code")
    watcher = web.page(PHONE)
    enter_as_guest(watcher, web.hall.base)
    watcher.locator(".room-form input").fill(code.lower())
    watcher.locator(".room-form button").click()
    watcher.wait_for_selector(".board")
    assert watcher.locator(".badge-watch").count() == 1 and watcher.locator(".hand").count() == 0
    assert watcher.evaluate("window.baidaTable.state.view.players.every(p => p.concealed === null)")
    for width in (360, PHONE["width"]):  # the watcher's bar (with 观战中) is one row too
        watcher.set_viewport_size({"width": width, "height": PHONE["height"]})
        assert not watcher.evaluate(TOPBAR), width
    shot(watcher, f"spectator-zh-{PHONE['width']}")


class SilentNetwork:
    """The table's WebSocket through the test: ``silence()`` makes the connection open at that
    moment go silent (nothing passes either way, and nothing closes: a phone that changed
    networks); every connection opened later passes everything."""

    def __init__(self, page: Any) -> None:
        self.silenced: int | None = None  # the number of the silent connection, from 1
        self.opened_at: list[float] = []  # time.monotonic() of each connection
        page.route_web_socket(re.compile(r"/ws/tables/\d+$"), self._route)

    @property
    def connections(self) -> int:
        return len(self.opened_at)

    def silence(self) -> None:
        self.silenced = self.connections

    def _route(self, ws: Any) -> None:
        self.opened_at.append(time.monotonic())
        number = self.connections
        server = ws.connect_to_server()
        ws.on_message(lambda m: None if self.silenced == number else server.send(m))
        server.on_message(lambda m: None if self.silenced == number else ws.send(m))


def test_a_connection_gone_silent_is_given_up_and_the_page_carries_on(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_scenario(web.hall, monkeypatch, Scenario(config=SLOW_BOTS))
    page = web.page()
    page.add_init_script("window.baidaConfig = {heartbeatMs: 200, silenceMs: 3000}")
    network = SilentNetwork(page)
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    prompt = wait_prompt(page)
    assert prompt["kind"] == "turn"
    before = hand_faces(page)
    network.silence()  # no close, no error: only silence
    silent_since, silent = time.monotonic(), network.connections
    # the page's 'reconnecting' lasts only until the new connection opens (milliseconds), too
    # short to poll for on a busy machine: the next connection itself is the evidence
    while network.connections == silent and time.monotonic() < silent_since + 10:
        page.wait_for_timeout(100)  # the route's handler runs while Playwright waits
    assert network.connections == silent + 1, "the silent connection was not given up"
    # given up for its silence (3 s without a word; pongs came every 200 ms before), not closed
    assert network.opened_at[-1] - silent_since > 2.5
    page.wait_for_function("(s => s.conn === 'open' && s.prompt)(window.baidaTable.state)",
                           timeout=15000)
    assert hand_faces(page) == before and wait_prompt(page)["seq"] == prompt["seq"]
    page.locator(".hand .tile-btn.can").last.click()
    page.wait_for_function("window.baidaTable.state.view.players[0].discards.length === 1")
    # the heartbeat keeps a quiet but healthy connection: it is not given up
    page.wait_for_timeout(4000)  # longer than the silence limit
    assert network.connections == silent + 1


def test_back_on_screen_or_online_the_page_checks_its_connection_at_once(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone's browser brought back to the front may hold a connection that died while it
    was frozen, or wait seconds to reopen one: the page does not wait for its heartbeat (here a
    minute) or its next try (here a minute) but checks at once when it is shown again or the
    network comes back."""
    install_scenario(web.hall, monkeypatch, Scenario(config=SLOW_BOTS))
    page = web.page(PHONE)
    page.add_init_script("window.baidaConfig = {heartbeatMs: 60000, silenceMs: 120000, "
                         "probeMs: 1500, retryMs: [60000]}")
    network = SilentNetwork(page)
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    prompt = wait_prompt(page)
    before = hand_faces(page)

    def opened_within(seconds: float, count: int) -> bool:
        deadline = time.monotonic() + seconds
        while network.connections < count and time.monotonic() < deadline:
            page.wait_for_timeout(100)  # the route's handler runs while Playwright waits
        return network.connections >= count

    # shown again with a healthy connection: one word asked and answered, nothing reopened
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert not opened_within(3.0, network.connections + 1)
    # shown again with a connection that died unseen: given up within the probe's 1.5 s
    network.silence()
    silent = network.connections
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert opened_within(6.0, silent + 1), "the dead connection was kept"
    page.wait_for_function("(s => s.conn === 'open' && s.prompt)(window.baidaTable.state)",
                           timeout=15000)
    assert hand_faces(page) == before and wait_prompt(page)["seq"] == prompt["seq"]
    # the network goes and comes back: the next try is a minute away, the page tries at once
    page.context.set_offline(True)
    page.evaluate("window.baidaTable.socket.drop()")
    page.wait_for_function("window.baidaTable.state.conn === 'reconnecting'")
    dropped = network.connections
    page.context.set_offline(False)
    assert opened_within(6.0, dropped + 1), "the page waited for its next try"
    page.wait_for_function("(s => s.conn === 'open' && s.prompt)(window.baidaTable.state)",
                           timeout=15000)
    page.locator(".hand .tile-btn.can").last.click()
    page.wait_for_function("window.baidaTable.state.view.players[0].discards.length === 1")


WAKE_LOCK_LOG = """window.wakeLog = [];
    Object.defineProperty(navigator, 'wakeLock', {value: {request: async (kind) => {
        const lock = new EventTarget();
        lock.release = async () => {
            window.wakeLog.push('release');
            lock.dispatchEvent(new Event('release'));
        };
        window.wakeLog.push('request ' + kind);
        window.currentLock = lock;
        return lock;
    }}});"""


def test_the_screen_stays_on_at_a_table_and_is_let_go_when_leaving(web: Web) -> None:
    """A phone's screen dims and locks between one's turns and 托管 takes the seat: the table
    asks for the screen wake lock, asks again when shown after the browser dropped it, and lets
    go on leaving (the API recorded by a stand-in: the headless browser refuses the real one)."""
    page = web.page(PHONE)
    page.add_init_script(WAKE_LOCK_LOG)
    enter_as_guest(page, web.hall.base)
    page.wait_for_selector(".table-row")
    assert page.evaluate("window.wakeLog") == []  # the lobby keeps nothing on
    quick_play(page, "jiaxing")
    page.wait_for_function("window.wakeLog.length === 1")
    assert page.evaluate("window.wakeLog") == ["request screen"]
    # hidden, the browser drops the lock; shown again, the page asks again
    page.evaluate("window.currentLock.release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.wakeLog.length === 3")
    assert page.evaluate("window.wakeLog") == ["request screen", "release", "request screen"]
    page.evaluate("location.hash = '#/'")  # back to the lobby: the lock is let go
    page.wait_for_selector(".table-row")
    page.wait_for_function("window.wakeLog.length === 4")
    assert page.evaluate("window.wakeLog")[-1] == "release"


def test_the_hall_installs_as_an_app_with_its_icons(web: Web, tmp_path: Path) -> None:
    """On a phone the hall can be put on the home screen and opened without the browser's bars
    (more of the screen for the table): Chromium finds it installable (a profile of its own:
    an incognito one never is), and every icon the manifest and iOS name is served at its size."""
    context = web.browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        page = context.new_page()
        page.goto(web.hall.base + "/")
        page.wait_for_selector("body[data-ready='1']")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["manifest"]["display"] == "kStandalone"
        errors: list[Any] = []
        for _ in range(50):  # the manifest's icons are fetched after the page
            errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
            if not errors:
                break
            page.wait_for_timeout(100)
        assert errors == []
        named = json.loads(manifest["data"])
        icons = [(i["src"], i["sizes"]) for i in named["icons"] if i["type"] == "image/png"]
        icons.append((page.locator("link[rel=apple-touch-icon]").get_attribute("href"),
                      "180x180"))
        for src, sizes in icons:
            answer = page.request.get(web.hall.base + src)
            body = answer.body()
            assert answer.ok and body[:8] == b"\x89PNG\r\n\x1a\n", src
            width, height = struct.unpack(">II", body[16:24])
            assert f"{width}x{height}" == sizes, src
        served = page.request.get(web.hall.base + "/static/manifest.webmanifest")
        assert served.headers["content-type"].startswith("application/manifest+json")
    finally:
        context.close()


# ------------------------------------------------------------------ languages, sizes, sound


def test_english_and_chinese_and_the_remembered_mute(web: Web) -> None:
    page = web.page(PHONE)
    enter_as_guest(page, web.hall.base)
    page.wait_for_selector(".table-row")
    assert page.locator(".nav").inner_text() == "我的牌局"  # on a phone the logo leads home
    shot(page, f"lobby-zh-{PHONE['width']}")
    page.locator("#lang-toggle").click()
    assert page.locator(".nav").inner_text() == "My hands"
    assert page.locator("html").get_attribute("lang") == "en"
    shot(page, f"lobby-en-{PHONE['width']}")
    sound = page.locator("#sound-toggle")
    assert sound.get_attribute("aria-pressed") == "true"
    sound.click()
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    assert page.locator(".nav").inner_text() == "My hands"  # remembered too
    quick_play(page, "wenling")
    labels = page.locator(".hand .tile-btn").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")
    assert all(re.search(ENGLISH_TILE, label) for label in labels)
    wait_prompt(page)
    shot(page, f"table-wenling-en-{PHONE['width']}")
    page.set_viewport_size(DESKTOP)
    shot(page, f"table-wenling-en-{DESKTOP['width']}")
    page.locator("#lang-toggle").click()
    page.locator(".actions", has_text="轮到你").wait_for()  # the table redraws at the next frame


# ------------------------------------------------------------------ the page's hand model


def _hand_data(ruleset: str, seed: int, bot: str, seat: int) -> dict[str, Any]:
    """A hand played by bots, with the events ``seat`` saw and its view after every action."""
    from baida.bots.policy import make_bot

    rnd = Round.from_seed(ruleset, seed.to_bytes(32, "big"))
    bots = [make_bot(bot, seed=seed * 4 + s) for s in range(4)]
    checkpoints = [{"after": len(rnd.events), "view": rnd.view(seat).to_json()}]
    while not rnd.ended:
        s = rnd.to_act[0]
        legal = [a.to_json() for a in rnd.legal_actions(s)]
        rnd.apply(bots[s].choose(rnd.view(s).to_json(), legal))
        checkpoints.append({"after": len(rnd.events), "view": rnd.view(seat).to_json()})
    return {
        "seat": seat,
        "options": rnd.view(seat).to_json()["options"],
        "events": [e.for_seat(seat) for e in rnd.events],
        "checkpoints": checkpoints,
        "types": sorted({e.type for e in rnd.events}),
    }


FOLLOW = """async (hands) => {
  const st = await import('/static/js/state.js');
  return hands.map((hand) => {
    let view = null;
    let applied = 0;
    const out = [];
    for (const cp of hand.checkpoints) {
      while (applied < cp.after) {
        const ev = hand.events[applied];
        if (applied === 0) view = st.viewFromStart(ev, {options: hand.options, seat: hand.seat});
        else st.applyEvent(view, ev);
        applied += 1;
      }
      out.push(structuredClone(view));
    }
    return out;
  });
}"""


def test_the_page_follows_a_hand_exactly_as_the_engine_shows_it(web: Web) -> None:
    """The page keeps its view current from events (state.js); after every action of whole
    hands played by bots (claims, kongs, flowers, 三摊...) it equals the engine's view."""
    hands = []
    seen: set[str] = set()
    for ruleset in ("jiaxing", "wenling"):
        for seed in range(1, 9):
            bot = "random" if seed % 2 else "efficient"
            data = _hand_data(ruleset, seed, bot, seat=seed % 4)
            hands.append(data)
            seen.update(data["types"])
    assert {"chi", "pon", "flower", "santan", "sheng_phase", "win"} <= seen, seen
    page = web.page()
    page.goto(web.hall.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    followed = page.evaluate(FOLLOW, hands)
    keep = ("concealed_count", "melds", "discards", "claimed", "flowers", "gave_up")
    for data, views in zip(hands, followed, strict=True):
        seat = data["seat"]
        for cp, mine in zip(data["checkpoints"], views, strict=True):
            want = cp["view"]
            where = f"seat {seat}, after {cp['after']} events"
            for key in ("wall_remaining", "santan_pairs", "claim_counts", "sheng_phase",
                        "last_discard", "indicator", "wilds", "specials", "dealer",
                        "seat_winds", "round_wind", "seed", "result"):
                assert mine[key] == want[key], (where, key)
            for s in range(4):
                for key in keep:
                    assert mine["players"][s][key] == want["players"][s][key], (where, s, key)
                concealed = want["players"][s]["concealed"]
                assert mine["players"][s]["concealed"] == concealed, (where, s)
            drawn = want["players"][seat]["drawn"]
            if drawn is not None:  # the seat's turn: the page knows the tile just drawn too
                assert mine["players"][seat]["drawn"] == drawn, where

