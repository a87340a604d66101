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

from baida.server.table_actor import STORAGE_BACK, STORAGE_DOWN

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class FailingStore:
    """The table's store, with action writes that fail while ``down``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.down = False
        self.failures = 0

    async def append_actions(self, hand_id: int, rows: Any) -> None:
        if self.down:
            self.failures += 1
            raise OSError("disk I/O error (a test's failing store)")
        await self.inner.append_actions(hand_id, rows)

    async def write(self, fn: Any, *args: Any) -> Any:
        return await self.inner.write(fn, *args)

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
