"""A real kill: ``baida serve`` in its own process on a temporary data folder, a hand played
over the real protocol, the server SIGKILLed mid-hand and started again on the same data.
The hand resumes from its stored actions (the same events go on), no 银子 is lost or paid
twice, no record is lost. Every wait is bounded (real time: this is the one hall test that
runs a real server process)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hall_harness import Client

from baida.server.store import Store

pytestmark = pytest.mark.anyio

FAST = {"pause": 0.05, "claim": 3.0, "turn": 5.0, "bank": 0.0, "santan": 3.0,
        "bot_turn": 0.02, "bot_claim": 0.01, "between_hands": None}
STARTING = 1000
PRIVATE = {"deal": ("tiles", "drawn"), "draw": ("tile",), "akong": ("tile",)}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(data: Path, port: int, *flags: str, within: float = 30.0) -> subprocess.Popen[bytes]:
    """``baida serve`` on ``data`` (with ``flags`` besides); returns once it prints its URL
    (at most ``within`` seconds). Each run logs to a file of its own (``hall-N.log``)."""
    log = data / f"hall-{len(list(data.glob('hall-*.log'))) + 1}.log"
    cmd = [sys.executable, "-m", "baida.cli", "serve", "--port", str(port), "--data", str(data),
           "--bot-workers", "0", "--no-warm-up", "--log-level", "warning",
           "--starting-balance", str(STARTING), "--guests-per-hour", "0",
           "--min-bot-time", "0", *flags]  # (the tests' bots answer in 0.02 s)
    proc = subprocess.Popen(cmd, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the hall did not start: {log.read_text()[-2000:]}")
        if "baida hall:" in log.read_text(errors="replace"):
            return proc
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the hall did not start within {within:g} s")


async def until(what: str, cond: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def player(client: Client, message: dict[str, Any]) -> Any:
    """Answers every prompt at once: a win, else a pass or 坚持, else the last action."""
    if message["type"] != "prompt":
        return None
    acts = message["actions"]
    choice = next((a for a in acts if a["type"] in ("win", "pass", "continue")), acts[-1])
    return client.send({"type": "act", "seq": message["seq"], "action": choice})


def seen_events(client: Client) -> dict[int, dict[str, Any]]:
    """The hand's events the client was sent, by position."""
    out: dict[int, dict[str, Any]] = {}
    for m in client.log:
        if m["type"] == "events":
            for i, e in enumerate(m["events"]):
                out[m["index"] + i] = e
    return out


def redacted(event: dict[str, Any], seat: int) -> dict[str, Any]:
    keys = PRIVATE.get(event["type"])
    if keys is not None and event["seat"] != seat:
        return {**event, **dict.fromkeys(keys)}
    return event


async def test_a_killed_server_resumes_the_hand_and_pays_it_once(tmp_path: Path) -> None:
    data = tmp_path / "hall"
    data.mkdir()
    port = free_port()
    hall = SimpleNamespace(base=f"http://127.0.0.1:{port}", ws_base=f"ws://127.0.0.1:{port}")
    proc = start(data, port)
    clients: list[Client] = []
    try:
        me = await Client(hall).guest()  # type: ignore[arg-type]
        clients.append(me)
        r = await me.post("/api/tables", {"ruleset": "jiaxing", "hands": 1, "timing": FAST,
                                          "stakes": "silver", "base": 1, "fee": 3,
                                          "bot": "greedy"})
        assert r.status_code == 201, r.text
        table_id = r.json()["table"]["id"]
        me.on_message = player
        await me.open(table_id)
        await me.send({"type": "sit", "seat": 0})
        await until("the seat", lambda: any(
            m["type"] == "table" and m["table"]["seats"][0]["kind"] == "person"
            for m in me.log))
        await me.send({"type": "add_bots"})
        await me.send({"type": "ready"})

        def discards() -> int:
            return sum(1 for e in seen_events(me).values() if e["type"] == "discard")

        await until("ten discards", lambda: discards() >= 10)
        proc.send_signal(signal.SIGKILL)  # mid-hand, whatever the table was doing
        proc.wait(timeout=10)
        await until("the connection to drop", lambda: me.closed, 10.0)
        before = seen_events(me)
        assert not any(e["type"] == "hand_end" for e in before.values()), "ended too soon"
        assert sorted(before) == list(range(len(before)))

        proc = start(data, port)
        back = Client(hall)  # type: ignore[arg-type]
        clients.append(back)
        back.http.cookies.update(me.http.cookies)
        back.me = me.me
        back.on_message = player
        await back.open(table_id)
        await until("the snapshot", lambda: bool(back.of_type("snapshot")))
        snap = back.of_type("snapshot")[0]
        assert snap["resync"] and snap["view"]["seat"] == 0
        # every event seen before the kill came from a stored action: all of them are history
        assert snap["event_index"] >= len(before)
        await until("the end of the hand", lambda: bool(back.of_type("hand_result")), 25.0)
        result = back.of_type("hand_result")[0]
        assert result["match_over"] and result["silver"][0]["balance"] is not None

        # the same hand went on: what was seen before the kill and after the restart are
        # the events of the stored hand, in place
        hand_id = result["hand_id"]
        assert snap["hand_id"] == hand_id
        replay = (await back.http.get(f"/api/hands/{hand_id}/replay")).json()
        events = replay["events"]
        assert events[-1]["type"] == "hand_end"
        for i, event in before.items():
            assert event == redacted(events[i], 0), i
        after = seen_events(back)
        for i, event in after.items():
            assert event == redacted(events[i], 0), i
        # from the snapshot on, every event of the hand reached the seat
        assert set(range(snap["event_index"], len(events))) <= set(after)
        # no record lost
        mine = (await back.http.get("/api/me/hands")).json()["hands"]
        assert [h["hand_id"] for h in mine] == [hand_id]
        assert (await back.http.get(f"/api/hands/{hand_id}/record")).status_code == 200
        check = (await back.http.get(f"/api/hands/{hand_id}/verify")).json()
        assert check["ok"], check
    finally:
        for c in clients:
            await c.close()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)

    # the ledger: balanced, the hand paid once, nothing in play left behind
    with Store(str(data / "hall.db")) as store:
        assert store.ledger.check().ok
        assert store.hands.in_progress() == []
        uid = me.me["id"]
        entries = store.ledger.history(uid, limit=100)
        fees = [e for e in entries if e.kind == "fee"]
        hands = [e for e in entries if e.kind == "hand"]
        assert len(fees) == 1 and fees[0].amount == -3 and fees[0].hand_id == hand_id
        assert len(hands) <= 1  # 0 when the person neither paid nor won
        assert store.ledger.balance(uid) == sum(e.amount for e in entries)
        assert store.ledger.balance(uid) == STARTING + sum(e.amount for e in hands) - 3
        assert result["silver"][0]["balance"] == store.ledger.balance(uid)
