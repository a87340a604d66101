"""Wenling payments (RULES.md §B5) and 包三家 (§B6).

Normal: every non-winner pays the winner T_win/10, and between two non-winners the one with
the lower total pays the other the difference / 10. 包三家: the liable player's total counts
as 0 and the liable player pays everything: the winner for all three (3 × T_win/10), every
other non-winner what it would get from a 0 total (T_N/10), and the settlement between the
other two. ``rob_payment = "robbed"`` (W-A15) makes the robbed player pay the winner alone.
"""

from __future__ import annotations

from itertools import combinations

SEATS = (0, 1, 2, 3)


def settle(
    winner: int,
    totals: dict[int, int],
    liable: int | None = None,
    sole_payer: int | None = None,
) -> dict[int, int]:
    """Net change of every seat. ``totals`` holds all four seats (the liable one already 0);
    ``sole_payer`` is a non-winner that pays the winner for everyone (W-A15 ``robbed``)."""
    net = dict.fromkeys(SEATS, 0)
    losers = [s for s in SEATS if s != winner]
    to_winner = totals[winner] // 10
    payer_to_winner = liable if liable is not None else sole_payer
    for seat in losers:
        payer = seat if payer_to_winner is None else payer_to_winner
        net[payer] -= to_winner
        net[winner] += to_winner
    for x, y in combinations(losers, 2):
        if totals[x] == totals[y]:
            continue
        high, low = (x, y) if totals[x] > totals[y] else (y, x)
        amount = (totals[high] - totals[low]) // 10
        payer = low if liable is None or high == liable else liable
        net[payer] -= amount
        net[high] += amount
    return net
