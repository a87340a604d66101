"""Durability at a hall table: a store that fails (nothing an unsaved action caused is sent,
the table waits and says so, then goes on where it stood), a restart between hands (the
match goes on with its totals), and the last settlement sent again to a client that reloads
between hands. The real kill of a ``baida serve`` process is in test_server_kill.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hall_harness import Client, Hall, running_hall
from test_server_time import TIMING, my_turn, table_with_bots

from baida.server.store import Fence
from baida.server.tables.actor import STORAGE_BACK, STORAGE_DOWN

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class FailingStore:
    """The table's store, with action writes that fail while ``down``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.down = False
        self.writes_down = False  # the other writes (a match's start) fail too
        self.failures = 0

    async def append_actions(self, hand_id: int, rows: Any) -> None:
        if self.down:
            self.failures += 1
            raise OSError("disk I/O error (a test's failing store)")
        await self.inner.append_actions(hand_id, rows)

    async def write(self, fn: Any, *args: Any) -> Any:
        if self.writes_down:
            self.failures += 1
            raise OSError("disk I/O error (a test's failing store)")
        return await self.inner.write(fn, *args)

    async def call(self, op: str, *args: Any, **kwargs: Any) -> Any:
        return await self.inner.call(op, *args, **kwargs)

    async def read(self, fn: Any, *args: Any) -> Any:
        return await self.inner.read(fn, *args)


def game(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages about the game (the table's seats and spectators aside)."""
    return [m for m in messages if m["type"] != "table"]


def stored_actions(hall: Hall, hand_id: int) -> int:
    hands = {h.hand_id: h for h in hall.runtime.store.hands.in_progress()}
    return len(hands[hand_id].actions)


async def test_nothing_an_unsaved_action_caused_is_sent(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        watcher = await Client(hall).guest()
        table_id = await table_with_bots(hall, me)
        heard: list[tuple[float, dict[str, Any]]] = []
        watcher.on_message = lambda c, m: heard.append((hall.clock.now(), m))
        await watcher.open(table_id)
        prompt = await my_turn(hall, me)
        actor = hall.runtime.hall.get(table_id)
        store = FailingStore(actor.db)
        actor.db = store
        hand_id = actor.hand.id
        before = stored_actions(hall, hand_id)
        store.down = True
        discard = next(a for a in prompt["actions"] if a["type"] == "discard")
        await hall.quiet([me, watcher])
        mine, theirs = len(me.log), len(heard)
        await me.send({"type": "act", "seq": prompt["seq"], "action": discard, "id": "d1"})
        await hall.quiet([me, watcher])
        assert store.failures == 1
        assert actor.hand.unsaved  # kept, to be tried again
        assert game(me.log[mine:]) == []  # no ack, no events
        assert game([m for _, m in heard[theirs:]]) == []
        # the table waits; after a second of failures it says so, and only that
        await hall.advance(3.0, [me, watcher])
        assert store.failures > 3
        assert game([m for _, m in heard[theirs:]]) == [STORAGE_DOWN]
        assert game(me.log[mine:]) == [STORAGE_DOWN]
        assert stored_actions(hall, hand_id) == before
        # the store comes back: the action is stored, then what it caused is sent
        store.down = False
        await hall.advance(5.0, [me, watcher])
        assert stored_actions(hall, hand_id) >= before + 1
        got = [m["type"] for m in game(me.log[mine:])]
        assert got[:3] == ["notice", "notice", "ack"], got
        assert me.of_type("notice")[-1] == STORAGE_BACK
        events = [(t, m) for t, m in heard[theirs:] if m["type"] == "events"]
        assert events[0][1]["events"][0] == {"type": "discard", "seat": 0,
                                             "tile": discard["tile"]}
        # the timeline kept its shape: the next thing comes one pause after the discard,
        # counted from when the table went on
        assert events[1][0] - events[0][0] == TIMING["pause"]
        # and the hand goes on, every action stored before its effects are seen
        await hall.advance(10.0, [me, watcher])
        if actor.hand is not None and actor.hand.id == hand_id:
            assert stored_actions(hall, hand_id) == len(actor.driver.round.actions)
        await me.close()
        await watcher.close()


async def test_a_match_whose_start_cannot_be_stored_starts_when_the_store_is_back(
    tmp_path: Path,
) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me, ready=False, hands=1)
        actor = hall.runtime.hall.get(table_id)
        store = FailingStore(actor.db)
        actor.db = store
        store.writes_down = True
        seen = len(me.log)
        await me.send({"type": "ready"})
        await hall.quiet([me])
        assert store.failures == 1
        assert actor.driver is None and actor.match_id is None  # nothing half-started
        await hall.advance(3.0, [me])
        assert store.failures > 3  # tried again by itself, with backoff
        assert STORAGE_DOWN in me.log[seen:]
        assert not [m for m in me.log[seen:] if m["type"] in ("events", "prompt", "snapshot")]
        store.writes_down = False
        await hall.advance(6.0, [me])
        assert me.of_type("notice")[-1] == STORAGE_BACK
        assert actor.driver is not None and actor.match_id is not None
        assert await my_turn(hall, me, stop_at_hand_end=True) is not None or \
            me.of_type("hand_result")  # the hand was dealt and plays
        await me.close()


async def test_an_escape_that_cannot_be_stored_is_refused_and_pays_once_when_sent_again(
    tmp_path: Path,
) -> None:
    async with running_hall(tmp_path, starting_balance=400) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me, stakes="silver", base=1, escape_penalty=30)
        await my_turn(hall, me)
        actor = hall.runtime.hall.get(table_id)
        store = FailingStore(actor.db)
        actor.db = store
        store.writes_down = True
        await me.send({"type": "stand", "escape": True})
        await hall.quiet([me])
        refusal = me.last("refused")
        assert refusal["code"] == "not_allowed" and "try again" in refusal["message"]
        assert refusal["reason"] == "leave_not_stored"  # the page says it in its language
        assert actor.seats[0].user is not None and not actor.seats[0].escaped
        assert actor.driver.modes[0].value == "player"  # still theirs, not a bot's
        ledger = hall.runtime.store.ledger
        uid = me.me["id"]
        assert not [e for e in ledger.history(uid, limit=50) if e.kind == "penalty"]
        store.writes_down = False
        await me.send({"type": "stand", "escape": True})
        await hall.quiet([me])
        assert actor.seats[0].escaped
        penalties = [e for e in ledger.history(uid, limit=50) if e.kind == "penalty"]
        assert [e.amount for e in penalties] == [-30]
        await me.close()


async def test_a_node_that_lost_the_table_charges_no_escape(tmp_path: Path) -> None:
    """A node whose lease was taken (paused, then woken) is refused the escape penalty in
    the same transaction as the lease check: nothing reaches the ledger; it lets the
    table go."""
    async with running_hall(tmp_path, starting_balance=400) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me, stakes="silver", base=1, escape_penalty=30)
        await my_turn(hall, me)
        actor = hall.runtime.hall.get(table_id)
        store = hall.runtime.store
        assert store.leases.acquire(table_id, "a", ttl=60) == 1
        actor.info.lease = Fence(table_id, "a", 1)
        assert store.leases.release(table_id, "a", 1)
        assert store.leases.acquire(table_id, "b", ttl=60) == 2  # b owns it now
        uid = me.me["id"]
        before = store.ledger.history(uid, limit=50)
        await me.send({"type": "stand", "escape": True})
        await hall.quiet([me])
        assert store.ledger.history(uid, limit=50) == before
        assert store.ledger.balance(uid) == 400 and store.ledger.check().ok
        assert uid in store.tables.get_match(actor.match_id).seats  # nor its seats
        assert hall.runtime.hall.get(table_id) is None  # let go here
        assert me.closed
        await me.close()


async def play_to_result(hall: Hall, me: Client) -> dict[str, Any]:
    """Answer every prompt (a win or a pass if offered, else the last action) until the
    next ``hand_result``."""
    results = len(me.of_type("hand_result"))
    for _ in range(4000):
        if len(me.of_type("hand_result")) > results:
            return me.of_type("hand_result")[-1]
        done = {m["seq"] for m in me.log if m["type"] in ("ack", "prompt_closed")}
        pending = [p for p in me.of_type("prompt") if p["seq"] not in done]
        if pending:
            p = pending[-1]
            choice = next((a for a in p["actions"] if a["type"] in ("win", "pass")),
                          p["actions"][-1])
            await me.send({"type": "act", "seq": p["seq"], "action": choice})
            await hall.quiet([me])
        else:
            await hall.advance(0.5, [me])
    raise AssertionError("the hand did not end")


def reload(hall: Hall, me: Client) -> Client:
    """The same account in a new connection (a browser page reloaded)."""
    again = Client(hall)
    again.http.cookies.update(me.http.cookies)
    again.me = me.me
    return again


async def test_a_reload_between_hands_gets_the_last_result_again(tmp_path: Path) -> None:
    async with running_hall(tmp_path, starting_balance=500) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me, stakes="silver", base=1, fee=2)
        result = await play_to_result(hall, me)
        assert result["number"] == 1 and not result["match_over"]
        assert result["silver"][0]["balance"] is not None
        await me.ws.close()
        await hall.quiet()
        again = reload(hall, me)
        await again.open(table_id)
        await hall.quiet([again])
        kinds = [m["type"] for m in again.log]
        assert kinds.index("snapshot") < kinds.index("hand_result"), kinds
        assert again.last("snapshot")["resync"]
        assert again.last("hand_result") == result  # with my own balance, as before
        # a spectator arriving now sees it too, without anyone's balance
        watcher = await Client(hall).guest()
        await watcher.open(table_id)
        await hall.quiet([again, watcher])
        seen = watcher.last("hand_result")
        assert seen["hand_id"] == result["hand_id"]
        assert all(c["balance"] is None for c in seen["silver"])
        # once the next hand is dealt, a reload gets that hand, not the old result
        await again.send({"type": "ready"})
        await hall.quiet([again, watcher])
        late = await Client(hall).guest()
        await late.open(table_id)
        await hall.quiet([again, watcher, late])
        assert late.of_type("snapshot") and not late.of_type("hand_result")
        for c in (again, watcher, late):
            await c.close()
        await me.http.aclose()


async def test_a_match_stopped_between_hands_goes_on_after_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "hall"
    async with running_hall(data, starting_balance=500) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me, stakes="silver", base=1, fee=2)
        first = await play_to_result(hall, me)
        assert not first["match_over"]
        actor = hall.runtime.hall.get(table_id)
        assert actor.status == "between"
        match_id = actor.match_id
        await me.close()
        # the server stops between hands
    async with running_hall(data, starting_balance=500) as hall:
        actor = hall.runtime.hall.get(table_id)
        assert actor.status == "between" and actor.match_id == match_id
        assert actor.driver.match.totals == first["totals"]
        assert actor.driver.match.hand_number == 1
        # nobody is back: the next hand waits (the between-hands time)
        await hall.advance(TIMING["between_hands"] - 1.0)
        assert actor.status == "between"
        back = reload(hall, me)
        await back.open(table_id)
        await hall.quiet([back])
        assert back.of_type("welcome")[0]["seat"] == 0
        assert back.last("table")["table"]["match"]["totals"] == first["totals"]
        await back.send({"type": "ready"})
        await hall.quiet([back])
        assert actor.status == "playing" and actor.hand.number == 2
        second = await play_to_result(hall, back)
        assert second["number"] == 2 and second["match_over"]
        store = hall.runtime.store
        assert store.tables.current_match(table_id) is None  # the match ended properly
        assert store.tables.get_match(match_id).status == "ended"
        entries = store.ledger.history(back.me["id"], limit=100)
        fees = [e for e in entries if e.kind == "fee"]
        assert len({e.txn_key for e in fees}) == len(fees) == 2  # each hand paid once
        assert store.ledger.check().ok
        mine = [e.amount for e in entries if e.kind == "hand"]
        assert store.ledger.balance(back.me["id"]) == 500 + sum(mine) - 4
        await back.close()
        await me.http.aclose()


async def test_after_a_restart_between_hands_the_deal_waits_then_goes_on(tmp_path: Path) -> None:
    data = tmp_path / "hall"
    async with running_hall(data) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me)
        first = await play_to_result(hall, me)
        await me.close()
    async with running_hall(data) as hall:
        actor = hall.runtime.hall.get(table_id)
        assert actor.status == "between"
        watcher = await Client(hall).guest()  # (its pings let the table's writes finish)
        await watcher.open(table_id)
        await hall.advance(TIMING["between_hands"] - 0.5, [watcher])
        assert actor.status == "between"
        await hall.advance(1.0, [watcher])
        # the person did not come back: 托管 plays the second hand for them
        assert actor.status == "playing" and actor.hand.number == 2
        assert actor.driver.modes[0].value == "auto"
        assert actor.driver.match.totals == first["totals"]
        assert watcher.last("snapshot")["view"]["seat"] is None
        await watcher.close()


async def test_a_person_who_left_is_not_seated_again_by_a_restart(tmp_path: Path) -> None:
    """They escaped mid-hand (a bot plays on; the hand and the penalty are theirs to pay);
    the server restarts before the hand ends: the seat stays the bot's, paid once."""
    data = tmp_path / "hall"
    async with running_hall(data, starting_balance=500) as hall:
        me = await Client(hall).guest()
        other = await Client(hall).guest()
        r = await me.post("/api/tables", {"ruleset": "jiaxing", "hands": 1, "timing": TIMING,
                                          "stakes": "silver", "fee": 2, "escape_penalty": 5})
        table_id = r.json()["table"]["id"]
        for seat, c in enumerate((me, other)):
            await c.open(table_id)
            await c.send({"type": "sit", "seat": seat})
            await hall.quiet([me, other])
        await me.send({"type": "add_bots"})
        for c in (me, other):
            await c.send({"type": "ready"})
        await hall.quiet([me, other])
        await hall.advance(3.0, [me, other])
        actor = hall.runtime.hall.get(table_id)
        assert actor.status == "playing"
        await other.send({"type": "stand", "escape": True})
        await hall.quiet([me, other])
        assert actor.driver.modes[1].value == "bot"
        hand_id = actor.hand.id
        cookies, who = dict(other.http.cookies), other.me
        await me.close()
        await other.close()
    async with running_hall(data, starting_balance=500) as hall:
        actor = hall.runtime.hall.get(table_id)
        assert actor.status == "playing" and actor.hand.id == hand_id
        assert actor.driver.modes[1].value == "bot" and actor.seats[1].escaped
        again = Client(hall)
        again.http.cookies.update(cookies)
        again.me = who
        await again.open(table_id)
        await hall.quiet([again])
        assert again.of_type("welcome")[0]["seat"] is None  # a spectator now
        assert actor.driver.modes[1].value == "bot"
        for _ in range(400):
            if actor.status != "playing":
                break
            await hall.advance(5.0, [again])
        assert actor.status == "waiting"  # the match (one hand) ended
        store = hall.runtime.store
        entries = store.ledger.history(who["id"], limit=100)
        assert [e.kind for e in entries if e.kind == "fee"] == ["fee"]  # the hand, once
        assert [e.amount for e in entries if e.kind == "penalty"] == [-5]  # once
        assert store.ledger.check().ok
        await again.close()
