"""The table page when its table is away for a moment (its node restarting, or moving): the
hall answers 1013 ``try_again`` (the table is open in the store but not played where the
socket landed) and the page tries again instead of saying it does not exist: a page that was
at the table says the table is moving, a page that never reached it (a link opened while the
node restarts) says it is looking for it; it joins the table once it is there. A table that
is gone for good (closed, or never made) is 4404 ``no_table``, and the page says it does not
exist. A table whose moves the hall cannot save says so while it waits. In a real browser
against a real hall."""

from __future__ import annotations

from typing import Any

from web_support import Web, enter_as_guest

pytest_plugins = ["web_fixtures"]

MAKE_TABLE = """async () => {
  const me = (await (await fetch('/api/me')).json()).me;
  const r = await fetch('/api/tables', {method: 'POST', body: JSON.stringify({ruleset: 'jiaxing'}),
    headers: {'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf}});
  return (await r.json()).table.id;
}"""

SAID = """([conn, words]) => {
  const s = window.baidaTable && window.baidaTable.state;
  const banner = document.querySelector('.banner-conn');
  return Boolean(s && s.conn === conn && banner && words.some((w) => banner.innerText.includes(w)));
}"""
FINDING = ["finding", ["Looking for", "正在寻找"]]
MOVING = ["moving", ["moving", "转移"]]


def next_table_id(web: Web) -> int:
    return max(web.hall.table_ids()) + 1


def take_away(web: Web, table_id: int) -> Any:
    """Take the table off the hall as when its node restarts (it stays open in the store)."""
    hall = web.hall.runtime.hall
    return web.hall.call(lambda: hall.tables.pop(table_id))


def bring_back(web: Web, table_id: int, actor: Any) -> None:
    hall = web.hall.runtime.hall
    web.hall.call(lambda: hall.tables.__setitem__(table_id, actor))


def test_a_table_that_is_away_is_tried_again_until_it_is_there(web: Web) -> None:
    page: Any = web.page()
    page.add_init_script("window.baidaConfig = {movingMs: [200, 400, 800, 1600, 3200, 6400]}")
    enter_as_guest(page, web.hall.base)
    table_id = page.evaluate(MAKE_TABLE)
    actor = take_away(web, table_id)  # a link opened while the table's node restarts
    page.goto(f"{web.hall.base}/#/table/{table_id}")
    # each try is 'finding' only until its timer opens the next (200 ms at first): the state
    # and the banner are read in the same frame
    page.wait_for_function(SAID, arg=FINDING, timeout=10000)
    assert page.evaluate("window.baidaTable.state.stopped") in (None, False, "")
    bring_back(web, table_id, actor)  # the table is back
    page.wait_for_function("(s => s.conn === 'open' && s.table)(window.baidaTable.state)",
                           timeout=15000)
    assert page.evaluate("window.baidaTable.state.table.id") == table_id
    assert page.locator(".banner-conn").count() == 0
    # the table goes away under the page (as when its node restarts): it is moving now
    actor = take_away(web, table_id)
    page.evaluate("window.baidaTable.socket.drop()")
    page.wait_for_function(SAID, arg=MOVING, timeout=10000)
    bring_back(web, table_id, actor)
    page.wait_for_function("(s => s.conn === 'open' && s.table)(window.baidaTable.state)",
                           timeout=15000)


def test_a_table_that_does_not_exist_is_said_not_to_exist(web: Web) -> None:
    """At once, for a table never made and for an old bookmark of a closed one (the page
    waited out its retries, about 20 s, before the hall told gone from away)."""
    page: Any = web.page()
    page.add_init_script("window.baidaConfig = {movingMs: [5000, 5000, 5000]}")
    enter_as_guest(page, web.hall.base)
    closed = page.evaluate(MAKE_TABLE)
    web.hall.close_tables(keep=web.hall.table_ids() - {closed})
    for table_id in (next_table_id(web) + 1000, closed):
        page.goto(f"{web.hall.base}/#/table/{table_id}")
        page.wait_for_function("window.baidaTable && window.baidaTable.state.conn === 'closed'",
                               timeout=3000)
        stopped = page.evaluate("window.baidaTable.state.stopped")
        assert stopped in ("There is no such table.", "没有这张牌桌。"), (table_id, stopped)
        page.goto(f"{web.hall.base}/#/")


def test_the_table_says_when_the_hall_cannot_save_its_moves(web: Web) -> None:
    """A store that fails: the table stands still (every clock stopped) and the hall tells it
    (``notice`` ``storage_down``); the page said nothing, and a player saw a table that had
    just stopped. It now says why while it lasts, and goes on when the store is back."""
    from test_server_durability import FailingStore
    from web_support import quick_play, wait_prompt

    page = web.page({"width": 375, "height": 740})
    enter_as_guest(page, web.hall.base)
    quick_play(page, "jiaxing")
    table_id = page.evaluate("window.baidaTable.state.table.id")
    actor = web.hall.call(lambda: web.hall.runtime.hall.get(table_id))
    while (prompt := wait_prompt(page)).get("kind") != "turn":
        page.locator(".actions .act").first.click()  # a claim passed (or 三摊 answered)
    store = FailingStore(actor.db)
    web.hall.call(lambda: setattr(actor, "db", store))
    store.down = True
    page.locator(".hand .tile-btn.can").last.click()
    banner = page.locator(".banner-conn", has_text="无法保存")
    banner.wait_for(timeout=15000)
    assert page.evaluate(f"window.baidaTable.state.prompt?.seq === {prompt['seq']}")
    store.down = False
    banner.wait_for(state="detached", timeout=15000)
    page.wait_for_function(f"(p => !p || p.seq !== {prompt['seq']})"
                           "(window.baidaTable.state.prompt)", timeout=15000)
