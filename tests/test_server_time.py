"""Time at a hall table (a manual clock, no sleeps): the uniform pause, timeouts, 托管 and
taking the seat back, reconnects; and a restart mid-hand that loses and pays nothing twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hall_harness import Client, Hall, running_hall

pytestmark = pytest.mark.anyio

TIMING = {"pause": 1.0, "claim": 4.0, "turn": 8.0, "bank": 4.0, "santan": 8.0,
          "bot_turn": 0.5, "bot_claim": 0.25, "between_hands": 16.0}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def table_with_bots(hall: Hall, me: Client, ruleset: str = "jiaxing", *,
                          ready: bool = True, **config: Any) -> int:
    """A table ``me`` sits at (seat 0) with three bots; the match starts when ``ready``."""
    r = await me.post("/api/tables", {"ruleset": ruleset, "hands": 2, "timing": TIMING,
                                      **config})
    assert r.status_code == 201, r.text
    table_id = r.json()["table"]["id"]
    await me.open(table_id)
    await me.send({"type": "sit", "seat": 0})
    await hall.quiet([me])
    await me.send({"type": "add_bots"})
    if ready:
        await me.send({"type": "ready"})
    await hall.quiet([me])
    return table_id


async def my_turn(hall: Hall, me: Client, stop_at_hand_end: bool = False) -> dict[str, Any] | None:
    """Let time pass until the person has a turn prompt open (None: the hand ended first,
    when ``stop_at_hand_end``)."""
    results = len(me.of_type("hand_result"))
    for _ in range(2000):
        if stop_at_hand_end and len(me.of_type("hand_result")) > results:
            return None
        open_prompts = [m for m in me.log if m["type"] == "prompt"]
        closed = {m["seq"] for m in me.log if m["type"] in ("ack", "prompt_closed")}
        pending = [p for p in open_prompts if p["seq"] not in closed]
        if pending and pending[-1]["kind"] == "turn":
            return pending[-1]
        if pending:  # a claim or rob: pass it; a 三摊 question has no pass: give up
            offered = pending[-1]["actions"]
            answer = next((a for a in offered if a["type"] in ("pass", "give_up")), offered[0])
            await me.send({"type": "act", "seq": pending[-1]["seq"], "action": answer})
            await hall.quiet([me])
            continue
        await hall.advance(0.25, [me])
    raise AssertionError("no turn came")


async def test_a_turn_times_out_to_tuoguan_and_the_player_takes_it_back(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me)
        prompt = await my_turn(hall, me)
        assert prompt["time_ms"] == 8000 and prompt["bank_ms"] == 4000
        await hall.advance(11.75, [me])
        assert not me.of_type("seat_mode")
        await hall.advance(0.5, [me])
        notice = me.of_type("seat_mode")[0]
        assert notice == {"type": "seat_mode", "seat": 0, "mode": "auto", "reason": "timeout"}
        closed = me.last("prompt_closed")
        assert closed["seq"] == prompt["seq"] and closed["reason"] == "timeout"
        # 托管 plays on for us at the bots' pace; nothing is asked of us
        actor = hall.runtime.hall.get(table_id)
        played = len(actor.driver.round.actions)
        asked = len(me.of_type("prompt"))
        await hall.advance(20.0, [me])
        assert len(actor.driver.round.actions) > played
        assert len(me.of_type("prompt")) == asked
        await me.send({"type": "resume"})
        await hall.quiet([me])
        assert me.of_type("seat_mode")[-1]["mode"] == "player"
        prompt = await my_turn(hall, me)
        # the bank spent on the timeout is gone for the rest of the hand
        assert prompt["bank_ms"] == 0
        await me.close()


async def test_a_dropped_connection_goes_to_tuoguan_and_comes_back(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me)
        await my_turn(hall, me)
        await me.ws.close()
        await hall.quiet()
        actor = hall.runtime.hall.get(table_id)
        assert actor.driver.modes[0].value == "auto"
        assert actor.driver.auto_reason[0] == "offline"
        await hall.advance(5.0)
        again = Client(hall)
        again.http.cookies.update(me.http.cookies)
        again.me = me.me
        await again.open(table_id)
        await hall.quiet([again])
        welcome = again.of_type("welcome")[0]
        assert welcome["seat"] == 0
        assert actor.driver.modes[0].value == "player"
        for _ in range(6):  # the snapshot comes at a safe moment: after a pause that runs
            if again.of_type("snapshot"):
                break
            await hall.advance(0.5, [again])
        snap = again.last("snapshot")
        assert snap["view"]["seat"] == 0 and snap["view"]["players"][0]["concealed"]
        prompt = await my_turn(hall, again)
        assert prompt["time_ms"] > 0
        await again.close()
        await me.http.aclose()


async def test_a_second_window_gets_the_open_prompt_with_the_time_left(tmp_path: Path) -> None:
    """A reload (the new socket opens before the old one is gone): the new connection gets
    the snapshot and the same open prompt with what is left of its time, not a fresh turn;
    the old one is told it was replaced."""
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me)
        prompt = await my_turn(hall, me)
        assert prompt["time_ms"] == TIMING["turn"] * 1000
        assert prompt["bank_ms"] == TIMING["bank"] * 1000
        await hall.advance(3.0, [me])
        again = Client(hall)
        again.http.cookies.update(me.http.cookies)
        again.me = me.me
        await again.open(table_id)
        await hall.quiet([me, again])
        assert me.last("error")["code"] == "replaced"
        resent = again.last("snapshot")["prompt"]  # the open prompt comes in the snapshot
        assert resent["seq"] == prompt["seq"] and resent["kind"] == "turn"
        assert resent["time_ms"] == (TIMING["turn"] - 3.0) * 1000
        assert resent["bank_ms"] == TIMING["bank"] * 1000
        actor = hall.runtime.hall.get(table_id)
        assert actor.driver.modes[0].value == "player"
        await again.send({"type": "act", "seq": resent["seq"], "action": resent["actions"][0]})
        await hall.quiet([again])
        assert again.last("ack")["seq"] == resent["seq"]
        await again.close()
        await me.http.aclose()


@pytest.mark.parametrize("uniform", [False, True])
async def test_every_seat_sees_the_same_pause_after_a_discard(tmp_path: Path,
                                                              uniform: bool) -> None:
    """The person's discards: whether or not a bot may claim, the next thing anyone hears
    comes exactly one pause later (with ``uniform_window``: one whole claim window later)."""
    gap = TIMING["claim"] if uniform else TIMING["pause"]
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        watcher = await Client(hall).guest()
        table_id = await table_with_bots(hall, me,
                                         timing={**TIMING, "uniform_window": uniform})
        await watcher.open(table_id)
        await hall.quiet([me, watcher])
        gaps: set[float] = set()
        for _ in range(12):
            prompt = await my_turn(hall, me, stop_at_hand_end=True)
            actor = hall.runtime.hall.get(table_id)
            if prompt is None or actor.driver is None or actor.driver.round.ended:
                break
            discard = next(a for a in prompt["actions"] if a["type"] == "discard")
            start = len(watcher.log)
            t0 = hall.clock.now()
            await me.send({"type": "act", "seq": prompt["seq"], "action": discard})
            await hall.quiet([me, watcher])
            # the discard comes at once; then nothing until the pause is over
            assert [m["events"][-1]["type"] for m in watcher.log[start:]
                    if m["type"] == "events"] == ["discard"]
            heard = len(watcher.log)
            await hall.advance(gap - 0.25, [me, watcher])
            assert len(watcher.log) == heard
            await hall.advance(0.25, [me, watcher])
            assert len(watcher.log) > heard
            gaps.add(hall.clock.now() - t0)
        assert gaps == {gap}  # at least one discard was checked, each one pause long
        await me.close()
        await watcher.close()


async def test_a_restart_mid_hand_resumes_it_and_pays_it_once(tmp_path: Path) -> None:
    data = tmp_path / "hall"
    async with running_hall(data, starting_balance=500) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me, stakes="silver", base=1, fee=2)
        prompt = await my_turn(hall, me)
        discard = next(a for a in prompt["actions"] if a["type"] == "discard")
        await me.send({"type": "act", "seq": prompt["seq"], "action": discard})
        await hall.quiet([me])
        await my_turn(hall, me)
        actor = hall.runtime.hall.get(table_id)
        actions = len(actor.driver.round.actions)
        seen = sum(len(m["events"]) for m in me.of_type("events"))
        assert actions > 0
        cookies, who = dict(me.http.cookies), me.me
        await me.close()
        # the server stops with the hand in play (as a crash would leave it: no hand end)
    async with running_hall(data, starting_balance=500) as hall:
        actor = hall.runtime.hall.get(table_id)
        assert actor is not None and actor.status == "playing"
        assert len(actor.driver.round.actions) >= actions
        back = Client(hall)
        back.http.cookies.update(cookies)
        back.me = who
        await back.open(table_id)
        await hall.quiet([back])
        snap = back.last("snapshot")
        assert snap["resync"] and snap["view"]["seat"] == 0
        assert snap["event_index"] >= seen
        # play to the end of the match
        for _ in range(2000):
            results = back.of_type("hand_result")
            if results and results[-1]["match_over"]:
                break
            pending = [p for p in back.of_type("prompt")
                       if p["seq"] not in {m["seq"] for m in back.log
                                           if m["type"] in ("ack", "prompt_closed")}]
            if pending:
                p = pending[-1]
                choice = next((a for a in p["actions"] if a["type"] in ("win", "pass")),
                              p["actions"][-1])
                await back.send({"type": "act", "seq": p["seq"], "action": choice})
            elif results and not results[-1]["match_over"]:
                await back.send({"type": "ready"})
            await hall.advance(0.5, [back])
        results = back.of_type("hand_result")
        tail = [(m["type"], m.get("seq"), m.get("kind")) for m in back.log[-12:]]
        assert results and results[-1]["match_over"], (tail, hall.actors()[0].status)
        store = hall.runtime.store
        assert store.ledger.check().ok
        entries = store.ledger.history(back.me["id"], limit=100)
        fees = [e for e in entries if e.kind == "fee"]
        hands = [e for e in entries if e.kind == "hand"]
        assert len({e.txn_key for e in fees}) == len(fees) == 2  # each hand paid once
        assert len({e.txn_key for e in hands}) == len(hands)
        balance = store.ledger.balance(back.me["id"])
        assert balance == 500 + sum(e.amount for e in entries if e.kind != "grant")
        await back.close()


async def test_the_uniform_window_is_a_table_setting_the_lobby_shows(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        r = await me.post("/api/tables", {"ruleset": "wenling", "hands": 1,
                                          "timing": {"uniform_window": True}})
        assert r.status_code == 201, r.text
        table = r.json()["table"]
        assert table["timing"]["uniform_window"] is True
        assert "uniform_window" in table["badges"]
        listed = (await me.http.get("/api/tables")).json()["tables"]
        shown = next(t for t in listed if t["id"] == table["id"])
        assert shown["timing"]["uniform_window"] is True and "uniform_window" in shown["badges"]
        r = await me.post("/api/tables", {"ruleset": "wenling", "hands": 1})
        assert r.json()["table"]["timing"]["uniform_window"] is False
        assert "uniform_window" not in r.json()["table"]["badges"]
        for bad, words in [({"uniform_window": 1}, "timing.uniform_window: true or false"),
                           ({"uniform_window": True, "claim": None},
                            "timing.uniform_window: needs a claim window")]:
            before = len(hall.actors())
            r = await me.post("/api/tables", {"ruleset": "wenling", "hands": 1, "timing": bad})
            assert r.status_code == 400 and words in r.json()["error"], r.text
            assert len(hall.actors()) == before
        await me.close()
