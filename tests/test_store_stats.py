"""A player's record (战绩) counted by the database, checked against the same counts made in
Python over the player's hands (SQLite, and PostgreSQL when ``BAIDA_TEST_POSTGRES_URL`` is
set)."""

from __future__ import annotations

import random
from typing import Any

from baida.server.store import Store

pytest_plugins = ["store_support"]

SEED = bytes(range(32))


def random_result(rng: random.Random) -> dict[str, Any]:
    """A hand's stored result: a draw, a self-drawn win or a win on someone's discard."""
    if rng.random() < 0.2:
        return {"outcome": "draw", "winner": None, "win_by": None, "from": None,
                "payments": [0, 0, 0, 0]}
    winner = rng.randrange(4)
    how = rng.choice(["self_draw", "discard", "rob_kong", "lazi"])
    source = None if how in ("self_draw", "lazi") else rng.choice(
        [s for s in range(4) if s != winner])
    losses = [rng.randrange(0, 200) for _ in range(3)]
    payments = [-x for x in losses]
    payments.insert(winner, sum(losses))
    return {"outcome": "win", "winner": winner, "win_by": how, "from": source,
            "payments": payments}


def reference(results: list[tuple[str, int, int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The record counted hand by hand: (ruleset, hand id, seat, result) of each hand."""
    out: dict[str, dict[str, Any]] = {}
    for ruleset, hand_id, seat, result in results:
        row = out.setdefault(ruleset, {"ruleset": ruleset, "hands": 0, "wins": 0,
                                       "self_drawn": 0, "dealt_in": 0, "drawn": 0,
                                       "points": 0, "best_points": None,
                                       "best_hand_id": None})
        row["hands"] += 1
        won = result["winner"] == seat
        row["wins"] += won
        row["self_drawn"] += won and result["win_by"] == "self_draw"
        row["dealt_in"] += result["from"] == seat
        row["drawn"] += result["winner"] is None
        paid = result["payments"][seat]
        row["points"] += paid
        best = row["best_points"]
        if paid > 0 and (best is None or paid > best or (paid == best
                                                          and hand_id > row["best_hand_id"])):
            row["best_points"], row["best_hand_id"] = paid, hand_id
    return [out[name] for name in sorted(out)]


def test_the_record_counts_what_the_hands_list_shows(store: Store) -> None:
    rng = random.Random(20261207)
    me, friend = store.accounts.create_guest().id, store.accounts.create_guest().id
    mine: list[tuple[str, int, int, dict[str, Any]]] = []
    for match in range(6):
        ruleset = ("jiaxing", "wenling")[match % 2]
        seats: list[int | None] = [None] * 4
        seat = rng.randrange(4)
        seats[seat] = me
        seats[(seat + 2) % 4] = friend
        table = store.tables.create(ruleset, match + 1, options={}, config={})
        match_id = store.tables.start_match(table.id, seats, {"hand_number": 0}).id
        for number in range(5):
            hand = store.hands.start(match_id, number, ruleset=ruleset, seed=SEED,
                                     setup={}, seats=seats)
            if number == 4 and match % 3 == 0:
                store.hands.void(hand.id, "test: a voided hand counts for nobody")
                continue
            if number == 4:
                continue  # still in play: not counted yet
            result = random_result(rng)
            store.hands.finish(hand.id, {}, result)
            mine.append((ruleset, hand.id, seat, result))
    got = [r.to_json() for r in store.stats.of(me)]
    assert got == reference(mine)
    assert sum(r["hands"] for r in got) == len(store.hands.user_hands(me, limit=1000))
    assert store.stats.of(store.accounts.create_guest().id) == []  # no hands: no record


def test_a_player_who_never_gained_has_no_best_hand(store: Store) -> None:
    me = store.accounts.create_guest().id
    table = store.tables.create("wenling", 1, options={}, config={})
    match_id = store.tables.start_match(table.id, [None, me, None, None], {}).id
    lost = {"outcome": "win", "winner": 0, "win_by": "discard", "from": 1,
            "payments": [30, -30, 0, 0]}
    hand = store.hands.start(match_id, 0, ruleset="wenling", seed=SEED, setup={},
                             seats=[None, me, None, None])
    store.hands.finish(hand.id, {}, lost)
    [record] = store.stats.of(me)
    assert (record.hands, record.wins, record.dealt_in, record.points) == (1, 0, 1, -30)
    assert record.best_points is None and record.best_hand_id is None
