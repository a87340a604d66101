"""The lobby in a real browser: registering, signing out and in, creating a table with its
options, taking a seat, the table's badges in the list, and the 银子 history; a friend who
sits at a private table by its room code, a stranger who sits down from the list, someone
who watches a table in play from the list, and the list filtered by ruleset and free seats."""

from __future__ import annotations

import secrets
from typing import Any

from web_support import DESKTOP, PHONE, Web, enter_as_guest, shot

pytest_plugins = ["web_fixtures"]


def test_register_sign_in_create_a_table_take_a_seat_and_see_the_silver_history(
    web: Web,
) -> None:
    page = web.page()
    page.goto(web.hall.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    name = f"测试{secrets.token_hex(3)}"
    password = "long-enough-pw-1"
    signin = page.locator(".card.signin")
    # register: signed in at once, with the starting 银子
    signin.get_by_placeholder("用户名").fill(name)
    signin.get_by_placeholder("密码").fill(password)
    signin.get_by_role("button", name="注册").click()
    page.wait_for_selector("#balance")
    assert page.locator(".topbar .who").inner_text() == name
    assert page.locator("#balance").inner_text() == "银子 1000"
    # sign out, then sign in with the password; the sign-in card is drawn once (a second
    # drawing would wipe what is typed into it)
    page.evaluate("""() => {
        window.signinDrawn = 0;
        new MutationObserver(records => records.forEach(r => r.addedNodes.forEach(n => {
            if (n.querySelector && n.querySelector('.card.signin')) window.signinDrawn += 1;
        }))).observe(document.body, {childList: true, subtree: true});
    }""")
    page.get_by_role("button", name="退出登录").click()
    page.wait_for_selector("[data-act='guest']")
    # the address's hashchange, if any, is handled by the next frames
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate("window.signinDrawn") == 1
    assert page.locator("#balance").count() == 0
    # a wrong password is said in the page's language (the hall's code, not its English)
    signin.get_by_placeholder("用户名").fill(name)
    signin.get_by_placeholder("密码").fill(password + "x")
    signin.get_by_role("button", name="登录", exact=True).click()
    page.locator(".toast-error", has_text="用户名或密码不对。").wait_for()
    for watch in web.watches:  # the browser logs the refusal's 401: expected here
        watch.errors[:] = [e for e in watch.errors if "status of 401" not in e]
    signin.get_by_placeholder("用户名").fill(name)
    signin.get_by_placeholder("密码").fill(password)
    signin.get_by_role("button", name="登录", exact=True).click()
    page.wait_for_selector("#balance")
    assert page.locator(".topbar .who").inner_text() == name
    # create a table: Jiaxing without 吃, wins on discards, 银子, 底 2, fee 1, 2 hands, public
    create = page.locator(".card.create")
    create.locator("summary").click()
    # the form asks only what the ruleset and the stakes use: no 吃 or 抓铳 in Wenling, the fee
    # only at a 银子 table
    fee, chi, discard_win = (create.get_by_label(label) for label in (
        "台费 (每人每局)", "可以吃", "抓铳 (可和别人打出的牌)"))
    assert not fee.is_visible() and chi.is_visible() and discard_win.is_visible()
    create.get_by_label("玩法").select_option("wenling")
    assert not chi.is_visible() and not discard_win.is_visible()
    create.get_by_label("玩法").select_option("jiaxing")
    create.get_by_label("可以吃").uncheck()
    create.get_by_label("抓铳 (可和别人打出的牌)").check()
    create.get_by_label("计分").select_option("silver")
    assert fee.is_visible()
    create.get_by_label("底分").fill("2")
    create.get_by_label("台费 (每人每局)").fill("1")
    create.get_by_label("局数").fill("2")
    shot(page, f"lobby-create-zh-{DESKTOP['width']}")
    create.get_by_role("button", name="创建").click()
    page.wait_for_selector(".waiting")
    table_id = page.evaluate("window.baidaTable.state.table.id")
    page.locator("[data-act='table-info']").click()  # the table's particulars, in one place
    badges = page.locator(".modal.info .badge").all_inner_texts()
    assert {"嘉兴", "不吃", "抓铳", "银子", "底 2", "2局"} <= set(badges), badges
    page.keyboard.press("Escape")
    config = web.hall.call(lambda: web.hall.runtime.hall.get(table_id).config)
    assert (config.options["allow_chi"], config.options["allow_discard_win"]) == (False, True)
    assert (config.stakes, config.base, config.fee, config.hands) == ("silver", 2, 1, 2)
    # created and seated in one step, the table says whom it waits for
    page.wait_for_function("window.baidaTable.state.seat === 0")
    page.locator(".wait-seat").nth(0).filter(has_text=name).wait_for()
    assert page.locator(".wait-count").inner_text() == "还差 3 位玩家"
    assert page.get_by_role("button", name="准备", exact=True).count() == 1
    # standing up and taking another seat
    page.locator(".table-leave").click()  # before the match: the seat is given up
    page.wait_for_selector(".tables")
    page.goto(f"{web.hall.base}/#/table/{table_id}")
    page.locator(".wait-seat").nth(1).get_by_role("button", name="坐这里").click()
    page.wait_for_function("window.baidaTable.state.seat === 1")
    page.locator(".wait-seat").nth(1).filter(has_text=name).wait_for()
    shot(page, f"table-waiting-zh-{DESKTOP['width']}")
    # someone else's lobby lists it with its badges and the seat taken
    other = web.page()
    other.goto(web.hall.base + "/")
    other.wait_for_selector("body[data-ready='1']")
    other.locator("[data-act='guest']").click()
    # read in one go: the lobby may render its list again between two reads of the row
    row = other.wait_for_function(
        """id => {
            const row = document.querySelector(`.table-row[data-table='${id}']`);
            return row && {text: row.innerText,
                           badges: [...row.querySelectorAll('.badge')].map(b => b.innerText)};
        }""", arg=table_id).json_value()
    assert "1/4 人" in row["text"] and name in row["text"]
    assert {"不吃", "抓铳", "银子", "底 2"} <= set(row["badges"])
    # the 银子 history: the starting grant
    page.goto(web.hall.base + "/#/me")
    page.wait_for_selector(".me-page .balance-big")
    ledger = page.locator(".me-page .card", has=page.locator("h2", has_text="银子明细"))
    ledger.locator("tbody tr").first.wait_for()
    # no hand finished yet: the record says when it will show
    page.wait_for_selector(".record-card .records p")
    assert "打完一局后" in page.locator(".record-card").inner_text()
    assert "初始银子" in ledger.inner_text() and "+1000" in ledger.inner_text()
    # one entry and no hand: nothing more to load, so no 更多
    more = page.locator(".me-page button", has_text="更多")
    assert more.count() == 2 and not more.first.is_visible() and not more.last.is_visible()
    page.set_viewport_size(PHONE)
    shot(page, f"my-page-zh-{PHONE['width']}")


def test_a_friend_sits_by_the_room_code_a_stranger_sits_from_the_list_and_another_watches(
    web: Web,
) -> None:
    # the host creates a private table: it is not in anyone else's list, only its code opens it
    host = web.page()
    enter_as_guest(host, web.hall.base)
    create = host.locator(".card.create")
    create.locator("summary").click()
    create.get_by_label("玩法").select_option("wenling")
    create.get_by_label("私人牌桌 (凭房间号加入)").check()
    create.get_by_role("button", name="创建").click()
    host.wait_for_selector(".waiting")
    private_id = host.evaluate("window.baidaTable.state.table.id")
    code = host.evaluate("window.baidaTable.state.table.room_code")
    assert code and len(code) >= 4
    host.wait_for_function("window.baidaTable.state.seat === 0")  # created and seated
    friend = web.page(PHONE)
    enter_as_guest(friend, web.hall.base)
    friend.wait_for_selector(".table-row")
    assert friend.locator(f".table-row[data-table='{private_id}']").count() == 0
    friend.locator(".room-form input").fill(code.lower())
    friend.locator(".room-form button").click()
    friend.wait_for_selector(".waiting")
    assert friend.evaluate("window.baidaTable.state.table.id") == private_id
    friend.wait_for_function("window.baidaTable.state.seat === 1")  # seated on arrival
    friend_name = friend.evaluate("window.baidaTable.state.table.seats[1].name")
    assert friend_name, friend.evaluate("window.baidaTable.state.table.seats")
    host.wait_for_function(
        "name => window.baidaTable.state.table.seats[1].name === name", arg=friend_name)
    shot(friend, f"room-code-seated-zh-{PHONE['width']}")
    # a public table: a stranger finds it in the list and sits down by its 入座 button
    owner = web.page()
    enter_as_guest(owner, web.hall.base)
    create = owner.locator(".card.create")
    create.locator("summary").click()
    create.get_by_role("button", name="创建").click()
    owner.wait_for_selector(".waiting")
    public_id = owner.evaluate("window.baidaTable.state.table.id")
    stranger = web.page()
    enter_as_guest(stranger, web.hall.base)
    row = stranger.locator(f".table-row[data-table='{public_id}']")
    row.wait_for()
    row.get_by_role("link", name="入座").click()
    stranger.wait_for_selector(".waiting")
    stranger.wait_for_function("window.baidaTable.state.seat === 1")  # 入座 seats
    # the owner (seated on creating it) fills the table with bots and is ready in one
    # click; the stranger gets ready: the match begins
    owner.wait_for_function("window.baidaTable.state.seat === 0")
    owner.wait_for_function("window.baidaTable.state.table.seats[1].kind === 'person'")
    owner.get_by_role("button", name="空位补机器人，开始").click()
    stranger.get_by_role("button", name="准备", exact=True).click()
    stranger.wait_for_selector(".hand .tile-btn", timeout=20000)
    # a table in play is watched from the list (观战): no hand, no concealed tile of anyone
    watcher = web.page(PHONE)
    enter_as_guest(watcher, web.hall.base)
    row = watcher.locator(f".table-row[data-table='{public_id}']")
    row.wait_for()
    row.get_by_role("link", name="观战").wait_for(timeout=15000)  # the list is refreshed
    assert row.get_by_role("link", name="入座").count() == 0
    row.get_by_role("link", name="观战").click()
    watcher.wait_for_selector(".board")
    assert watcher.locator(".badge-watch").count() == 1 and watcher.locator(".hand").count() == 0
    assert watcher.evaluate(
        "window.baidaTable.state.view.players.every(p => p.concealed === null)")
    shot(watcher, f"watch-from-list-zh-{PHONE['width']}")
    # the list filtered by ruleset and by free seats, the choice kept across a reload
    watcher.goto(web.hall.base + "/")
    rows = watcher.locator(".table-row")
    rows.first.wait_for()
    every = {r.get_attribute("data-table"): r.get_attribute("data-ruleset") for r in rows.all()}
    assert set(every.values()) == {"jiaxing", "wenling"} and str(public_id) in every
    watcher.locator(".tables-filter [data-filter='wenling']").click()
    shown = [r.get_attribute("data-table") for r in rows.all()]
    assert shown == [k for k, v in every.items() if v == "wenling"]
    assert watcher.locator("[data-filter='wenling']").get_attribute("aria-pressed") == "true"
    watcher.locator(".tables-filter [data-filter='all']").click()
    watcher.get_by_label("只看有空位的").check()
    shown = {r.get_attribute("data-table") for r in rows.all()}
    assert str(public_id) not in shown and shown == set(every) - {str(public_id)}
    shot(watcher, f"lobby-filtered-zh-{PHONE['width']}")
    watcher.reload()
    rows.first.wait_for()
    assert watcher.get_by_label("只看有空位的").is_checked()
    assert watcher.locator(f".table-row[data-table='{public_id}']").count() == 0
    watcher.get_by_label("只看有空位的").uncheck()
    assert watcher.locator(f".table-row[data-table='{public_id}']").count() == 1


def sign_out_and_in(page: Any, name: str, password: str) -> None:
    """Sign out from the top bar and in again from the lobby's card, as ``name``."""
    page.get_by_role("button", name="退出登录").click()
    page.wait_for_selector("[data-act='guest']")
    signin = page.locator(".card.signin")
    signin.get_by_placeholder("用户名").fill(name)
    signin.get_by_placeholder("密码").fill(password)
    signin.get_by_role("button", name="登录", exact=True).click()
    page.wait_for_selector("#balance")
    assert page.locator(".topbar .who").inner_text() == name


def test_a_refused_name_is_explained_in_chinese_and_a_password_is_changed(web: Web) -> None:
    page = web.page()
    page.goto(web.hall.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    signin = page.locator(".card.signin")
    signin.get_by_placeholder("用户名").fill("机器人7")
    signin.get_by_placeholder("密码").fill("long-enough-pw-1")
    signin.get_by_role("button", name="注册").click()
    toast = page.locator(".toast-error").last
    toast.wait_for()
    assert "保留词" in toast.inner_text()  # the code's message, in the page's language
    for watch in web.watches:  # the browser logs the refusal's 400: expected here
        watch.errors[:] = [e for e in watch.errors if "status of 400" not in e]
    name = f"改密{secrets.token_hex(3)}"
    signin.get_by_placeholder("用户名").fill(name)
    signin.get_by_role("button", name="注册").click()
    page.wait_for_selector("#balance")
    page.goto(web.hall.base + "/#/me")
    card = page.locator(".password-card")
    card.get_by_placeholder("当前密码").fill("long-enough-pw-1")
    card.get_by_placeholder("新密码（至少 8 个字符）").fill("another-pw-22")
    card.get_by_role("button", name="修改").click()
    page.locator(".toast-info", has_text="密码已修改").wait_for()
    sign_out_and_in(page, name, "another-pw-22")
    # a new name on my page: refused in Chinese, then taken; the top bar shows it at once and
    # it signs in from then on
    page.goto(web.hall.base + "/#/me")
    card = page.locator(".name-card")
    field = card.get_by_placeholder("新名字（2 到 16 个字符）")
    assert field.input_value() == name
    field.fill("机器人8")
    card.get_by_role("button", name="改名").click()
    page.locator(".toast-error", has_text="保留词").last.wait_for()
    renamed = f"新名{secrets.token_hex(3)}"
    field.fill(renamed)
    card.get_by_role("button", name="改名").click()
    page.locator(".toast-info", has_text=f"你现在叫 {renamed}").wait_for()
    assert page.locator(".topbar .who").inner_text() == renamed
    sign_out_and_in(page, renamed, "another-pw-22")
    page.goto(web.hall.base + "/#/me")
    page.locator(".name-card").wait_for()
    shot(page, f"me-name-zh-{DESKTOP['width']}")
    page.set_viewport_size(PHONE)
    shot(page, f"me-name-zh-{PHONE['width']}")
    for watch in web.watches:  # the browser logs the refused name's 400: expected here
        watch.errors[:] = [e for e in watch.errors if "status of 400" not in e]


def test_a_lobby_in_the_background_asks_nothing_and_refreshes_when_shown(web: Web) -> None:
    """A tab left on the lobby polled the hall every 10 s for ever; in the background it now
    asks nothing, and it asks at once when shown again (here the poll is every 300 ms)."""
    page = web.page(PHONE)
    page.add_init_script("""window.baidaConfig = {lobbyMs: 300};
        window.fakeHidden = false;
        Object.defineProperty(document, 'visibilityState',
            {get: () => window.fakeHidden ? 'hidden' : 'visible'});""")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/tables") else None)
    enter_as_guest(page, web.hall.base)
    page.wait_for_selector(".table-row")
    page.wait_for_timeout(1000)
    assert len(asked) >= 3  # on screen: polled
    page.evaluate("window.fakeHidden = true; document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_timeout(300)
    hidden_from = len(asked)
    page.wait_for_timeout(1500)
    assert len(asked) == hidden_from, "a hidden lobby polled the hall"
    # shown again: asked at once (the poll is a minute apart now, so only the return asks)
    page.evaluate("window.baidaConfig.lobbyMs = 60000; window.fakeHidden = false")
    page.evaluate("location.hash = '#/me'")
    page.wait_for_selector(".me-page")
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector(".table-row")
    page.wait_for_timeout(500)
    mounted = len(asked)
    page.evaluate("window.fakeHidden = true; document.dispatchEvent(new Event('visibilitychange'))")
    page.evaluate("window.fakeHidden = false; "
                  "document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_timeout(2000)
    assert len(asked) == mounted + 1


def test_quick_start_is_the_first_card_a_player_signed_in_sees(web: Web) -> None:
    """On a phone held sideways quick start was two screens down, under the greeting and
    学玩法; a newcomer meets the guest button, then the guide's offer, first."""
    page = web.page({"width": 844, "height": 390})
    page.goto(web.hall.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    cards = "[...document.querySelectorAll('.lobby-side > .card')].map(c => c.className)"
    assert page.evaluate(cards)[:3] == ["card signin", "card learn", "card quick"]
    page.locator("[data-act='guest']").click()
    page.wait_for_selector("#balance")
    page.wait_for_selector(".lobby-side .guide-offer")
    assert page.evaluate(cards)[:2] == ["card learn", "card quick"]  # the offer, once
    page.locator("[data-act='guide-decline']").click()
    page.reload()
    page.wait_for_selector(".lobby-side .card.quick")
    assert page.evaluate(cards)[0] == "card quick"
    for button in page.locator(".card.quick [data-quick]").all():
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 390, box  # no scrolling
    shot(page, "lobby-signed-in-zh-844")
