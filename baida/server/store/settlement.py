"""The 银子 arithmetic of a hand and of an escape, apart from any database.

A balance never goes below 0: a human loser pays at most what they hold, the winners share
what the losers actually paid in proportion to what each was owed (largest remainder, ties to
the lower seat), bots (the house's stake) pay in full, and each human seat then pays the
service fee up to what it still holds. An escaper pays the penalty, then the fee, each up to
what they hold; the penalty is split equally among the others, the remainder to the house.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import InvalidRequest


@dataclass(frozen=True)
class SeatAmounts:
    """One seat's part of a hand: what it was owed, what moved, the fee, its balance after."""

    owed: int
    amount: int  # signed: paid (negative) or received (positive) for the hand itself
    fee: int
    balance_after: int | None  # None for a bot seat


@dataclass(frozen=True)
class EscapeAmounts:
    """An escape: what the escaper paid, each other seat's share, the house's part."""

    penalty_paid: int
    fee_paid: int
    shares: tuple[int, ...]  # in the order of the others
    to_house: int  # the penalty's remainder that could not be split evenly
    balance_after: int


def check_amount(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidRequest(f"{name}: expected a whole number of 银子 >= 0, got {value!r}")
    return value


def share_pro_rata(pool: int, weights: Sequence[int]) -> list[int]:
    """``pool`` split in proportion to ``weights`` (largest remainder; ties to the first)."""
    total = sum(weights)
    if pool > total or pool < 0 or any(w < 0 for w in weights):
        raise InvalidRequest("a pool is split among non-negative weights and exceeds none of them")
    if total == 0:
        return [0] * len(weights)
    shares = [pool * w // total for w in weights]
    remainders = [pool * w % total for w in weights]
    order = sorted(range(len(weights)), key=lambda i: (-remainders[i], i))
    for i in order[: pool - sum(shares)]:
        shares[i] += 1
    return shares


def check_hand(owed: Sequence[int], fee: int) -> None:
    """``InvalidRequest`` unless ``owed`` is four whole amounts summing to 0 and ``fee >= 0``."""
    if len(owed) != 4:
        raise InvalidRequest(f"owed: a hand has four seats, got {len(owed)} amounts")
    for seat, value in enumerate(owed):
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidRequest(f"owed[{seat}]: expected a whole number of 银子, got {value!r}")
    if sum(owed) != 0:
        raise InvalidRequest(f"owed must sum to 0, got {list(owed)} (sum {sum(owed)})")
    check_amount("fee", fee)


def settle_amounts(owed: Sequence[int], balances: Sequence[int | None],
                   fee: int) -> list[SeatAmounts]:
    """Each seat's part of a hand; ``balances[i]`` is None for a bot seat."""
    check_hand(owed, fee)
    if len(balances) != 4:
        raise InvalidRequest("balances: a hand has four seats")
    paid = [0] * 4
    for seat in range(4):
        if owed[seat] < 0:
            balance = balances[seat]
            paid[seat] = -owed[seat] if balance is None else min(-owed[seat], max(balance, 0))
    winners = [seat for seat in range(4) if owed[seat] > 0]
    received = share_pro_rata(sum(paid), [owed[seat] for seat in winners])
    amount = [-p for p in paid]
    for seat, got in zip(winners, received, strict=True):
        amount[seat] = got
    out = []
    for seat in range(4):
        balance = balances[seat]
        if balance is None:
            out.append(SeatAmounts(owed[seat], amount[seat], 0, None))
            continue
        after_hand = balance + amount[seat]
        seat_fee = min(fee, max(after_hand, 0))
        out.append(SeatAmounts(owed[seat], amount[seat], seat_fee, after_hand - seat_fee))
    return out


def escape_amounts(balance: int, penalty: int, fee: int, others: int) -> EscapeAmounts:
    """An escaper holding ``balance`` pays ``penalty`` to ``others`` seats, then ``fee``."""
    check_amount("penalty", penalty)
    check_amount("fee", fee)
    if others < 0:
        raise InvalidRequest("the number of other seats cannot be negative")
    held = max(balance, 0)
    penalty_paid = min(penalty, held)
    fee_paid = min(fee, held - penalty_paid)
    share = penalty_paid // others if others else 0
    return EscapeAmounts(penalty_paid, fee_paid, (share,) * others,
                         penalty_paid - share * others, held - penalty_paid - fee_paid)
