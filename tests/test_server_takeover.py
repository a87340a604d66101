"""Taking a table over (``Ownership.take_over``) when the store holds two unfinished hands
for it (a stray of an owner that was fenced out): only the newest is resumed; the older is
closed as abandoned, no 银子 moved, and logged."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hall_harness import Client, running_hall
from test_server_time import my_turn, table_with_bots

from baida.server.nodes.role import NodeRole
from baida.server.tables.actor.state import PLAYING
from baida.server.tables.hall import split_strays
from baida.server.tables.ownership import Ownership

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _a_table_let_go_mid_hand(hall: Any) -> tuple[Client, int, Any]:
    """A person's 银子 table with three bots, let go by its node mid-hand (the person's socket
    closed): the person, the table and its stored unfinished hand."""
    me = await Client(hall).guest()
    table_id = await table_with_bots(hall, me, stakes="silver", base=1, hands=4)
    await my_turn(hall, me)
    (stored,) = hall.runtime.store.hands.in_progress([table_id])
    hall.runtime.hall.let_go(table_id, "table moved")
    await me.close()
    return me, table_id, stored


def test_each_table_keeps_its_newest_hand_by_match_then_number() -> None:
    def hand(hand_id: int, table: int, match: int, number: int) -> SimpleNamespace:
        return SimpleNamespace(hand_id=hand_id, table_id=table, match_id=match, number=number)

    a_old, a_new = hand(5, 1, 2, 3), hand(9, 1, 2, 4)
    b_old_match, b_new_match = hand(7, 2, 3, 6), hand(8, 2, 4, 0)
    c = hand(6, 3, 5, 0)
    newest, strays = split_strays([a_new, b_old_match, a_old, c, b_new_match])
    assert newest == {1: a_new, 2: b_new_match, 3: c}
    assert strays == [b_old_match, a_old]
    assert split_strays([]) == ({}, [])


async def test_take_over_resumes_the_newest_hand_and_abandons_the_stray(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with running_hall(tmp_path, starting_balance=400) as hall:
        me, table_id, stray = await _a_table_let_go_mid_hand(hall)
        rt = hall.runtime
        store = rt.store
        # the old owner is fenced out mid-hand; a newer hand of the match is in the store too
        newer = store.hands.start(stray.match_id, stray.number + 1, ruleset="jiaxing",
                                  seed=bytes(range(32)), setup=stray.setup, seats=stray.seats)
        totals = store.ledger.totals()
        assert {h.hand_id for h in store.hands.in_progress([table_id])} == {stray.hand_id,
                                                                             newer.id}

        node = NodeRole(0, 1, tmp_path / "nodes", "", "", given_name="b", address="b:1")
        caplog.set_level(logging.WARNING, logger="baida.server.tables.hall")
        taken = await Ownership(rt.hall, node).take_over([table_id])
        assert [a.id for a in taken] == [table_id]
        actor = rt.hall.get(table_id)
        assert actor is not None and actor.status == PLAYING
        assert actor.hand is not None and actor.hand.id == newer.id
        assert actor.info.lease is not None and actor.info.lease.node == "b"
        assert [h.hand_id for h in store.hands.in_progress([table_id])] == [newer.id]
        voided = store.hands.get(stray.hand_id)
        assert voided.status == "voided" and "abandoned" in (voided.void_reason or "")
        assert store.tables.get_match(stray.match_id).status != "abandoned"  # its match goes on
        assert store.ledger.totals() == totals and store.ledger.check().ok
        assert any(f"hand {stray.hand_id}" in r.getMessage() and "abandoned" in r.getMessage()
                   for r in caplog.records)
        # the resumed hand plays on (bots, and 托管 for the person who is away)
        await hall.advance(20.0)
        played = store.hands.in_progress([table_id])
        assert store.hands.get(newer.id).status == "ended" or (
            played and played[0].hand_id == newer.id and played[0].actions)


async def test_nothing_starts_at_a_taken_table_before_its_stored_hand_is_resumed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A person reconnecting between the new owner's spawning the table and its resuming the
    stored hand found a waiting table with every seat ready, which started a new match: two
    hands of one table in play (seen once in the chaos run). The table holds until then."""
    async with running_hall(tmp_path, starting_balance=400) as hall:
        me, table_id, stored = await _a_table_let_go_mid_hand(hall)
        rt = hall.runtime
        store = rt.store

        resume_hands = rt.hall.resume_hands

        async def a_reconnect_first(hands: list) -> None:
            # the person comes back to a waiting table, sits, fills it with bots, is ready
            await me.open(table_id)
            await me.send({"type": "sit", "seat": 0})
            await hall.quiet([me])
            await me.send({"type": "add_bots"})
            await me.send({"type": "ready"})
            await hall.quiet([me])
            await resume_hands(hands)

        monkeypatch.setattr(rt.hall, "resume_hands", a_reconnect_first)
        node = NodeRole(0, 1, tmp_path / "nodes", "", "", given_name="b", address="b:1")
        await Ownership(rt.hall, node).take_over([table_id])
        await hall.advance(1.0)
        actor = rt.hall.get(table_id)
        assert actor is not None and actor.status == PLAYING
        assert actor.hand is not None and actor.hand.id == stored.hand_id
        assert [h.hand_id for h in store.hands.in_progress([table_id])] == [stored.hand_id]
        assert not actor.holding
