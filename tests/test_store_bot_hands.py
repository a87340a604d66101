"""Bot hands of the real engine through the store: stored as they are played, rebuilt mid-hand
from storage (as a restarted hall does), finished with a record and a 银子 settlement."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis_budget import examples

from baida.bots.policy import make_bot
from baida.engine import Match, Round
from baida.engine.records import replay
from baida.rules.options import options_to_json
from baida.server.store import SettleRequest, Store
from baida.tiles import tile_str

pytest_plugins = ["store_support"]

SILVER_BASE = 20  # 底分 in 银子: the hall owes points x this
FEE = 5


def hand_setup(match: Match) -> dict[str, Any]:
    """The Round.from_seed keywords of the match's next hand, as JSON."""
    return {
        "options": options_to_json(match.options),
        "dealer": match.dealer,
        "round_wind": match.round_wind,
        "base": match.base,
        "carry_pool": match.carry_pool,
        "previous_wild": None if match.previous_wild is None else tile_str(match.previous_wild),
    }


def rebuild(stored) -> Round:
    """What a restarted hall does with one of ``in_progress()``."""
    rnd = Round.from_seed(stored.ruleset, stored.seed, **stored.setup)
    for _, action in stored.actions:
        rnd.apply(action)
    return rnd


def same_state(a: Round, b: Round) -> None:
    for seat in (0, 1, 2, 3, None):
        assert a.view(seat).to_json() == b.view(seat).to_json()
    for seat in range(4):
        assert a.legal_actions(seat) == b.legal_actions(seat)
    assert a.to_act == b.to_act


class Table:
    """A 银子 table of the hall played by bots, written to the store as it goes."""

    def __init__(self, store: Store, ruleset: str, seats: list[int | None], seed: int,
                 bots: tuple[str, ...] = ("random",) * 4, batch: int = 8) -> None:
        self.store = store
        self.batch = batch  # actions are stored in batches of 1 to this many
        self.seats = seats
        self.rng = random.Random(seed)
        self.bots = [make_bot(name, seed=seed * 4 + i) for i, name in enumerate(bots)]
        table = store.tables.create(ruleset, 1, options={}, config={
            "base": SILVER_BASE, "fee": FEE, "stakes": "silver", "claim_seconds": 5})
        self.match = Match(ruleset, hands=10_000)
        self.match_id = store.tables.start_match(table.id, seats, self.match.to_json()).id
        self.seed = seed

    def deal(self) -> tuple[int, Round]:
        setup = hand_setup(self.match)
        seed = hashlib.sha256(f"store-test:{self.seed}:{self.match.hand_number}".encode()).digest()
        hand = self.store.hands.start(self.match_id, self.match.hand_number,
                                      ruleset=self.match.ruleset, seed=seed, setup=setup,
                                      seats=self.seats)
        return hand.id, self.match.start_hand(seed)

    def play(self, hand_id: int, rnd: Round, *, stop_after: int | None = None,
             apply: Callable[[Any], object] | None = None) -> None:
        """Bots play (until ``stop_after`` actions in all); actions are stored in batches."""
        apply = apply or self.match.apply
        pending: list[tuple[int, dict[str, Any]]] = []
        while not rnd.ended and (stop_after is None or len(rnd.actions) < stop_after):
            seat = rnd.to_act[0]
            action = self.bots[seat].choose(rnd.view(seat), rnd.legal_actions(seat))
            apply(action)
            pending.append((len(rnd.actions) - 1, action.to_json()))
            if len(pending) >= self.rng.randint(1, self.batch):
                self.store.hands.append_actions(hand_id, pending)
                pending = []
        self.store.hands.append_actions(hand_id, pending)

    def finish(self, hand_id: int, rnd: Round):
        points = rnd.result.payments
        return self.store.hands.finish(
            hand_id, rnd.record(), rnd.result.to_json(),
            settle=SettleRequest(f"hand:{hand_id}", self.seats,
                                 [p * SILVER_BASE for p in points], FEE),
            match_state=self.match.to_json())


@pytest.mark.parametrize(("ruleset", "bots"), [
    ("jiaxing", ("random", "random", "greedy", "random")),
    ("wenling", ("greedy", "random", "greedy", "random")),
])
def test_a_hand_rebuilt_from_storage_is_the_live_hand(store: Store, ruleset: str,
                                                      bots: tuple[str, ...]) -> None:
    users = [store.accounts.create_guest().id for _ in range(3)]
    seats = [users[0], None, users[1], users[2]]
    table = Table(store, ruleset, seats, seed=7, bots=bots)
    rebuilt = 0
    for _ in range(2):
        hand_id, rnd = table.deal()
        (fresh,) = store.hands.in_progress()  # before any action: the deal itself
        same_state(rebuild(fresh), rnd)
        assert fresh.commitment == rnd.commitment and fresh.seats == seats
        # stop at a few points of the hand and rebuild it from what is stored
        for stop in sorted(table.rng.sample(range(1, 30), 3)):
            table.play(hand_id, rnd, stop_after=stop)
            if rnd.ended:
                break
            (stored,) = store.hands.in_progress()
            assert [seq for seq, _ in stored.actions] == list(range(len(rnd.actions)))
            same_state(rebuild(stored), rnd)
            rebuilt += 1
        table.play(hand_id, rnd)
        done = table.finish(hand_id, rnd)
        assert store.hands.in_progress() == []
        record = store.hands.record(hand_id, users[0])
        assert record["seed"] == rnd.seed.hex() and record == rnd.record()
        replayed = replay(record)
        assert replayed.matches, replayed.differences
        assert [s.owed for s in done.settlement.seats] == \
            [p * SILVER_BASE for p in rnd.result.payments]
    assert rebuilt >= 3
    assert store.ledger.check().ok


def test_a_restarted_hall_resumes_the_hand_and_pays_it_once(databases) -> None:
    url = databases.url()
    store = databases.store(url)
    users = [store.accounts.create_guest().id for _ in range(4)]
    table = Table(store, "jiaxing", users, seed=11)
    hand_id, live = table.deal()
    table.play(hand_id, live, stop_after=25)
    store.close()  # the server is killed mid-hand

    restarted = databases.store(url)  # a new process: a new engine on the same database
    (stored,) = restarted.hands.in_progress()
    assert stored.hand_id == hand_id and stored.match_state == table.match.to_json()
    rnd = rebuild(stored)
    same_state(rnd, live)
    table.store = restarted
    table.play(hand_id, rnd, apply=rnd.apply)
    settle = SettleRequest(f"hand:{hand_id}", users,
                           [p * SILVER_BASE for p in rnd.result.payments], FEE)
    first = restarted.hands.finish(hand_id, rnd.record(), rnd.result.to_json(), settle=settle)
    # killed again after the commit but before the hall saw it: the retry pays nothing twice
    again = restarted.hands.finish(hand_id, rnd.record(), rnd.result.to_json(), settle=settle)
    assert again.replayed and again.settlement.seats == first.settlement.seats
    assert [restarted.ledger.balance(u) for u in users] == \
        [s.balance_after for s in first.settlement.seats]
    assert replay(restarted.hands.record(hand_id, users[0])).matches
    assert restarted.ledger.check().ok


def test_many_bot_hands_keep_the_ledger_sound(make_store) -> None:
    """Small balances and a high 底分 make the caps bite; broke players are topped up; some
    players escape. After every hand: no balance below 0; at the end the ledger balances."""
    store = make_store(starting_balance=300)
    users = [store.accounts.create_guest().id for _ in range(6)]
    rng = random.Random(2026)
    hands = 0
    for table_number in range(examples(20)):
        ruleset = ("jiaxing", "wenling")[table_number % 2]
        seats = rng.sample([*users, None, None], 4)
        table = Table(store, ruleset, seats, seed=100 + table_number, batch=40)
        for _ in range(10):
            hand_id, rnd = table.deal()
            humans = [u for u in seats if u is not None]
            if humans and rng.random() < 0.1:  # someone escapes: the hand is voided
                table.play(hand_id, rnd, stop_after=rng.randint(1, 20),
                           apply=rnd.apply)
                store.hands.void(hand_id, "a player escaped")
                escaper = rng.choice(humans)
                store.ledger.escape(f"escape:{hand_id}", escaper, 200,
                                    [u for u in seats if u != escaper], fee=FEE,
                                    hand_id=hand_id)
                break  # the match ends with the escape
            table.play(hand_id, rnd)
            done = table.finish(hand_id, rnd)
            hands += 1
            for seat in done.settlement.seats:
                if seat.user_id is not None:
                    assert seat.balance_after >= 0
                    if seat.balance_after == 0:
                        store.ledger.grant(f"topup:{hand_id}:{seat.user_id}", seat.user_id, 300)
    assert hands >= examples(20) * 5
    check = store.ledger.check()
    assert check.ok, check
    totals = store.ledger.totals()
    by = totals.by_entry
    assert totals.entries_sum == 0
    to_house = by.get(("house", "fee"), 0) + by.get(("house", "penalty"), 0)
    assert totals.by_account["user"] == \
        by[("user", "grant")] - to_house - totals.by_account["bots"]
    assert all(a.balance >= 0 for a in store.accounts.list_players())
