"""Tables, matches, hands, their actions and records: the rows that let the hall restart."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from baida.server.store import (
    HandStateError,
    IdempotencyConflict,
    InvalidRequest,
    NotFound,
    SettleRequest,
    Store,
)
from baida.server.store import hands as hands_module
from baida.server.store.models import HandAction

pytest_plugins = ["store_support"]

SEED = bytes(range(32))
ACTION = {"type": "discard", "seat": 0, "tile": "5p"}


def a_hand(store: Store, seats: list[int | None], number: int = 0, match_id: int | None = None):
    if match_id is None:
        table = store.tables.create("jiaxing", 1, options={"allow_chi": True},
                                    config={"base": 10, "fee": 2, "stakes": "silver"})
        match_id = store.tables.start_match(table.id, seats, {"hand_number": 0}).id
    return store.hands.start(match_id, number, ruleset="jiaxing", seed=SEED,
                             setup={"dealer": 0, "base": 10}, seats=seats)


def test_tables_open_list_and_close(store: Store) -> None:
    owner = store.accounts.create_guest().id
    public = store.tables.create("jiaxing", 3, options={"allow_chi": False},
                                 config={"base": 5, "fee": 1, "stakes": "points"})
    private = store.tables.create("wenling", 1, options={}, config={"stakes": "silver"},
                                  private=True, room_code="ABC123", created_by=owner)
    assert (public.status, public.number, public.options, public.private) == \
        ("open", 3, {"allow_chi": False}, False)
    assert store.tables.by_room_code("ABC123") == private
    assert store.tables.by_room_code("ZZZ") is None
    with pytest.raises(InvalidRequest, match="in use"):
        store.tables.create("wenling", 2, options={}, config={}, room_code="ABC123")
    assert [t.id for t in store.tables.list()] == [public.id, private.id]
    assert [t.id for t in store.tables.list(ruleset="wenling")] == [private.id]
    closed = store.tables.close(private.id)
    assert closed.status == "closed" and closed.closed_at is not None
    assert closed.room_code is None and closed.private  # the code is free again
    assert store.tables.close(private.id) == closed  # twice is fine
    assert store.tables.by_room_code("ABC123") is None
    reused = store.tables.create("wenling", 2, options={}, config={}, room_code="ABC123")
    assert store.tables.by_room_code("ABC123") == reused  # a closed table frees its code
    assert len(store.tables.list(status=None)) == 3
    with pytest.raises(HandStateError, match="closed"):
        store.tables.start_match(private.id, [None] * 4, {})
    for bad in [dict(ruleset="riichi"), dict(number=0), dict(options=[]),
                dict(room_code="x" * 17)]:
        args = dict(ruleset="jiaxing", number=1, options={}, config={}) | bad
        with pytest.raises(InvalidRequest):
            store.tables.create(args.pop("ruleset"), args.pop("number"), **args)
    with pytest.raises(NotFound):
        store.tables.close(999)
    with pytest.raises(NotFound, match="no account with id 999"):
        store.tables.create("jiaxing", 9, options={}, config={}, created_by=999)


def test_matches_keep_their_state(store: Store) -> None:
    a, b = (store.accounts.create_guest().id for _ in range(2))
    table = store.tables.create("jiaxing", 1, options={}, config={})
    match = store.tables.start_match(table.id, [a, None, b, None], {"hand_number": 0})
    assert store.tables.current_match(table.id) == match
    saved = store.tables.save_match(match.id, state={"hand_number": 1}, seats=[a, None, None, None])
    assert (saved.state, saved.seats, saved.status) == ({"hand_number": 1}, [a, None, None, None],
                                                        "playing")
    ended = store.tables.save_match(match.id, status="ended")
    assert ended.status == "ended" and store.tables.current_match(table.id) is None
    for seats in ([a, a, None, None], [a, None, None], ["x", None, None, None]):
        with pytest.raises(InvalidRequest, match="seats"):
            store.tables.start_match(table.id, seats, {})
    with pytest.raises(InvalidRequest, match="status"):
        store.tables.save_match(match.id, status="paused")
    with pytest.raises(NotFound, match="no account with id 999"):
        store.tables.start_match(table.id, [a, 999, None, None], {})
    with pytest.raises(NotFound, match="no account with id 999"):
        store.tables.save_match(match.id, seats=[999, None, None, None])


def test_a_hand_starts_once_and_keeps_its_seed_secret(store: Store) -> None:
    a, b = (store.accounts.create_guest().id for _ in range(2))
    hand = a_hand(store, [a, None, b, None])
    assert hand.commitment == hashlib.sha256(SEED).hexdigest()
    assert not hasattr(hand, "seed") and hand.status == "playing"
    assert a_hand(store, [a, None, b, None], match_id=hand.match_id) == hand  # a retried start
    with pytest.raises(HandStateError, match="another seed"):
        store.hands.start(hand.match_id, 0, ruleset="jiaxing", seed=b"other", setup={},
                          seats=[a, None, b, None])
    assert store.hands.record(hand.id, a) is None  # never before the end
    with pytest.raises(NotFound, match="no account with id 999"):
        store.hands.start(hand.match_id, 1, ruleset="jiaxing", seed=SEED, setup={},
                          seats=[a, 999, None, None])


def test_actions_append_in_batches_and_retries_write_nothing(store: Store) -> None:
    hand = a_hand(store, [None] * 4)
    assert store.hands.append_actions(hand.id, [(i, {**ACTION, "n": i}) for i in range(50)]) == 50
    assert store.hands.append_actions(hand.id, [(i, {**ACTION, "n": i}) for i in range(40, 60)]) \
        == 10
    assert store.hands.append_actions(hand.id, [(0, {"type": "other"})]) == 0  # first one kept
    assert store.hands.append_actions(hand.id, []) == 0
    other = a_hand(store, [None] * 4, number=1, match_id=hand.match_id)
    assert store.hands.append_many({hand.id: [(60, ACTION)], other.id: [(0, ACTION)]}) == 2
    (first, second) = store.hands.in_progress()
    assert [seq for seq, _ in first.actions] == list(range(61))
    assert first.actions[0][1] == {**ACTION, "n": 0}
    assert second.actions == [(0, ACTION)]
    for bad, message in [([(-1, ACTION)], "seq"), ([(1.5, ACTION)], "seq"),
                         ([(1, "discard")], "JSON object"), ([(1,)], "seq, action")]:
        with pytest.raises(InvalidRequest, match=message):
            store.hands.append_actions(hand.id, bad)
    with pytest.raises(NotFound):
        store.hands.append_actions(999, [(0, ACTION)])


def test_finish_writes_the_record_settlement_and_match_state_at_once(store: Store) -> None:
    a, b, c = (store.accounts.create_guest().id for _ in range(3))
    hand = a_hand(store, [a, b, None, c])
    store.hands.append_actions(hand.id, [(0, ACTION)])
    record = {"format": "baida-record-v1", "seed": SEED.hex(), "actions": [ACTION]}
    settle = SettleRequest(f"hand:{hand.id}", [a, b, None, c], [-120, 40, 40, 40], 2)
    done = store.hands.finish(hand.id, record, {"outcome": "win"}, settle=settle,
                              match_state={"hand_number": 1})
    assert not done.replayed and done.hand.status == "ended" and done.hand.ended_at
    assert done.settlement.hand_id == hand.id
    assert [s.balance_after for s in done.settlement.seats] == [878, 1038, None, 1038]
    assert store.tables.get_match(hand.match_id).state == {"hand_number": 1}
    assert all(e.hand_id == hand.id for e in store.ledger.history(a, limit=2))
    again = store.hands.finish(hand.id, record, {"outcome": "win"}, settle=settle)
    assert again.replayed and again.settlement.replayed
    assert again.settlement.seats == done.settlement.seats
    assert store.ledger.balance(a) == 878
    assert store.hands.in_progress() == []
    with pytest.raises(HandStateError, match="no more actions"):
        store.hands.append_actions(hand.id, [(1, ACTION)])
    with pytest.raises(HandStateError, match="cannot be voided"):
        store.hands.void(hand.id, "server restart")
    assert store.ledger.check().ok


def test_a_failed_settlement_leaves_the_hand_unfinished(store: Store) -> None:
    a, b = (store.accounts.create_guest().id for _ in range(2))
    store.ledger.grant("taken-key", a, 5)
    hand = a_hand(store, [a, b, None, None])
    settle = SettleRequest("taken-key", [a, b, None, None], [-10, 10, 0, 0], 1)
    with pytest.raises(IdempotencyConflict):
        store.hands.finish(hand.id, {"r": 1}, {"o": 1}, settle=settle,
                           match_state={"hand_number": 1})
    assert store.hands.get(hand.id).status == "playing"
    assert store.hands.record(hand.id, a) is None
    assert store.tables.get_match(hand.match_id).state == {"hand_number": 0}
    assert [h.hand_id for h in store.hands.in_progress()] == [hand.id]
    ok = SettleRequest(f"hand:{hand.id}", [a, b, None, None], [-10, 10, 0, 0], 1)
    assert store.hands.finish(hand.id, {"r": 1}, {"o": 1}, settle=ok).hand.status == "ended"


def test_void_moves_no_silver_and_ends_the_hand(store: Store) -> None:
    a = store.accounts.create_guest().id
    hand = a_hand(store, [a, None, None, None])
    store.hands.append_actions(hand.id, [(0, ACTION)])
    voided = store.hands.void(hand.id, "the server stopped before it could resume")
    assert voided.status == "voided" and voided.void_reason.startswith("the server")
    assert store.hands.void(hand.id, "again") == voided
    assert store.hands.in_progress() == []
    assert store.hands.user_hands(a) == []
    assert store.hands.record(hand.id, a) is None
    with pytest.raises(HandStateError, match="voided"):
        store.hands.finish(hand.id, {}, {})
    assert store.ledger.balance(a) == 1000


def test_players_list_their_hands_and_only_they_read_records(store: Store) -> None:
    a, b, outsider = (store.accounts.create_guest().id for _ in range(3))
    admin = store.accounts.register("Boss", "password1", role="admin").id
    first = a_hand(store, [a, None, b, None])
    ids = []
    for number in range(4):
        hand = first if number == 0 else a_hand(store, [a, None, b, None], number=number,
                                                match_id=first.match_id)
        if number < 3:
            store.hands.finish(hand.id, {"n": number}, {"outcome": "draw"})
            ids.append(hand.id)
    mine = store.hands.user_hands(a)
    assert [h.hand_id for h in mine] == ids[::-1]  # newest first; the unfinished one is not
    assert mine[0].seat == 0 and store.hands.user_hands(b)[0].seat == 2
    assert [h.hand_id for h in store.hands.user_hands(a, limit=2, before=ids[2])] == \
        ids[1::-1]
    assert store.hands.user_hands(outsider) == []
    assert store.hands.record(ids[0], a) == {"n": 0}
    assert store.hands.record(ids[0], b) == {"n": 0}
    assert store.hands.record(ids[0], outsider) is None
    assert store.hands.record(ids[0], admin) == {"n": 0}
    assert store.hands.record(999, admin) is None


def test_timestamps_come_from_the_injected_clock(make_store) -> None:
    now = [datetime(2026, 1, 1, 12, 0, tzinfo=UTC)]
    store = make_store(clock=lambda: now[0])
    a = store.accounts.create_guest()
    assert a.created_at == now[0]
    hand = a_hand(store, [a.id, None, None, None])
    now[0] += timedelta(minutes=3)
    done = store.hands.finish(hand.id, {}, {})
    assert (done.hand.started_at, done.hand.ended_at) == (now[0] - timedelta(minutes=3), now[0])
    with pytest.raises(ValueError, match="timezone-aware"):
        make_store(clock=lambda: datetime(2026, 1, 1)).accounts.create_guest()


def test_action_rows_are_unique_per_hand_and_seq(store: Store) -> None:
    hand = a_hand(store, [None] * 4)
    store.hands.append_actions(hand.id, [(0, ACTION), (0, {"dup": True})])
    with store.engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(HandAction)) == 1


def test_the_writers_raw_rows_land_once(store: Store) -> None:
    hand = a_hand(store, [None] * 4)
    other = a_hand(store, [None] * 4, number=1, match_id=hand.match_id)
    store.hands.append_rows([(hand.id, i, {**ACTION, "n": i}) for i in range(5)]
                            + [(other.id, 0, {"type": "pass", "seat": 2, "说": "中"})])
    store.hands.append_rows([(hand.id, 4, {"type": "other"}), (hand.id, 5, ACTION)])
    store.hands.append_rows([])
    (first, second) = store.hands.in_progress()
    assert first.actions == [(i, {**ACTION, "n": i}) for i in range(5)] + [(5, ACTION)]
    assert second.actions == [(0, {"type": "pass", "seat": 2, "说": "中"})]


def test_the_writers_raw_rows_span_several_statements(store: Store) -> None:
    """More rows than one INSERT carries: every row lands once, in order, duplicates skipped."""
    hand = a_hand(store, [None] * 4)
    count = 2 * hands_module._ROWS_PER_STATEMENT + 7
    rows = [(hand.id, i, {**ACTION, "n": i}) for i in range(count)]
    store.hands.append_rows(rows + [(hand.id, 3, {"type": "duplicate"})])
    (stored,) = store.hands.in_progress()
    assert stored.actions == [(i, {**ACTION, "n": i}) for i in range(count)]
