"""Friends' tables and coming back, in a real browser: the creator is seated, the invite link
(#/join/CODE, and ?room=CODE) opens the table for another browser and seats them, one click
fills the empty seats with bots, "back to the lobby" keeps the seat (托管 plays it) and the
lobby's "return to your table" seats you again; a reload during the settlement shows it
again with the true countdown and nothing plays for you in the next hand; the lobby shows
the empty tables of one kind as one row."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
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
    settlement_drawn,
    shot,
    wait_prompt,
)

from baida.table import SeatMode

pytest_plugins = ["web_fixtures"]

WENLING_TIANHU_SEED = (2305).to_bytes(32, "big")  # the dealer (the own seat) holds a 天和


def until(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    """Poll ``check`` (a read of the hall, in its loop) until it is true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("the hall did not get there in time")


def seat_state(web: Web, table_id: int, seat: int) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        actor = web.hall.runtime.hall.get(table_id)
        driver = actor.driver
        user = actor.seats[seat].user
        return {"user": None if user is None else user.id, "escaped": actor.seats[seat].escaped,
                "mode": None if driver is None else driver.modes[seat].value,
                "reason": None if driver is None else driver.auto_reason[seat],
                "status": actor.status}

    return web.hall.call(read)


def private_table_host(web: Web) -> Any:
    """A guest's page that has made a private table from the lobby and sits at it (seat 0)."""
    host = web.page()
    enter_as_guest(host, web.hall.base)
    create = host.locator(".card.create")
    create.locator("summary").click()
    create.get_by_label("私人牌桌 (凭房间号加入)").check()
    create.get_by_role("button", name="创建").click()
    host.wait_for_function("window.baidaTable && window.baidaTable.state.seat === 0")
    return host


def test_an_invite_link_seats_a_friend_and_back_to_the_lobby_keeps_the_seat(web: Web) -> None:
    host = private_table_host(web)
    table_id = host.evaluate("window.baidaTable.state.table.id")
    code = host.evaluate("window.baidaTable.state.table.room_code")
    host.locator(".wait-count").filter(has_text="还差 3 位玩家").wait_for()
    link = host.locator(".invite-link").input_value()
    assert link == f"{web.hall.base}/#/join/{code}"
    host.context.grant_permissions(["clipboard-read", "clipboard-write"])
    host.locator("[data-act='copy-invite']").click()
    host.locator("[data-act='copy-invite']").filter(has_text="已复制").wait_for()
    assert host.evaluate("navigator.clipboard.readText()") == link
    shot(host, f"invite-zh-{DESKTOP['width']}")
    host.locator("#lang-toggle").click()
    host.locator(".wait-count").filter(has_text="Waiting for 3 players").wait_for()
    assert host.locator("[data-act='copy-invite']").inner_text() == "Copy the invite link"
    shot(host, f"invite-en-{DESKTOP['width']}")
    host.locator("#lang-toggle").click()
    # a friend in another browser follows the link without signing in: a guest, seated
    friend = web.page(PHONE)
    friend.goto(link)
    friend.wait_for_function("window.baidaTable && window.baidaTable.state.seat === 1")
    assert friend.evaluate("window.baidaTable.state.table.id") == table_id
    assert friend.locator(".badge-watch").count() == 0
    # the address form of the same invite
    third = web.page()
    third.goto(f"{web.hall.base}/?room={code}")
    third.wait_for_function("window.baidaTable && window.baidaTable.state.seat === 2")
    assert "room=" not in third.url
    host.locator(".wait-count").filter(has_text="还差 1 位玩家").wait_for()
    # one click: the empty seat to a bot, the host ready; the others get ready
    host.locator("[data-act='bots-and-start']").click()
    for page in (friend, third):
        page.locator("[data-act='ready']").click()
    friend.wait_for_selector(".hand .tile-btn", timeout=30000)
    friend_id = friend.evaluate("window.baidaTable.state.table.seats[1].user")
    # back to the lobby: the seat stays, 托管 plays it, the lobby offers it back
    friend.locator(".table-leave").click()
    dialog = friend.locator(".modal")
    assert "逃跑" in dialog.inner_text() and "托管" in dialog.inner_text()
    shot(friend, f"leave-dialog-zh-{PHONE['width']}")
    dialog.locator("[data-act='leave-keep']").click()
    back = friend.locator(f".card.back li[data-table='{table_id}']")
    back.wait_for(timeout=15000)
    until(lambda: seat_state(web, table_id, 1)["reason"] == "offline")
    state = seat_state(web, table_id, 1)
    assert state["user"] == friend_id and not state["escaped"] and state["mode"] == "auto"
    shot(friend, f"lobby-return-zh-{PHONE['width']}")
    friend.locator("#lang-toggle").click()
    back.get_by_role("link", name="Return to your table").wait_for()
    assert "auto-play is playing it for you" in back.inner_text()
    assert re.search(r"Guest \d+", friend.locator(".topbar .who").inner_text())
    assert re.fullmatch(r"Hello, Guest \d+", friend.locator(".card.signin h2").inner_text())
    shot(friend, f"lobby-return-en-{PHONE['width']}")
    friend.locator("#lang-toggle").click()
    back.locator("[data-act='return']").click()
    friend.wait_for_function("window.baidaTable && window.baidaTable.state.seat === 1")
    friend.wait_for_selector(".hand .tile-btn", timeout=20000)
    assert friend.locator(".badge-watch").count() == 0  # seated, not watching
    until(lambda: seat_state(web, table_id, 1)["mode"] == "player")
    # the host stays seated through a reload too
    host.reload()
    host.wait_for_function("window.baidaTable && window.baidaTable.state.seat === 0")
    # only 逃跑 gives the seat up: the friend escapes and the lobby no longer offers it
    friend.locator(".table-leave").click()
    friend.locator(".modal [data-act='leave-escape']").click()
    friend.wait_for_selector(".tables")
    until(lambda: seat_state(web, table_id, 1)["escaped"])
    friend.wait_for_timeout(500)
    friend.reload()
    friend.wait_for_selector(".table-row")
    assert friend.locator(".card.back").count() == 0


def test_a_reload_during_the_settlement_shows_it_again_and_nothing_plays_for_you(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The countdown is the hall's (what is left after the reload), and when the next hand
    is dealt while the player still reads, the seat is theirs: no 托管, no action taken."""
    install_scenario(web.hall, monkeypatch, Scenario(
        config={"hands": 3, "timing": {**FAST, "between_hands": 8.0}},
        seed=WENLING_TIANHU_SEED, policy=mo_qie))
    page = web.page()
    enter_as_guest(page, web.hall.base)
    quick_play(page, "wenling")
    table_id = page.evaluate("window.baidaTable.state.table.id")
    assert "win" in wait_prompt(page)["types"]
    page.keyboard.press("w")
    settlement = page.locator(".modal.settlement")
    settlement.locator(".st-links").wait_for(timeout=20000)
    formula = settlement.locator(".st-formula").inner_text()
    countdown = settlement.locator(".st-next")
    assert re.fullmatch(r"下一局 [1-8] 秒后开始", countdown.inner_text()), countdown.inner_text()
    page.wait_for_timeout(2500)
    page.reload()
    settlement.locator(".st-links").wait_for(timeout=20000)
    settlement_drawn(page)
    assert settlement.locator(".st-formula").inner_text() == formula
    shown = int(re.search(r"\d+", countdown.inner_text()).group())
    assert 1 <= shown <= 6, shown  # what is left, not the whole wait again
    shot(page, f"settlement-reloaded-countdown-zh-{DESKTOP['width']}")
    # still reading: the hall deals the next hand at its deadline
    until(lambda: seat_state(web, table_id, 0)["status"] == "playing", timeout=15)
    # the seat's first prompt of the new hand folds the settlement into its bar
    page.wait_for_function("(s => s.prompt && !s.prompt.answered)(window.baidaTable.state)",
                           timeout=20000)
    page.locator(".st-bar").wait_for()
    prompt = wait_prompt(page, timeout=20)
    assert not prompt.get("settlement")

    def actions_of_seat_0() -> int:
        rnd = web.hall.runtime.hall.get(table_id).driver.round
        return sum(1 for a in rnd.actions if a.seat == 0)

    assert web.hall.call(actions_of_seat_0) == 0
    state = seat_state(web, table_id, 0)
    assert state["mode"] == SeatMode.PLAYER.value and state["reason"] is None
    assert page.evaluate("window.baidaTable.state.modes[0]") == "player"
    page.locator(".st-bar").wait_for()  # the settlement folded away, to be opened again
    assert page.locator(".banner-auto").count() == 0


def test_the_lobby_shows_the_empty_tables_of_one_kind_as_one_row(web: Web) -> None:
    page = web.page()
    enter_as_guest(page, web.hall.base)
    page.wait_for_selector(".table-row")
    rows = page.evaluate(
        """async () => {
             const m = await import("/static/js/lobby.js");
             const seat = (kind, name) => ({ kind, name, ready: false });
             const empty = [seat("empty"), seat("empty"), seat("empty"), seat("empty")];
             const table = (id, extra = {}) => ({ id, number: id, ruleset: "jiaxing",
               status: "waiting", badges: ["jiaxing", "chi", "points", "base:1", "hands:4"],
               fee: 0, seats: empty, ...extra });
             const tables = [table(1), table(2),
               table(3, { seats: [seat("person", "amy"), ...empty.slice(1)] }), table(4),
               table(5, { badges: ["jiaxing", "no_chi", "points", "base:1", "hands:4"] }),
               table(6, { status: "playing" })];
             return m.lobbyRows(tables).map(li => ({ table: li.dataset.table || null,
               group: Boolean(li.dataset.group), text: li.innerText,
               sit: li.querySelector("[data-act='sit-first']")?.getAttribute("href") || null }));
           }""")
    assert [(r["table"], r["group"]) for r in rows] == [
        (None, True), ("3", False), ("5", False), ("6", False)]
    assert "3 张空桌" in rows[0]["text"] and rows[0]["sit"] == "#/table/1?sit=1"
    # the hall's own list: one sit-down link per kind, each to a table with a free seat
    for link in page.locator(".table-row [href*='sit=1']").all():
        assert re.fullmatch(r"#/table/\d+\?sit=1", link.get_attribute("href") or "")


def test_a_player_mutes_another_at_the_table_and_the_account_remembers(web: Web) -> None:
    """Strangers share a table's chat: 屏蔽 beside each other person hides their messages (not
    shown, not read out) at every table, kept with the account (a browser that forgot it, or
    another device, has it from the hall), until pressed again; 举报 reports them to the
    operator after asking; the muted or reported person and everyone else see nothing of it.
    Mutes an older page kept in the browser alone are handed to the hall."""
    host = private_table_host(web)
    link = host.locator(".invite-link").input_value()
    friend = web.page()
    friend.goto(link)
    friend.wait_for_function("window.baidaTable && window.baidaTable.state.seat === 1")
    host.locator("[data-act='bots-and-start']").click()
    friend.locator("[data-act='ready']").click()
    for page in (host, friend):
        page.wait_for_selector(".hand .tile-btn", timeout=30000)
    name = friend.evaluate("window.baidaTable.state.table.seats[1].name")

    def say(words: str) -> None:
        friend.locator(".chat-form input").fill(words)
        friend.locator(".chat-form button").click()
        friend.wait_for_function("w => window.baidaTable.state.chat.some(m => m.text === w)",
                                 arg=words)
        time.sleep(1.2)  # the chat's pace: about one message a second

    say("第一句")
    host.wait_for_function("window.baidaTable.state.chat.some(m => m.text === '第一句')")
    mute = host.locator(".mutes .btn-mute", has_text=name)
    assert host.locator(".mutes .btn-mute").count() == 1  # the bots are not listed
    mute.click()
    host.locator(".mutes .btn-mute[aria-pressed='true']").wait_for()
    assert "第一句" not in host.locator(".chat-lines").inner_text()  # gone at once
    say("第二句")
    friend_id = friend.evaluate("window.baidaTable.state.table.seats[1].user")
    mutes = "fetch('/api/me/mutes').then(r => r.json()).then(d => d.muted)"
    assert host.evaluate(mutes) == [friend_id]  # kept by the hall
    host.evaluate("localStorage.clear()")  # a browser that forgot, or another device
    host.reload()
    host.wait_for_selector(".hand .tile-btn", timeout=30000)
    host.locator(".mutes .btn-mute[aria-pressed='true']").wait_for()
    # a new name does not undo it
    session = friend.request.get(web.hall.base + "/api/session").json()["me"]
    renamed = friend.request.patch(web.hall.base + "/api/me", data={"name": "改了名字"},
                                   headers={"X-CSRF-Token": session["csrf"]})
    assert renamed.ok, renamed.text()
    say("第三句")
    host.wait_for_timeout(500)
    assert not host.evaluate("window.baidaTable.state.chat.some(m => m.seat === 1)")
    assert host.locator(".mutes .btn-mute[aria-pressed='true']").count() == 1
    shot(host, f"chat-muted-zh-{DESKTOP['width']}")
    # the muted player notices nothing: their own lines are there as ever
    assert "第三句" in friend.locator(".chat-lines").inner_text()
    # 举报: asked first (a stray tap reports nobody), then the hall has it and says so to the
    # reporter alone
    host.locator(".mutes .btn-report").click()
    dialog = host.locator(".modal", has_text="向管理员举报")
    dialog.wait_for()
    shot(host, f"report-ask-zh-{DESKTOP['width']}")
    dialog.locator("[data-act='report-yes']").click()
    host.locator(".toast-info", has_text="管理员会看到").wait_for()
    assert friend.locator(".toast", has_text="举报").count() == 0
    host.locator(".mutes .btn-mute", has_text=name).click()
    host.locator(".mutes .btn-mute[aria-pressed='false']").wait_for()
    say("第四句")
    host.wait_for_function("window.baidaTable.state.chat.some(m => m.text === '第四句')")
    assert "第四句" in host.locator(".chat-lines").inner_text()
    assert host.evaluate(mutes) == []
    # a mute made on another device holds here from the next table opened, with no reload
    # (the page asked the hall once, at its first table)
    csrf = host.request.get(web.hall.base + "/api/session").json()["me"]["csrf"]
    other_device = f"{web.hall.base}/api/me/mutes/{friend_id}"
    assert host.request.put(other_device, headers={"X-CSRF-Token": csrf}).ok
    here = host.evaluate("location.hash")
    host.evaluate("location.hash = '#/'")
    host.wait_for_selector(".table-row")
    host.evaluate(f"location.hash = '{here}'")
    host.locator(".mutes .btn-mute[aria-pressed='true']").wait_for()
    assert host.request.delete(other_device, headers={"X-CSRF-Token": csrf}).ok
    assert host.evaluate(mutes) == []
    # a mute an older page kept in this browser alone is handed to the hall, once
    host.evaluate(f"localStorage.setItem('baida.muted', '[{friend_id}]')")
    host.reload()
    host.wait_for_selector(".hand .tile-btn", timeout=30000)
    host.locator(".mutes .btn-mute[aria-pressed='true']").wait_for()
    assert host.evaluate(mutes) == [friend_id]
    assert host.evaluate("localStorage.getItem('baida.muted')") is None
    # that key is also the sound switch's (js/sound.js): sound off stays off
    host.locator("#sound-toggle").click()
    assert host.evaluate("localStorage.getItem('baida.muted')") == "1"
    host.reload()
    host.wait_for_selector(".hand .tile-btn", timeout=30000)
    host.locator(".mutes .btn-mute[aria-pressed='true']").wait_for()
    host.wait_for_timeout(500)  # the account's mutes fetched and compared
    assert host.evaluate("localStorage.getItem('baida.muted')") == "1"
    assert host.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
