"""银子 tables through the hall: every hand settled in the ledger with its fee, an escape paid
to the players left, balances never below 0; the operator's page and actions."""

from __future__ import annotations

import logging
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hall_harness import INSTANT, Client, Hall, running_hall
from test_server_play import player

from baida.client.play import HandTracker
from baida.server.store.errors import InvalidRequest

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def until(hall: Hall, clients: list[Client], done: Any, rounds: int = 600) -> None:
    for _ in range(rounds):
        await hall.quiet(clients)
        if done():
            return
    raise AssertionError("not done")


def escaping(play: Any) -> Any:
    """Plays like ``play``, and escapes (leaves mid-match) after the second hand."""

    async def on_message(client: Client, message: dict[str, Any]) -> None:
        if message["type"] == "hand_result" and message["number"] == 2:
            await client.send({"type": "stand", "escape": True})
            return
        await play(client, message)

    return on_message


async def test_silver_hands_are_settled_with_fees_and_an_escape_pays_the_rest(
    tmp_path: Path,
) -> None:
    async with running_hall(tmp_path, starting_balance=400) as hall:
        host = await Client(hall).guest()
        r = await host.post("/api/tables", {
            "ruleset": "jiaxing", "hands": 4, "timing": INSTANT, "stakes": "silver",
            "base": 5, "fee": 3, "escape_penalty": 30,
        })
        assert r.status_code == 201, r.text
        table_id = r.json()["table"]["id"]
        people = []
        for seat in range(3):
            c = host if seat == 0 else await Client(hall).guest()
            play = player(HandTracker())
            c.on_message = play if seat < 2 else escaping(play)
            await c.open(table_id)
            await c.send({"type": "sit", "seat": seat})
            people.append(c)
        await hall.quiet(people)
        await host.send({"type": "add_bots"})
        for c in people:
            await c.send({"type": "ready"})
        escaper = people[2]
        await until(hall, people, lambda: any(m["match_over"]
                                               for m in host.of_type("hand_result")))
        store = hall.runtime.store
        assert store.ledger.check().ok
        results = host.of_type("hand_result")
        assert len(results) == 4
        for result in results:
            silver = result["silver"]
            assert silver is not None and len(silver) == 4
            assert silver[3]["fee"] == 0 and silver[3]["balance"] is None  # the bot
            assert silver[0]["balance"] is not None and silver[1]["balance"] is None
        ids = [c.me["id"] for c in people]
        balances = [store.ledger.balance(i) for i in ids]
        assert all(b >= 0 for b in balances)
        # every person's balance is the start plus their entries
        for uid, balance in zip(ids, balances, strict=True):
            entries = store.ledger.history(uid, limit=200)
            assert balance == 400 + sum(e.amount for e in entries if e.kind != "grant")
        penalties = [e for e in store.ledger.history(ids[2], limit=200) if e.kind == "penalty"]
        assert penalties, [m for m in escaper.log if m["type"] in ("refused", "error")]
        assert penalties[0].amount == -30
        comp = [e for i in ids[:2] for e in store.ledger.history(i, limit=200)
                if e.kind == "compensation"]
        assert sum(e.amount for e in comp) > 0
        totals = store.ledger.totals()
        assert totals.entries_sum == 0
        # the escaper's seat was played by a bot after the escape
        later = [r for r in results if r["number"] > results[0]["number"] + 2]
        assert all(r["silver"][2]["fee"] == 0 for r in later)
        for c in people:
            await c.close()


async def test_the_operator_sees_and_acts(tmp_path: Path,
                                          caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="baida")
    async with running_hall(tmp_path) as hall:
        store = hall.runtime.store
        player_ = await Client(hall).guest()
        boss = Client(hall)
        r = await boss.http.post("/api/register", json={"name": "老板", "password": "long enough"})
        boss.me = r.json()["me"]
        store.accounts.set_role(boss.me["id"], "admin")
        r = await player_.post("/api/tables", {"ruleset": "wenling", "hands": 1})
        table_id = r.json()["table"]["id"]
        assert (await player_.http.get("/admin")).status_code == 403
        assert (await player_.http.get("/api/admin")).status_code == 403
        page = await boss.http.get("/admin")
        assert page.status_code == 200 and "老板" in page.text and 'name="csrf"' in page.text
        overview = (await boss.http.get("/api/admin")).json()
        assert overview["ledger_ok"] and any(t["id"] == table_id for t in overview["tables"])
        # forms need the token
        no = await boss.http.post("/admin/suspend", data={"id": str(player_.me["id"])})
        assert no.status_code == 403
        csrf = boss.me["csrf"]
        # what a click cannot take back (close, suspend, grant) needs its 确认 box ticked: the
        # page's forms have it (required), and a form without it changes nothing
        assert page.text.count('name="sure" required') == 2 * 2 + 1  # 2 players, 1 table
        target = {"id": str(player_.me["id"]), "csrf": csrf}
        for action, extra in (("grant", {"amount": "250", "nonce": "n0"}), ("suspend", {}),
                              ("close_table", {"id": str(table_id)})):
            unsure = await boss.http.post(f"/admin/{action}", data={**target, **extra})
            # a form is answered with a page saying what was refused (a browser would show
            # JSON as it is), the way back to the admin page on it
            assert unsure.status_code == 400 and "text/html" in unsure.headers["content-type"]
            assert f"{action}: tick 确认 (sure) to do it" in unsure.text
            assert 'href="/admin"' in unsure.text
        assert store.ledger.balance(player_.me["id"]) == 1000
        assert hall.runtime.hall.get(table_id) is not None
        assert (await player_.http.get("/api/me")).status_code == 200
        # nor does an operator suspend their own account, by form or by JSON
        own = await boss.http.post("/admin/suspend", data={"id": str(boss.me["id"]),
                                                          "csrf": csrf, "sure": "on"})
        assert own.status_code == 400 and "does not suspend their own account" in own.text
        bad = await boss.http.post("/admin/grant", data={**target, "amount": "<b>x</b>",
                                                         "sure": "on"})
        assert bad.status_code == 400 and "id and amount are whole numbers" in bad.text
        assert "<b>x" not in bad.text
        own = await boss.post("/api/admin/suspend", {"id": boss.me["id"]})
        assert own.json()["code"] == "own_account"  # JSON is answered with JSON
        assert own.status_code == 400 and not store.accounts.get(boss.me["id"]).suspended
        ok = await boss.http.post("/admin/grant", data={**target, "amount": "250",
                                                        "nonce": "n1", "sure": "on"})
        assert ok.status_code == 303
        again = await boss.http.post("/admin/grant", data={**target, "amount": "250",
                                                           "nonce": "n1", "sure": "on"})
        assert again.status_code == 303
        assert store.ledger.balance(player_.me["id"]) == 1000 + 250  # a resubmitted form: once
        await boss.http.post("/admin/close_table", data={"id": str(table_id), "csrf": csrf,
                                                         "sure": "on"})
        assert hall.runtime.hall.get(table_id) is None
        await boss.http.post("/admin/suspend", data={**target, "sure": "on"})
        assert (await player_.http.get("/api/me")).status_code == 401
        # the log says what the operator did, and who: the grant once (its form came twice)
        done = [(r.event, getattr(r, "admin", None)) for r in caplog.records
                if getattr(r, "event", None) in ("grant", "close_table", "suspend")]
        assert done == [("grant", boss.me["id"]), ("close_table", boss.me["id"]),
                        ("suspend", boss.me["id"])], done
        await player_.close()
        await boss.close()


async def test_the_operator_finds_a_player_by_name_and_pages_through_the_rest(
    tmp_path: Path,
) -> None:
    """A hall soon has thousands of guests: the page shows 100 players at a time with a link to
    the next 100, and finds a player by any part of the name (the one a report names)."""
    import re

    async with running_hall(tmp_path) as hall:
        store = hall.runtime.store
        boss = Client(hall)
        r = await boss.http.post("/api/register", json={"name": "老板", "password": "long enough"})
        boss.me = r.json()["me"]
        store.accounts.set_role(boss.me["id"], "admin")
        for _ in range(120):
            store.accounts.create_guest()
        rude = store.accounts.register("Rude_Player", "a long password")
        first = (await boss.http.get("/api/admin")).json()
        assert len(first["players"]) == 100 and first["next_after"] is not None
        rest = (await boss.http.get(f"/api/admin?after={first['next_after']}")).json()
        assert rest["next_after"] is None
        seen = [p["id"] for p in first["players"] + rest["players"]]
        assert len(seen) == 122 and seen == sorted(seen) and rude.id in seen
        page = (await boss.http.get("/admin")).text
        link = re.search(r'href="/admin\?(after=\d+)"', page)
        assert link is not None and "下一页" in page
        assert "Rude_Player" in (await boss.http.get(f"/admin?{link.group(1)}")).text
        found = (await boss.http.get("/api/admin", params={"q": "rude_"})).json()
        assert [p["name"] for p in found["players"]] == ["Rude_Player"]
        assert found["query"] == "rude_" and found["next_after"] is None
        page = (await boss.http.get("/admin", params={"q": "rude"})).text
        assert "Rude_Player" in page and "游客" not in page and 'value="rude"' in page
        hostile = (await boss.http.get("/admin", params={"q": '"><script>x'})).text
        assert "<script>x" not in hostile and "没有 none" in hostile
        long = await boss.http.get("/api/admin", params={"q": "x" * 41})
        assert long.status_code == 400 and "at most 40" in long.json()["error"]
        await boss.close()


async def test_the_house_bonus_to_winners_is_refused_at_a_silver_table(tmp_path: Path) -> None:
    """At a 银子 table a hand's payments must sum to 0: a table with the house's bonus to every
    winner (``winner_bonus_points``) could not pay its first win and stood still. Refused, by
    name; a 积分 table keeps it, and the operator's standing tables are checked the same way."""
    from baida.server.tables.config import ConfigError
    from baida.server.tables.standing import StandingTables

    bonus = {"options": {"winner_bonus_points": 1}}
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        r = await host.post("/api/tables", {"ruleset": "jiaxing", "hands": 1, "stakes": "silver",
                                            "fee": 1, **bonus})
        assert r.status_code == 400, r.text
        assert "winner_bonus_points" in r.json()["error"]
        assert "银子" in r.json()["error"]
        r = await host.post("/api/tables", {"ruleset": "jiaxing", "hands": 1, **bonus})
        assert r.status_code == 201, r.text
        assert r.json()["table"]["options"]["winner_bonus_points"] == 1
        await host.http.aclose()
    with pytest.raises(ConfigError, match="standing tables: options.winner_bonus_points"):
        StandingTables("jiaxing", 1, extra=bonus).config(True)
    assert StandingTables("jiaxing", 1, stakes="points", extra=bonus).config(True).options[
        "winner_bonus_points"] == 1


class CountingStore:
    """The table's store, counting the attempts to store a hand's end."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.finishes: Counter[int] = Counter()  # hand id -> times its end was sent

        self.refused = False
        self.failed_writes = 0  # the closing's first write fails once, after the refusal

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def call(self, op: str, *args: Any, **kwargs: Any) -> Any:
        if op == "hands.finish":
            self.finishes[args[0]] += 1
        try:
            return await self.inner.call(op, *args, **kwargs)
        except InvalidRequest:
            self.refused = True
            raise

    async def write(self, fn: Any, *args: Any) -> Any:
        if self.refused and not self.failed_writes:
            self.failed_writes += 1
            raise OSError("disk I/O error (a test's failing store)")
        return await self.inner.write(fn, *args)


async def test_a_stored_table_whose_settlement_the_ledger_refuses_closes_and_voids_the_hand(
    tmp_path: Path,
) -> None:
    """A 银子 table stored before the bonus was refused (made here past the check) cannot pay
    its first win: the ledger refuses payments that do not sum to 0, which no retry changes.
    The table tried again for ever, standing still (``storage_down``), its players held
    there. It now closes at once (``broken``), the hand voided: nobody pays it, the ledger
    stays sound, and nothing is tried again. The closing's own first write fails here: it is
    tried again, and the table closes then."""
    from baida.server.tables.actor import CLOSED
    from baida.server.tables.config import TableConfig

    async with running_hall(tmp_path, starting_balance=400) as hall:
        me = await Client(hall).guest()
        cfg = TableConfig.from_json({
            "ruleset": "jiaxing", "hands": 8, "stakes": "silver", "base": 1, "fee": 1,
            "timing": INSTANT, "options": {"winner_bonus_points": 1}})
        actor = await hall.runtime.hall._create(cfg, None, player_made=False)
        store = CountingStore(actor.db)
        actor.db = store
        me.on_message = player(HandTracker())
        await me.open(actor.id)
        await me.send({"type": "sit", "seat": 0})
        await hall.quiet([me])
        await me.send({"type": "add_bots"})
        await me.send({"type": "ready"})
        for _ in range(300):
            await hall.advance(5.0, [me])
            if actor.status == CLOSED:
                break
        assert actor.status == CLOSED, [m["code"] for m in me.of_type("notice")]
        assert me.last("error")["code"] == "broken", me.last("error")
        assert me.closed and store.failed_writes == 1
        assert not me.of_type("notice")  # never told to wait for a store that will not take it
        attempts = dict(store.finishes)
        await hall.advance(60.0, [me])
        assert store.finishes == attempts  # tried no more
        db = hall.runtime.store
        assert db.tables.get(actor.id).status == "closed"
        refused = max(attempts)  # the first win (hands with no winner pay nothing: stored)
        assert attempts[refused] == 1 and db.hands.get(refused).status == "voided"
        assert all(db.hands.get(h).status == "ended" for h in attempts if h != refused)
        assert db.ledger.check().ok
        assert refused not in {e.hand_id for e in db.ledger.history(me.me["id"], limit=200)}
        await me.close()
