"""The 银子 arithmetic of a hand and an escape, against its rules and worked examples."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from baida.server.store.errors import InvalidRequest
from baida.server.store.settlement import (
    SeatAmounts,
    escape_amounts,
    settle_amounts,
    share_pro_rata,
)


def test_everyone_can_pay_then_everyone_gets_what_they_are_owed() -> None:
    out = settle_amounts([-12, -12, 36, -12], [100, 100, 100, 100], 2)
    assert out == [SeatAmounts(-12, -12, 2, 86), SeatAmounts(-12, -12, 2, 86),
                   SeatAmounts(36, 36, 2, 134), SeatAmounts(-12, -12, 2, 86)]


def test_a_loser_pays_at_most_their_balance_and_winners_share_it_pro_rata() -> None:
    # seat 0 owes 1500 but holds 1000; the bot at seat 2 pays in full
    out = settle_amounts([-1500, 600, -400, 1300], [1000, 50, None, 0], 10)
    paid = 1000 + 400
    # winners owed 600 and 1300 of 1900: exact shares 442.1 and 957.9 -> 442 and 958
    assert [s.amount for s in out] == [-1000, 442, -400, 958]
    assert sum(s.amount for s in out) == 0 and 442 + 958 == paid
    assert [s.fee for s in out] == [0, 10, 0, 10]  # the broke loser pays no fee, bots none
    assert [s.balance_after for s in out] == [0, 482, None, 948]


def test_the_fee_never_takes_a_balance_below_zero() -> None:
    out = settle_amounts([-5, 5, 0, 0], [5, 0, 3, 0], 4)
    assert [(s.fee, s.balance_after) for s in out] == [(0, 0), (4, 1), (3, 0), (0, 0)]


def test_a_hand_of_bots_moves_nothing_from_humans() -> None:
    out = settle_amounts([-30, 10, 10, 10], [None, None, None, 7], 10)
    assert [s.amount for s in out] == [-30, 10, 10, 10]
    assert [s.fee for s in out] == [0, 0, 0, 10]
    assert out[3].balance_after == 7


def test_largest_remainder_ties_go_to_the_first_seat() -> None:
    assert share_pro_rata(1, [1, 1, 1]) == [1, 0, 0]
    assert share_pro_rata(2, [1, 1, 1]) == [1, 1, 0]
    assert share_pro_rata(5, [3, 3]) == [3, 2]
    assert share_pro_rata(0, [4, 5]) == [0, 0]
    assert share_pro_rata(9, [4, 5]) == [4, 5]


@pytest.mark.parametrize(("owed", "fee", "message"), [
    ([-1, 1, 0], 0, "four seats"),
    ([-1, 2, 0, 0], 0, "sum to 0"),
    ([-1.5, 1.5, 0, 0], 0, "whole number"),
    ([True, -1, 0, 0], 0, "whole number"),
    ([-1, 1, 0, 0], -1, "fee"),
])
def test_bad_requests_are_refused(owed: list, fee: int, message: str) -> None:
    with pytest.raises(InvalidRequest, match=message):
        settle_amounts(owed, [10, 10, 10, 10], fee)


def test_an_escape_splits_equally_and_the_remainder_goes_to_the_house() -> None:
    out = escape_amounts(1000, 100, 5, 3)
    assert (out.penalty_paid, out.fee_paid, out.shares, out.to_house, out.balance_after) == \
        (100, 5, (33, 33, 33), 1, 895)
    poor = escape_amounts(102, 100, 5, 2)
    assert (poor.penalty_paid, poor.fee_paid, poor.shares, poor.balance_after) == \
        (100, 2, (50, 50), 0)
    broke = escape_amounts(40, 100, 5, 3)
    assert (broke.penalty_paid, broke.fee_paid, broke.shares, broke.to_house) == \
        (40, 0, (13, 13, 13), 1)
    alone = escape_amounts(10, 7, 0, 0)
    assert (alone.shares, alone.to_house) == ((), 7)


def largest_remainder_reference(pool: int, weights: list[int]) -> list[int]:
    """Hamilton's method by brute force: of every way to hand out the leftover units one
    each, the one whose receivers have the largest exact fractions (then the lowest seats)."""
    total = sum(weights)
    if total == 0:
        return [0] * len(weights)
    exact = [Fraction(pool * w, total) for w in weights]
    floors = [int(x) for x in exact]
    left = pool - sum(floors)
    best = max(itertools.combinations(range(len(weights)), left),
               key=lambda chosen: (sum(exact[i] - floors[i] for i in chosen),
                                   [-i for i in chosen]))
    return [f + (1 if i in best else 0) for i, f in enumerate(floors)]


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=3), st.data())
def test_pro_rata_is_hamiltons_method(weights: list[int], data: st.DataObject) -> None:
    pool = data.draw(st.integers(0, sum(weights)))
    assert share_pro_rata(pool, weights) == largest_remainder_reference(pool, weights)


owed_vectors = st.lists(st.integers(-2000, 2000), min_size=3, max_size=3).map(
    lambda three: [*three, -sum(three)])
balances = st.lists(st.one_of(st.none(), st.integers(0, 3000)), min_size=4, max_size=4)


@settings(max_examples=examples(300), deadline=None)
@given(owed_vectors, balances, st.integers(0, 50))
def test_a_hand_keeps_every_rule(owed: list[int], before: list[int | None], fee: int) -> None:
    out = settle_amounts(owed, before, fee)
    assert sum(s.amount for s in out) == 0  # what losers pay is exactly what winners get
    paid = 0
    for seat, s in enumerate(out):
        if owed[seat] < 0:  # a loser pays the debt, a human at most their balance
            cap = -owed[seat] if before[seat] is None else min(-owed[seat], before[seat])
            assert s.amount == -cap
            paid += cap
        elif owed[seat] == 0:
            assert s.amount == 0
        else:  # a winner gets at most what they are owed, and all of it if every loser paid
            assert 0 <= s.amount <= owed[seat]
        if before[seat] is None:
            assert (s.fee, s.balance_after) == (0, None)
        else:
            assert s.fee == min(fee, before[seat] + s.amount)
            assert s.balance_after == before[seat] + s.amount - s.fee >= 0
    winners = [seat for seat in range(4) if owed[seat] > 0]
    assert [out[seat].amount for seat in winners] == largest_remainder_reference(
        paid, [owed[seat] for seat in winners])


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 500), st.integers(0, 300), st.integers(0, 30), st.integers(0, 3))
def test_an_escape_keeps_every_rule(balance: int, penalty: int, fee: int, others: int) -> None:
    out = escape_amounts(balance, penalty, fee, others)
    assert out.penalty_paid == min(penalty, balance)
    assert out.fee_paid == min(fee, balance - out.penalty_paid)
    assert out.balance_after == balance - out.penalty_paid - out.fee_paid >= 0
    assert len(set(out.shares)) <= 1 and len(out.shares) == others
    assert sum(out.shares) + out.to_house == out.penalty_paid
    assert 0 <= out.to_house < max(others, 1) or others == 0
