"""The hall as its operator sees it: the standing tables' numbers, warm bot workers, structured
logs, /metrics and /healthz; and paths of play not covered elsewhere: a player's ledger and a
downloaded record, leaving a seat, starting with bots, an escape in the middle of a hand, the
operator closing a table mid-hand."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hall_harness import INSTANT, Client, Hall, running_hall
from test_server_play import player
from test_server_silver import until

from baida.client.play import HandTracker
from baida.server.ops.logs import JsonFormatter
from baida.server.tables.standing import StandingTables
from baida.server.web.app import create_app
from baida.server.web.settings import HallSettings

pytestmark = pytest.mark.anyio

SILVER = {"stakes": "silver", "base": 5, "fee": 3, "escape_penalty": 30}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def me_and_bots(hall: Hall, me: Client, hands: int = 1, **config: Any) -> int:
    """A table where ``me`` sits at seat 0 with three bots and is ready."""
    r = await me.post("/api/tables", {"ruleset": "jiaxing", "hands": hands, "timing": INSTANT,
                                      **config})
    assert r.status_code == 201, r.text
    table_id = r.json()["table"]["id"]
    await me.open(table_id)
    await me.send({"type": "sit", "seat": 0})
    await hall.quiet([me])
    await me.send({"type": "add_bots"})
    await me.send({"type": "ready"})
    return table_id


def match_over(client: Client) -> bool:
    return any(m["match_over"] for m in client.of_type("hand_result"))


def pending(client: Client) -> list[dict[str, Any]]:
    done = {m["seq"] for m in client.log if m["type"] in ("ack", "prompt_closed")}
    return [p for p in client.of_type("prompt") if p["seq"] not in done]


async def anchor(hall: Hall) -> Client:
    """A spectator at a table of its own: waiting on its pings lets the hall's work (and its
    database writes) finish when the players themselves have gone."""
    c = await Client(hall).guest()
    r = await c.post("/api/tables", {"ruleset": "wenling", "hands": 1})
    await c.open(r.json()["table"]["id"])
    return c


def plays_hands(count: int) -> Any:
    """Plays by the fixed rule for ``count`` hands, then answers nothing (the hand waits)."""
    play = player(HandTracker())

    async def on_message(client: Client, message: dict[str, Any]) -> None:
        if message["type"] == "prompt" and len(client.of_type("hand_result")) >= count:
            return
        await play(client, message)

    return on_message


# ------------------------------------------------------------------ standing tables


async def test_standing_tables_split_chi_by_number_across_each_ruleset(tmp_path: Path) -> None:
    """Seed 000: 前一半桌号允许吃牌，后一半桌号禁止吃牌, over all of a ruleset's numbers."""
    standing = (StandingTables("jiaxing", 4), StandingTables("jiaxing", 2, stakes="points"),
                StandingTables("wenling", 3))
    async with running_hall(tmp_path, standing=standing) as hall:
        me = await Client(hall).guest()
        tables = (await me.http.get("/api/tables")).json()["tables"]
        jiaxing = [t for t in tables if t["ruleset"] == "jiaxing"]
        assert [t["number"] for t in jiaxing] == [1, 2, 3, 4, 5, 6]
        assert [t["options"]["allow_chi"] for t in jiaxing] == [True] * 3 + [False] * 3
        assert ["chi" in t["badges"] for t in jiaxing] == [True] * 3 + [False] * 3
        # each row has tables on both sides of the line
        for stakes in ("silver", "points"):
            assert {t["options"]["allow_chi"] for t in jiaxing if t["stakes"] == stakes} == {
                True, False}
        wenling = [t for t in tables if t["ruleset"] == "wenling"]
        assert [t["number"] for t in wenling] == [1, 2, 3]
        assert all("allow_chi" not in t["options"] for t in wenling)
        # a player's table is numbered after them, whatever its options
        made = await me.post("/api/tables", {"ruleset": "jiaxing", "hands": 1})
        assert made.json()["table"]["number"] == 7
        await me.close()


# ------------------------------------------------------------------ warm-up


async def test_a_started_hall_has_its_bot_workers_warm(tmp_path: Path) -> None:
    settings = HallSettings(host="127.0.0.1", port=0, data_dir=tmp_path, bot_workers=1,
                            warm_up=True, argon2_fast=True, standing=())
    app = create_app(settings)
    runtime = app.state.runtime
    await runtime.start()
    try:
        # before any bot has been asked anything, its process runs and has warmed
        executor = runtime.bots._executor
        assert len(executor._processes) == 1
        assert set(executor._processes) == runtime.bots.pids
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://hall") as http:
            health = (await http.get("/healthz")).json()
        warm = health["warm"]
        assert warm["tables"] and warm["bots"] and warm["bot_workers"] == 1
        assert warm["tables_seconds"] > 0 and warm["bots_seconds"] > 0
    finally:
        await runtime.stop()


async def test_healthz(tmp_path: Path) -> None:
    async with running_hall(tmp_path, standing=(StandingTables("wenling", 2),)) as hall:
        r = await httpx.AsyncClient(base_url=hall.base).get("/healthz")
        assert r.status_code == 200
        health = r.json()
        assert health["ok"] and health["database"] == "ok" and health["tables"] == 2
        # the test hall skips the warm-up and thinks for bots on the event loop
        assert health["warm"] == {"tables": False, "tables_seconds": None, "bot_workers": 0,
                                  "bots": True, "bots_seconds": 0.0}
        assert health["not_ready"] == [] and health["directory"] == "ok"
        http = httpx.AsyncClient(base_url=hall.base)
        assert (await http.get("/healthz/ready")).json() == health
        assert (await http.get("/healthz/live")).json() == {"ok": True, "node": None}

        # the database out: not ready (a proxy sends new players elsewhere), still live
        db = hall.runtime.db

        async def broken(fn: Any, *args: Any) -> Any:
            raise OSError("the database is out")

        original, db.read = db.read, broken
        try:
            r = await http.get("/healthz/ready")
            assert r.status_code == 503 and r.json()["not_ready"] == ["database"]
            assert (await http.get("/healthz")).status_code == 503
            assert (await http.get("/healthz/live")).status_code == 200
        finally:
            db.read = original
        assert (await http.get("/healthz/ready")).status_code == 200
        await http.aclose()


# ------------------------------------------------------------------ logs


class Lines(logging.Handler):
    """The JSON lines the hall would write."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.stream = io.StringIO()
        self.setFormatter(JsonFormatter())

    def emit(self, record: logging.LogRecord) -> None:
        self.stream.write(self.format(record) + "\n")

    def events(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stream.getvalue().splitlines()]


@pytest.fixture
def log_lines() -> Iterator[Lines]:
    handler = Lines()
    logger = logging.getLogger("baida")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


async def test_a_played_hand_logs_json_lines_with_fields(tmp_path: Path,
                                                        log_lines: Lines) -> None:
    # 托管 plays the second hand out at once once the player has gone (no pace floor for a
    # table nobody is at: test_server_pace.py has that)
    async with running_hall(tmp_path, unattended_pace=0.0) as hall:
        me = await Client(hall).guest()
        me.on_message = plays_hands(1)
        table_id = await me_and_bots(hall, me, hands=2)
        await until(hall, [me], lambda: me.of_type("hand_result") and pending(me))
        watcher = await anchor(hall)
        await me.close()  # mid-hand 2: the seat goes to 托管
        await until(hall, [watcher], lambda: hall.runtime.hall.get(table_id).status == "waiting")
        await watcher.close()
        bad = Client(hall)
        r = await bad.http.post("/api/login", json={"name": "nobody", "password": "wrong!!!"})
        assert r.status_code == 401
        await bad.http.aclose()
    events = log_lines.events()
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        assert {"time", "level", "logger", "message"} <= set(e)
        by_kind.setdefault(e.get("event", ""), []).append(e)
    uid = me.me["id"]
    opened = by_kind["table_opened"]
    assert [(e["table"], e["ruleset"], e["private"]) for e in opened][0] == (
        table_id, "jiaxing", False)
    starts = [e for e in by_kind["hand_start"] if e["table"] == table_id]
    ends = [e for e in by_kind["hand_end"] if e["table"] == table_id]
    assert [e["number"] for e in starts] == [1, 2] and len(ends) == 2
    hands = [e["hand"] for e in starts]
    assert [e["hand"] for e in ends] == hands and all(isinstance(h, int) for h in hands)
    for e in starts + ends:
        assert e["table"] == table_id and e["users"] == [uid, None, None, None]
    assert ends[0]["outcome"] in ("win", "draw") and ends[0]["voided"] is False
    assert sum(ends[0]["payments"]) == 0
    auto = by_kind["seat_auto"]
    assert [(e["table"], e["hand"], e["seat"], e["user"], e["reason"]) for e in auto] == [
        (table_id, hands[1], 0, uid, "offline")]
    assert by_kind["login_failed"][0]["login"] == "nobody"
    assert by_kind["login_failed"][0]["address"] == "127.0.0.1"


def test_logs_are_json_unless_stderr_is_a_terminal() -> None:
    from baida.server.ops.logs import fields, resolve_format

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert resolve_format("auto", io.StringIO()) == "json"
    assert resolve_format("auto", Terminal()) == "text"
    assert resolve_format("text", io.StringIO()) == "text"
    assert resolve_format("json", Terminal()) == "json"
    with pytest.raises(ValueError, match="one of auto, text, json"):
        resolve_format("xml", io.StringIO())
    with pytest.raises(ValueError, match="message"):
        fields("oops", message="clashes with the record's own")


# ------------------------------------------------------------------ metrics


def samples(text: str) -> dict[str, float]:
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


async def test_metrics_after_a_played_hand(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        me.on_message = player(HandTracker())
        await me_and_bots(hall, me)
        await until(hall, [me], lambda: match_over(me))
        text = (await me.http.get("/metrics")).text
        got = samples(text)
        assert got['baida_tables{status="waiting"}'] == 1
        assert got['baida_tables{status="playing"}'] == 0
        assert got["baida_players_seated"] == 1 and got["baida_connections"] == 1
        assert got["baida_messages_in_total"] > 0
        # every message sent counts, not only the game's: welcome, table, snapshots, acks ...
        assert got["baida_messages_out_total"] >= len(me.log)
        assert {"welcome", "table", "snapshot", "ack"} <= {m["type"] for m in me.log}
        assert got["baida_actions_total"] > 0 and got["baida_hands_finished_total"] == 1
        count = got["baida_action_latency_seconds_count"]
        assert count == got["baida_actions_total"] and got["baida_action_latency_seconds_sum"] >= 0
        buckets = {k: v for k, v in got.items() if k.startswith("baida_action_latency_seconds_b")}
        assert buckets['baida_action_latency_seconds_bucket{le="+Inf"}'] == count
        assert re.search(r"^# TYPE baida_action_latency_seconds histogram$", text, re.M)
        await me.close()


async def test_metrics_are_read_from_the_operators_machines_only_never_through_a_proxy(
        tmp_path: Path) -> None:
    """Its counts move with what people do (read while a table pauses after a discard, the
    actions and messages sent say someone had a claim window): the operator's scraper reads
    them, from ``--metrics-from`` (this machine by default), never through the proxy."""
    async with running_hall(tmp_path / "a", forwarded_allow_ips="127.0.0.1") as hall:
        http = httpx.AsyncClient(base_url=hall.base)
        assert (await http.get("/metrics")).status_code == 200  # this machine, directly
        for header in ({"X-Forwarded-For": "203.0.113.9"}, {"X-Forwarded-For": "127.0.0.1"},
                       {"Forwarded": "for=198.51.100.7"}, {"X-Real-IP": "203.0.113.9"}):
            r = await http.get("/metrics", headers=header)
            assert r.status_code == 403 and r.json()["code"] == "not_allowed", header
            assert "baida_" not in r.text
        await http.aclose()
    async with running_hall(tmp_path / "b", metrics_from="10.9.0.0/16") as hall:
        http = httpx.AsyncClient(base_url=hall.base)
        assert (await http.get("/metrics")).status_code == 403  # not one of those networks
        await http.aclose()


def test_serve_takes_who_may_read_metrics_and_gives_it_to_every_node(
        capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from baida.cli import main
    from baida.server.serve_cli import add_arguments, node_flags, settings_from

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert settings_from(parser.parse_args([])).metrics_from == "127.0.0.1/8,::1"
    args = parser.parse_args(["--nodes", "2", "--metrics-from", "10.1.0.0/16,::1"])
    assert settings_from(args).metrics_from == "10.1.0.0/16,::1"
    flags = node_flags(args)
    assert flags[flags.index("--metrics-from") + 1] == "10.1.0.0/16,::1"
    assert main(["serve", "--metrics-from", "10.1.0.0/33"]) == 2
    assert "--metrics-from" in capsys.readouterr().err


# ------------------------------------------------------------------ a player's own data


async def test_my_ledger_and_a_downloaded_record(tmp_path: Path) -> None:
    async with running_hall(tmp_path, starting_balance=400) as hall:
        me = await Client(hall).guest()
        me.on_message = player(HandTracker())
        await me_and_bots(hall, me, hands=2, **SILVER)
        await until(hall, [me], lambda: match_over(me))
        ledger = (await me.http.get("/api/me/ledger")).json()
        store = hall.runtime.store
        assert ledger["balance"] == store.ledger.balance(me.me["id"])
        entries = ledger["entries"]
        # the starting 银子 is the first entry; then each hand's payment and fee
        assert (entries[-1]["kind"], entries[-1]["amount"], entries[-1]["hand_id"]) == (
            "grant", 400, None)
        assert {e["kind"] for e in entries[:-1]} >= {"fee"}
        assert ledger["balance"] == sum(e["amount"] for e in entries)
        assert [e["id"] for e in entries] == sorted((e["id"] for e in entries), reverse=True)
        assert len({e["hand_id"] for e in entries[:-1]}) == 2
        older = (await me.http.get(f"/api/me/ledger?before={entries[0]['id']}")).json()
        assert [e["id"] for e in older["entries"]] == [e["id"] for e in entries[1:]]
        bad = await me.http.get("/api/me/ledger?before=soon")
        assert bad.status_code == 400 and "before" in bad.json()["error"]
        assert (await httpx.AsyncClient(base_url=hall.base).get(
            "/api/me/ledger")).status_code == 401
        # a record: inline to read, an attachment to download
        hand = (await me.http.get("/api/me/hands")).json()["hands"][0]["hand_id"]
        shown = await me.http.get(f"/api/hands/{hand}/record")
        assert shown.headers["content-disposition"].startswith("inline;")
        saved = await me.http.get(f"/api/hands/{hand}/record?download=1")
        assert saved.status_code == 200
        assert saved.headers["content-disposition"] == (
            f'attachment; filename="baida-hand-{hand}.json"')
        assert saved.headers["content-type"].startswith("application/json")
        assert saved.json() == shown.json() and saved.json()["format"] == "baida-record-v1"
        await me.close()


# ------------------------------------------------------------------ seats


async def test_leaving_a_seat_while_the_table_waits(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        host, other = await Client(hall).guest(), await Client(hall).guest()
        r = await host.post("/api/tables", {"ruleset": "wenling", "hands": 1})
        table_id = r.json()["table"]["id"]
        for seat, c in enumerate((host, other)):
            await c.open(table_id)
            await c.send({"type": "sit", "seat": seat})
        await hall.quiet([host, other])
        await other.send({"type": "ready"})
        await hall.quiet([host, other])
        seats = host.last("table")["table"]["seats"]
        assert seats[1]["kind"] == "person" and seats[1]["ready"]
        await other.send({"type": "stand"})
        await hall.quiet([host, other])
        table = host.last("table")["table"]
        assert table["seats"][1] == {**seats[1], "user": None, "name": None, "kind": "empty",
                                     "ready": False, "connected": False}
        assert table["spectators"] == 1 and table["status"] == "waiting"
        # they watch now: a spectator cannot be ready, but may sit again (another seat too)
        await other.send({"type": "ready"})
        await hall.quiet([other])
        assert other.last("refused")["code"] == "not_allowed"
        await other.send({"type": "sit", "seat": 3})
        await hall.quiet([host, other])
        table = host.last("table")["table"]
        assert table["seats"][3]["user"] == other.me["id"] and table["spectators"] == 0
        for c in (host, other):
            await c.close()


async def test_the_host_starts_with_bots(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        host, guest = await Client(hall).guest(), await Client(hall).guest()
        r = await host.post("/api/tables", {"ruleset": "jiaxing", "hands": 1, "timing": INSTANT})
        table_id = r.json()["table"]["id"]
        host.on_message = player(HandTracker())
        guest.on_message = player(HandTracker())
        for seat, c in enumerate((host, guest)):
            await c.open(table_id)
            await c.send({"type": "sit", "seat": seat})
        await hall.quiet([host, guest])
        # only the host starts, and not without four seats taken
        await guest.send({"type": "start", "bots": True})
        await host.send({"type": "start"})
        await hall.quiet([host, guest])
        assert guest.last("refused")["message"] == "only the host starts, before the match"
        assert host.last("refused")["message"] == "four seats must be taken"
        assert hall.runtime.hall.get(table_id).status == "waiting"
        await guest.send({"type": "ready"})
        await host.send({"type": "start", "bots": True})
        await until(hall, [host, guest], lambda: host.of_type("snapshot"))
        kinds = [s["kind"] for s in host.of_type("table")[-1]["table"]["seats"]]
        assert kinds == ["person", "person", "bot", "bot"]
        await until(hall, [host, guest], lambda: match_over(host) and match_over(guest))
        for c in (host, guest):
            await c.close()


async def test_an_escape_in_the_middle_of_a_hand(tmp_path: Path) -> None:
    """The escaper pays the hand in play (its fee too) and the escape penalty now, shared by
    the three other seats (a bot's share goes to the house's bots); a bot plays on."""
    async with running_hall(tmp_path, starting_balance=400) as hall:
        runner, stayer = await Client(hall).guest(), await Client(hall).guest()
        r = await runner.post("/api/tables", {"ruleset": "jiaxing", "hands": 2,
                                              "timing": INSTANT, **SILVER})
        table_id = r.json()["table"]["id"]
        runner.on_message = plays_hands(0)  # never answers: the hand waits for them
        stayer.on_message = player(HandTracker())
        for seat, c in enumerate((runner, stayer)):
            await c.open(table_id)
            await c.send({"type": "sit", "seat": seat})
        await hall.quiet([runner, stayer])
        await runner.send({"type": "add_bots"})
        for c in (runner, stayer):
            await c.send({"type": "ready"})
        await until(hall, [runner, stayer], lambda: pending(runner))
        actor = hall.runtime.hall.get(table_id)
        assert actor.status == "playing" and actor.driver.match.hand_number == 0  # none ended
        await runner.send({"type": "stand"})  # without "escape": refused, nothing changes
        await hall.quiet([runner, stayer])
        assert runner.last("refused")["code"] == "not_allowed"
        await runner.send({"type": "stand", "escape": True})
        await until(hall, [runner, stayer], lambda: match_over(stayer))
        store = hall.runtime.store
        ids = [runner.me["id"], stayer.me["id"]]
        penalty = [e.amount for e in store.ledger.history(ids[0]) if e.kind == "penalty"]
        assert penalty == [-30]
        comp = [e.amount for e in store.ledger.history(ids[1]) if e.kind == "compensation"]
        assert comp == [10]
        results = stayer.of_type("hand_result")
        assert len(results) == 2
        first, second = (r["silver"] for r in results)
        assert first[0]["fee"] == 3 and second[0]["fee"] == 0  # then the house's bot
        assert results[0]["totals"] is not None and sum(results[1]["totals"]) == 0
        runner_balance = store.ledger.balance(ids[0])
        assert runner_balance == 400 - 30 + first[0]["paid"] - 3
        assert store.ledger.check().ok and store.ledger.totals().entries_sum == 0
        # the escaper watches the rest; the seat is the bot's
        table = stayer.last("table")["table"]
        assert not runner.closed and table["spectators"] == 1
        assert table["seats"][0]["kind"] == "bot"
        for c in (runner, stayer):
            await c.close()


async def test_the_operator_closes_a_table_mid_hand(tmp_path: Path) -> None:
    """The hand in play is voided with no 银子 moved; the hands before it stay settled."""
    async with running_hall(tmp_path, starting_balance=400) as hall:
        boss = Client(hall)
        r = await boss.http.post("/api/register", json={"name": "老板", "password": "long enough"})
        boss.me = r.json()["me"]
        hall.runtime.store.accounts.set_role(boss.me["id"], "admin")
        me = await Client(hall).guest()
        me.on_message = plays_hands(1)
        table_id = await me_and_bots(hall, me, hands=3, **SILVER)
        await until(hall, [me], lambda: me.of_type("hand_result") and pending(me))
        store = hall.runtime.store
        uid = me.me["id"]
        after_first = store.ledger.balance(uid)
        assert after_first == 400 + me.last("hand_result")["silver"][0]["paid"] - 3
        watcher = await anchor(hall)  # a new guest: its starting 银子 before the totals
        totals = store.ledger.totals()
        playing = hall.runtime.hall.get(table_id).hand.id
        r = await boss.http.post("/api/admin/close_table", json={"id": table_id},
                                 headers=boss.headers())
        assert r.status_code == 200, r.text
        await until(hall, [watcher], lambda: me.closed)
        assert me.log[-1] == {"type": "error", "code": "closed",
                              "message": "closed by the operator"}
        assert store.hands.get(playing).status == "voided"
        assert store.ledger.balance(uid) == after_first
        assert store.ledger.totals() == totals and store.ledger.check().ok
        # the table is gone for everyone; the voided hand has no record to fetch
        assert hall.runtime.hall.get(table_id) is None
        assert (await me.http.get(f"/api/tables/{table_id}")).status_code == 404
        assert (await me.http.get(f"/api/hands/{playing}/record")).status_code == 404
        again = await boss.http.post("/api/admin/close_table", json={"id": table_id},
                                     headers=boss.headers())
        assert again.status_code == 404
        for c in (me, boss, watcher):
            await c.close()
