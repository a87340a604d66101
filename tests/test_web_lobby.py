"""The lobby in a real browser: registering, signing out and in, creating a table with its
options, taking a seat, the table's badges in the list, and the 银子 history."""

from __future__ import annotations

import secrets

from web_support import DESKTOP, PHONE, Web, shot

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
    # sign out, then sign in with the password
    page.get_by_role("button", name="退出登录").click()
    page.wait_for_selector("[data-act='guest']")
    assert page.locator("#balance").count() == 0
    signin.get_by_placeholder("用户名").fill(name)
    signin.get_by_placeholder("密码").fill(password)
    signin.get_by_role("button", name="登录", exact=True).click()
    page.wait_for_selector("#balance")
    assert page.locator(".topbar .who").inner_text() == name
    # create a table: Jiaxing without 吃, wins on discards, 银子, 底 2, fee 1, 2 hands, public
    create = page.locator(".card.create")
    create.locator("summary").click()
    create.get_by_label("玩法").select_option("jiaxing")
    create.get_by_label("可以吃").uncheck()
    create.get_by_label("抓铳 (可和别人打出的牌)").check()
    create.get_by_label("计分").select_option("silver")
    create.get_by_label("底分").fill("2")
    create.get_by_label("台费 (每人每局)").fill("1")
    create.get_by_label("局数").fill("2")
    shot(page, f"lobby-create-zh-{DESKTOP['width']}")
    create.get_by_role("button", name="创建").click()
    page.wait_for_selector(".waiting")
    table_id = page.evaluate("window.baidaTable.state.table.id")
    badges = page.locator(".table-bar .badge").all_inner_texts()
    assert {"嘉兴", "不吃", "抓铳", "银子", "底 2", "2局"} <= set(badges), badges
    config = web.hall.call(lambda: web.hall.runtime.hall.get(table_id).config)
    assert (config.options["allow_chi"], config.options["allow_discard_win"]) == (False, True)
    assert (config.stakes, config.base, config.fee, config.hands) == ("silver", 2, 1, 2)
    # take the second seat
    page.locator(".wait-seat").nth(1).get_by_role("button", name="坐这里").click()
    page.wait_for_function("window.baidaTable.state.seat === 1")
    assert page.locator(".wait-seat").nth(1).inner_text().startswith(name)
    assert page.get_by_role("button", name="准备", exact=True).count() == 1
    shot(page, f"table-waiting-zh-{DESKTOP['width']}")
    # someone else's lobby lists it with its badges and the seat taken
    other = web.page()
    other.goto(web.hall.base + "/")
    other.wait_for_selector("body[data-ready='1']")
    other.locator("[data-act='guest']").click()
    row = other.locator(f".table-row[data-table='{table_id}']")
    row.wait_for()
    assert "1/4 人" in row.inner_text() and name in row.inner_text()
    assert {"不吃", "抓铳", "银子", "底 2"} <= set(row.locator(".badge").all_inner_texts())
    # the 银子 history: the starting grant
    page.goto(web.hall.base + "/#/me")
    page.wait_for_selector(".me-page .balance-big")
    ledger = page.locator(".me-page .card").nth(2)
    ledger.locator("tbody tr").first.wait_for()
    assert "初始银子" in ledger.inner_text() and "+1000" in ledger.inner_text()
    page.set_viewport_size(PHONE)
    shot(page, f"my-page-zh-{PHONE['width']}")
