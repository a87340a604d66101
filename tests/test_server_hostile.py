"""Hostile clients: malformed, oversized, replayed, stale and out-of-turn messages, actions in
another seat's name, floods, strangers. Each is refused, the table is unchanged and nobody
else hears of it."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from hall_harness import INSTANT, Client, Hall, running_hall
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from baida.server.tables.connection import MAX_STRIKES
from baida.server.web.limits import NAME_FAILURES

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def four_at_a_table(hall: Hall, ruleset: str = "jiaxing") -> tuple[int, list[Client]]:
    host = await Client(hall).guest()
    r = await host.post("/api/tables", {"ruleset": ruleset, "hands": 1, "timing": INSTANT})
    table_id = r.json()["table"]["id"]
    clients = []
    for seat in range(4):
        c = host if seat == 0 else await Client(hall).guest()
        await c.open(table_id)
        await c.send({"type": "sit", "seat": seat})
        clients.append(c)
    await hall.quiet(clients)
    for c in clients:
        await c.send({"type": "ready"})
    await hall.quiet(clients)
    return table_id, clients


def table_state(hall: Hall, table_id: int) -> Any:
    actor = hall.runtime.hall.get(table_id)
    rnd = actor.driver.round
    return rnd.view(None).to_json(), len(rnd.actions), dict(actor.driver.prompts)


async def test_bad_messages_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        table_id, clients = await four_at_a_table(hall)
        actor = hall.runtime.hall.get(table_id)
        rnd = actor.driver.round
        turn = rnd.turn
        mover = clients[turn]
        prompt = mover.last("prompt")
        idle = clients[(turn + 1) % 4]
        before = table_state(hall, table_id)
        heard = [len(c.log) for c in clients]
        legal = prompt["actions"][0]
        cases: list[tuple[Client, Any, str]] = [
            (mover, "not json at all", "malformed"),
            (mover, b"\x00\x01binary", "malformed"),
            (mover, json.dumps({"type": "ping", "id": "x" * 5000}), "too_large"),
            (mover, {"type": "nonsense"}, "malformed"),
            (mover, {"type": "hello", "protocol": 1}, "protocol"),
            (mover, {"type": "act", "seq": prompt["seq"] + 1, "action": legal}, "stale"),
            (mover, {"type": "act", "seq": prompt["seq"], "action": {"type": "pon"}},
             "not_offered"),
            (mover, {"type": "act", "seq": prompt["seq"],
                     "action": {**legal, "seat": (turn + 1) % 4}}, "malformed"),
            (idle, {"type": "act", "seq": prompt["seq"], "action": legal}, "no_prompt"),
            (idle, {"type": "act", "seq": 1, "action": {"type": "pass"}}, "no_prompt"),
            (idle, {"type": "sit", "seat": 0}, "not_allowed/playing"),
            (idle, {"type": "stand"}, "not_allowed/escape_to_leave"),
            (idle, {"type": "start"}, "not_allowed/host_starts"),
        ]
        for client, message, code in cases:  # code/reason, where a code covers several cases
            await client.send(message)
            await hall.quiet(clients)
            refusal = client.last("refused")
            reason = refusal["reason"]
            assert refusal["code"] + (f"/{reason}" if reason else "") == code, (message, refusal)
            client.log.remove(refusal)
            assert table_state(hall, table_id) == before, message
        # nobody else heard a thing (but the answers to their own pings)
        assert [len(c.log) for c in clients] == heard
        # the real answer still works, once; replaying it is stale
        await mover.send({"type": "act", "seq": prompt["seq"], "action": legal, "id": "a1"})
        await hall.quiet(clients)
        assert mover.last("ack") == {"type": "ack", "seq": prompt["seq"], "id": "a1"}
        after = table_state(hall, table_id)
        assert after[1] == before[1] + 1
        await mover.send({"type": "act", "seq": prompt["seq"], "action": legal})
        await hall.quiet(clients)
        assert mover.last("refused")["code"] in ("stale", "no_prompt")
        for c in clients:
            await c.close()


async def test_a_flood_is_refused_then_disconnected(tmp_path: Path) -> None:
    async with running_hall(tmp_path, client_rate=60.0) as hall:
        table_id, clients = await four_at_a_table(hall)
        flooder = clients[1]
        before = table_state(hall, table_id)
        for _ in range(600):
            try:
                await flooder.send({"type": "ping", "id": "f"})
            except Exception:
                break
        for _ in range(100):
            await asyncio.sleep(0)
        await hall.quiet(clients[:1] + clients[2:])
        await asyncio.wait_for(flooder.reader, 10)
        codes = [m.get("code") for m in flooder.log if m["type"] in ("refused", "error")]
        assert "rate_limited" in codes and codes[-1] == "misbehaving"
        assert flooder.closed
        state = table_state(hall, table_id)
        assert state[:2] == before[:2]
        # the table played on for the others: the flooder's seat is on 托管
        actor = hall.runtime.hall.get(table_id)
        assert actor.driver.modes[1].value == "auto"
        for c in clients:
            await c.close()


async def test_acts_refused_again_and_again_disconnect(tmp_path: Path) -> None:
    """Stale and out-of-turn acts are bad messages too: MAX_STRIKES of them in a row close the
    connection; the rest of the table plays on. (Spread over more than STRIKE_WINDOW they
    never add up: test_server_socket.)"""
    async with running_hall(tmp_path, client_rate=1000.0) as hall:
        table_id, clients = await four_at_a_table(hall)
        actor = hall.runtime.hall.get(table_id)
        turn = actor.driver.round.turn
        rogue = clients[(turn + 2) % 4]
        for _ in range(MAX_STRIKES):
            await rogue.send({"type": "act", "seq": 1, "action": {"type": "pass"}})
        await asyncio.wait_for(rogue.reader, 10)
        codes = [m.get("code") for m in rogue.log if m["type"] in ("refused", "error")]
        assert codes.count("no_prompt") == MAX_STRIKES and codes[-1] == "misbehaving"
        assert rogue.closed
        assert not any(c.closed for c in clients if c is not rogue)
        for c in clients:
            await c.close()


async def turned_away(ws: Any, code: str, close_code: int) -> None:
    """The hall says why, then closes with ``close_code``."""
    message = json.loads(await ws.recv())
    assert message["type"] == "error" and message["code"] == code
    with pytest.raises(ConnectionClosed):
        await ws.recv()
    assert ws.close_code == close_code


async def test_strangers_are_turned_away(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        table_id, clients = await four_at_a_table(hall)
        url = f"{hall.ws_base}/ws/tables/{table_id}"
        # no session
        async with connect(url) as ws:
            await turned_away(ws, "unauthorized", 4401)
        cookie = "; ".join(f"{k}={v}" for k, v in clients[0].http.cookies.items())
        # another site's page
        async with connect(url, additional_headers={"Cookie": cookie},
                           origin="https://evil.example") as ws:
            await turned_away(ws, "origin", 4403)
        # a forged cookie
        async with connect(url, additional_headers={"Cookie": "baida_session=forged"}) as ws:
            await turned_away(ws, "unauthorized", 4401)
        # no such table
        async with connect(f"{hall.ws_base}/ws/tables/999999",
                           additional_headers={"Cookie": cookie}) as ws:
            await turned_away(ws, "no_table", 4404)
        # the wrong protocol version
        other = await Client(hall).guest()
        await other.open(table_id, hello=False)
        await other.send({"type": "hello", "protocol": 99})
        await asyncio.wait_for(other.reader, 10)
        assert other.log[-1]["type"] == "error" and other.log[-1]["code"] == "version"
        # a frame beyond the hard limit closes the connection; the table is unharmed
        before = table_state(hall, table_id)
        big = await Client(hall).guest()
        await big.open(table_id)
        await big.send("x" * 100_000)
        await asyncio.wait_for(big.reader, 10)
        assert big.closed and table_state(hall, table_id) == before
        for c in [*clients, other, big]:
            await c.close()


async def test_the_lobby_checks_csrf_and_origin(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        ok = await me.post("/api/tables", {"ruleset": "wenling", "hands": 1})
        assert ok.status_code == 201
        no_token = await me.http.post("/api/tables", json={"ruleset": "wenling", "hands": 1})
        assert no_token.status_code == 403 and "CSRF" in no_token.json()["error"]
        evil = await me.http.post("/api/tables", json={"ruleset": "wenling", "hands": 1},
                                  headers={**me.headers(), "Origin": "https://evil.example"})
        assert evil.status_code == 403
        # the hall's own host and port under a scheme no page of it is served over
        own = hall.base.split("://", 1)[1]
        for scheme in ("evil", "file", "chrome-extension"):
            odd = await me.http.post("/api/tables", json={"ruleset": "wenling", "hands": 1},
                                     headers={**me.headers(), "Origin": f"{scheme}://{own}"})
            assert odd.status_code == 403, scheme
        for scheme in ("http", "https"):  # a proxy may end TLS: either is the hall's
            fine = await me.http.post("/api/tables", json={"ruleset": "wenling", "hands": 1},
                                      headers={**me.headers(), "Origin": f"{scheme}://{own}"})
            assert fine.status_code == 201, (scheme, fine.text)
        bad = await me.post("/api/tables", {"ruleset": "wenling", "hands": 1, "base": -5})
        assert bad.status_code == 400 and "base" in bad.json()["error"]
        unknown = await me.post("/api/tables", {"ruleset": "wenling", "cheat": True})
        assert unknown.status_code == 400 and "cheat" in unknown.json()["error"]
        garbage = await me.http.post("/api/tables", content=b"{nope",
                                     headers={**me.headers(), "Content-Type": "application/json"})
        assert garbage.status_code == 400
        missing = await me.http.get("/api/hands/123456/record")
        assert missing.status_code == 404
        await me.close()


async def test_logins_are_rate_limited(tmp_path: Path) -> None:
    """Wrong passwords from a browser that never signed in to the name close the name to
    unknown browsers, the right password included (the account's own browsers: see
    test_server_accounts)."""
    async with running_hall(tmp_path) as hall:
        owner = Client(hall)
        r = await owner.http.post("/api/register",
                                  json={"name": "小明", "password": "correct horse"})
        assert r.status_code == 201, r.text
        stranger = Client(hall)
        codes = []
        for _ in range(NAME_FAILURES + 2):
            r = await stranger.http.post("/api/login",
                                         json={"name": "小明", "password": "wrong!!!"})
            codes.append(r.status_code)
        assert codes == [401] * NAME_FAILURES + [429, 429]
        assert r.json()["code"] == "name_limited" and int(r.headers["Retry-After"]) > 0
        r = await stranger.http.post("/api/login",
                                     json={"name": "小明", "password": "correct horse"})
        assert r.status_code == 429  # still closed to this unknown browser for a while
        await owner.http.aclose()
        await stranger.http.aclose()


async def test_table_chat_phrases_text_and_limits(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        table_id, clients = await four_at_a_table(hall)
        watcher = await Client(hall).guest()
        await watcher.open(table_id)
        await hall.quiet([*clients, watcher])
        await clients[0].send({"type": "chat", "phrase": "hello"})
        await hall.quiet([*clients, watcher])
        said = watcher.last("chat")
        assert said["phrase"] == "hello" and said["seat"] == 0 and said["text"] is None
        hall.clock.advance(2.0)
        await clients[1].send({"type": "chat", "text": "  你好\u0000\u200b世界  "})
        await hall.quiet([*clients, watcher])
        assert clients[0].last("chat")["text"] == "你好世界"
        # one a second: the second message at once is refused, nobody hears it
        await clients[1].send({"type": "chat", "text": "again"})
        await hall.quiet([*clients, watcher])
        assert clients[1].last("refused")["code"] == "rate_limited"
        assert watcher.last("chat")["text"] == "你好世界"
        for bad, code in [({"type": "chat", "phrase": "nope"}, "malformed"),
                          ({"type": "chat", "text": "x" * 81}, "malformed"),
                          ({"type": "chat", "text": "a", "phrase": "hello"}, "malformed")]:
            hall.clock.advance(2.0)
            await clients[2].send(bad)
            await hall.quiet([*clients, watcher])
            assert clients[2].last("refused")["code"] == code
        await watcher.send({"type": "chat", "text": "spectator here"})
        await hall.quiet([*clients, watcher])
        assert watcher.last("refused")["code"] == "not_allowed"
        assert watcher.last("refused")["reason"] == "spectator_chat"
        phrases = (await watcher.http.get("/api/phrases")).json()["phrases"]
        assert phrases["hello"]["zh"] and phrases["hello"]["en"]
        for c in [*clients, watcher]:
            await c.close()


async def test_a_report_reaches_the_operator_with_the_reported_words_and_no_one_else(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Strangers share a table: a person reports another to the operator (a log line with both
    accounts and the reported person's last words at that table, a metric); the reporter is
    answered ``reported``, nobody else hears of it; reporting oneself, an empty seat, or the
    same person again at once is refused."""
    caplog.set_level(logging.WARNING, logger="baida")
    async with running_hall(tmp_path) as hall:
        table_id, clients = await four_at_a_table(hall)
        watcher = await Client(hall).guest()
        await watcher.open(table_id)
        await hall.quiet([*clients, watcher])
        for words in ("难听的话", "更难听的话"):
            await clients[1].send({"type": "chat", "text": words})
            await hall.quiet([*clients, watcher])
            hall.clock.advance(2.0)
        await clients[1].send({"type": "chat", "phrase": "hurry"})
        await hall.quiet([*clients, watcher])
        before = {id(c): len(c.log) for c in [*clients, watcher]}
        await clients[0].send({"type": "report", "seat": 1})
        await hall.quiet([*clients, watcher])
        assert clients[0].last("reported") == {"type": "reported", "seat": 1}
        for c in [*clients[1:], watcher]:  # nobody else is told anything
            assert c.log[before[id(c)]:] == []
        reports = [r for r in caplog.records if getattr(r, "event", None) == "report"]
        assert len(reports) == 1
        report = reports[0]
        assert (report.table, report.user, report.reporter) == (
            table_id, clients[1].me["id"], clients[0].me["id"])
        assert report.chat == ["难听的话", "更难听的话", "[hurry]"]
        metrics = (await watcher.http.get("/metrics")).text
        assert "baida_reports_total 1.0" in metrics
        # the operator's page lists it, with the words
        hall.runtime.store.accounts.set_role(clients[3].me["id"], "admin")
        listed = (await clients[3].http.get("/api/admin")).json()["reports"]
        assert [(r["table"], r["user"], r["reporter"], r["chat"]) for r in listed] == [
            (table_id, clients[1].me["id"], clients[0].me["id"],
             ["难听的话", "更难听的话", "[hurry]"])]
        page = (await clients[3].http.get("/admin")).text
        assert "举报 Reports" in page and "难听的话 / 更难听的话 / [hurry]" in page
        # a watcher may report too; oneself, or the same person again at once, is refused
        await watcher.send({"type": "report", "seat": 1})
        await hall.quiet([*clients, watcher])
        assert watcher.last("reported")["seat"] == 1
        for sender, seat, reason in ((clients[2], 2, "report_self"),
                                     (clients[0], 1, "report_again")):
            await sender.send({"type": "report", "seat": seat})
            await hall.quiet([*clients, watcher])
            assert sender.last("refused")["reason"] == reason
        hall.clock.advance(601.0)  # later, the same pair may report again
        await clients[0].send({"type": "report", "seat": 1})
        await hall.quiet([*clients, watcher])
        assert len([r for r in caplog.records if getattr(r, "event", None) == "report"]) == 3
        assert len(hall.runtime.store.reports.newest()) == 3
        await clients[0].send({"type": "report", "seat": 5})
        await hall.quiet([*clients, watcher])
        assert clients[0].last("refused")["code"] in ("malformed", "protocol")
        # the operator marks one handled (a form of the page): the page then lists the open
        # ones, and all of them with who handled which when asked; opened again by mistake
        boss, csrf = clients[3], clients[3].me["csrf"]
        newest = (await boss.http.get("/api/admin")).json()
        assert newest["open_reports"] == 3 and newest["reports_shown"] == "open"
        first = newest["reports"][-1]["id"]
        done = await boss.http.post("/admin/handle_report", data={"id": str(first),
                                                                  "csrf": csrf})
        assert done.status_code == 303 and done.headers["location"] == "/admin"
        listed = (await boss.http.get("/api/admin")).json()
        assert listed["open_reports"] == 2 and first not in [r["id"] for r in listed["reports"]]
        every = (await boss.http.get("/api/admin?reports=all")).json()["reports"]
        handled = next(r for r in every if r["id"] == first)
        assert (handled["handled_by"], handled["handled_by_name"]) == (
            boss.me["id"], boss.me["name"]) and handled["handled_at"]
        page = (await boss.http.get("/admin?reports=all")).text
        assert "重新打开 reopen" in page and page.count("已处理 handled</button>") == 2
        again = await boss.http.post("/admin/reopen_report", data={
            "id": str(first), "csrf": csrf, "shown": "all"})
        assert again.headers["location"] == "/admin?reports=all"
        assert (await boss.http.get("/api/admin")).json()["open_reports"] == 3
        missing = await boss.post("/api/admin/handle_report", {"id": 10**9})
        assert missing.status_code == 404
        player = await clients[0].post("/api/admin/handle_report", {"id": first})
        assert player.status_code == 403  # operators only
        audit = [(r.event, r.report, r.admin) for r in caplog.records
                 if getattr(r, "event", None) in ("handle_report", "reopen_report")]
        assert audit == [("handle_report", first, boss.me["id"]),
                         ("reopen_report", first, boss.me["id"])]
        for c in [*clients, watcher]:
            await c.close()


async def test_the_operators_words_are_masked_for_everyone_and_quoted_to_the_operator(
    tmp_path: Path,
) -> None:
    """With ``--chat-filter``, a listed word reaches every seat and watcher masked (its
    writer too, so nobody learns the list by trying); a report still quotes what was
    written; the masked messages are counted; a word added to the file is in use within ten
    seconds, without a restart; a name may not hold a listed word."""
    words = tmp_path / "words.txt"
    words.write_text("# the hall's list\n傻逼\nidiot\n", encoding="utf-8")
    async with running_hall(tmp_path / "hall", chat_filter=words) as hall:
        table_id, clients = await four_at_a_table(hall)
        watcher = await Client(hall).guest()
        await watcher.open(table_id)
        await hall.quiet([*clients, watcher])
        await clients[1].send({"type": "chat", "text": "你真是个傻 逼, I.D.I.O.T!"})
        await hall.quiet([*clients, watcher])
        for c in [*clients, watcher]:
            assert c.last("chat")["text"] == "你真是个***, *********!", c.me["name"]
        hall.clock.advance(2.0)
        await clients[1].send({"type": "chat", "text": "好牌"})
        await hall.quiet([*clients, watcher])
        assert watcher.last("chat")["text"] == "好牌"
        # the operator adds a word: in use within ten seconds, no restart
        words.write_text("傻逼\nidiot\n好牌\n", encoding="utf-8")
        hall.clock.advance(11.0)
        await clients[2].send({"type": "chat", "text": "好牌!"})
        await hall.quiet([*clients, watcher])
        assert watcher.last("chat")["text"] == "**!"
        await clients[0].send({"type": "report", "seat": 1})
        await hall.quiet([*clients, watcher])
        [report] = hall.runtime.store.reports.newest()
        assert report.chat == ["你真是个傻 逼, I.D.I.O.T!", "好牌"]
        metrics = (await watcher.http.get("/metrics")).text
        assert "baida_chat_masked_total 2.0" in metrics
        # nor may a name hold a listed word: everyone at a table reads it
        r = await Client(hall).http.post("/api/register", json={
            "name": "IDIOT_1", "password": "long enough"})
        assert r.status_code == 400 and r.json()["code"] == "name_not_allowed"
        r = await watcher.http.post("/api/register", json={"name": "傻逼王", "password": "long "
                                    "enough"}, headers=watcher.headers())
        assert r.status_code == 400 and r.json()["code"] == "name_not_allowed"
        assert (await watcher.http.get("/api/me")).json()["me"]["guest"]  # still a guest
        r = await clients[0].http.patch("/api/me", json={"name": "ｉｄｉｏｔ"},
                                        headers=clients[0].headers())
        assert r.status_code == 400 and r.json()["code"] == "name_not_allowed"
        r = await clients[0].http.patch("/api/me", json={"name": "好人"},
                                        headers=clients[0].headers())
        assert r.status_code == 200 and r.json()["me"]["name"] == "好人"
        for c in [*clients, watcher]:
            await c.close()


def test_an_account_files_at_most_ten_reports_an_hour_at_all_the_tables() -> None:
    """A pair's limit is per table: moving between tables, one person's accounts could file
    reports without end and bury the real ones on the operator's page."""
    from baida.server.tables.chat import REPORTS_PER_HOUR, ReportQuota

    now = [0.0]
    quota = ReportQuota(lambda: now[0])
    assert REPORTS_PER_HOUR == 10
    for _ in range(10):
        assert quota.take(7)
        now[0] += 60.0
    assert not quota.take(7) and quota.take(8)  # another account has its own
    now[0] = 3600.0  # the first report is an hour old: one more
    assert quota.take(7) and not quota.take(7)


def test_the_nodes_of_a_hall_count_reports_in_one_quota() -> None:
    """Each node kept its own quota: with two nodes an account filed twenty reports an hour.
    The hall's count (Redis, ``hit``) is asked too; while it cannot say, the node's own."""
    from baida.server.tables.chat import ReportQuota

    class Counts:
        def __init__(self) -> None:
            self.counts: dict[str, int] = {}
            self.out = False

        def hit(self, name: str, window: float) -> int | None:
            if self.out:
                return None
            assert window == 3600.0
            self.counts[name] = self.counts.get(name, 0) + 1
            return self.counts[name]

    shared = Counts()
    nodes = [ReportQuota(lambda: 0.0) for _ in range(2)]
    for node in nodes:
        node.shared = shared
    assert [nodes[i % 2].take(7) for i in range(12)] == [True] * 10 + [False] * 2
    shared.out = True  # Redis out: each node counts its own
    assert [nodes[0].take(8) for _ in range(11)] == [True] * 10 + [False]


async def test_every_table_of_the_hall_counts_reports_in_one_quota(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        ids = []
        for _ in range(2):
            r = await host.post("/api/tables", {"ruleset": "jiaxing", "hands": 1})
            ids.append(r.json()["table"]["id"])
        quotas = {id(hall.runtime.hall.get(i).report_quota) for i in ids}
        assert quotas == {id(hall.runtime.hall.report_quota)}
        await host.close()
