"""Wenling payments (RULES.md §B5) and 包三家 (§B6).

Normal: every non-winner pays the winner T_win/10, and between two non-winners the one with
the lower total pays the other the difference / 10. 包三家: the liable player's total counts
as 0 and the liable player pays everything: the winner for all three (3 × T_win/10), every
other non-winner what it would get from a 0 total (T_N/10), and the settlement between the
other two. ``rob_payment = "robbed"`` (W-A15) makes the robbed player pay the winner alone.

``transfers`` lists every payment between two players with the totals it comes from (what a
settlement shows as "who pays whom"); ``settle`` is their sum for each seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

SEATS = (0, 1, 2, 3)


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` = (``high`` − ``low``) // 10. ``kind``: "win" (a
    non-winner's share to the winner; ``high`` the winner's total, ``low`` 0) or
    "difference" (between two non-winners). ``behalf``: the non-winner whose payment the
    payer makes in its place (包三家, or the robbed player paying alone), else None."""

    payer: int
    payee: int
    amount: int
    kind: str
    high: int
    low: int
    behalf: int | None = None


def transfers(
    winner: int,
    totals: dict[int, int],
    liable: int | None = None,
    sole_payer: int | None = None,
) -> list[Transfer]:
    """Every payment of the hand, the winner's shares first. ``totals`` holds all four seats
    (the liable one already 0); ``sole_payer`` is a non-winner that pays the winner for
    everyone (W-A15 ``robbed``). Payments of 0 are left out."""
    out: list[Transfer] = []
    losers = [s for s in SEATS if s != winner]
    to_winner = totals[winner] // 10
    payer_to_winner = liable if liable is not None else sole_payer
    for seat in losers:
        payer = seat if payer_to_winner is None else payer_to_winner
        if to_winner:
            out.append(Transfer(payer, winner, to_winner, "win", totals[winner], 0,
                                None if payer == seat else seat))
    for x, y in combinations(losers, 2):
        if totals[x] == totals[y]:
            continue
        high, low = (x, y) if totals[x] > totals[y] else (y, x)
        amount = (totals[high] - totals[low]) // 10
        payer = low if liable is None or high == liable else liable
        if amount:
            out.append(Transfer(payer, high, amount, "difference", totals[high], totals[low],
                                None if payer == low else low))
    return out


def settle(
    winner: int,
    totals: dict[int, int],
    liable: int | None = None,
    sole_payer: int | None = None,
) -> dict[int, int]:
    """Net change of every seat: the sum of its ``transfers``."""
    net = dict.fromkeys(SEATS, 0)
    for t in transfers(winner, totals, liable, sole_payer):
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    return net
