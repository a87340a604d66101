"""Liability facts of one finished hand, per seat: 三摊 choices and what they led to, third
claims fed (the discard that made a 承包 pair), and Wenling 包三家 payments.

They are read from the hand's events and result JSON only (``Round.events``, or a replayed
record), so the arena and any record reader count them alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

CLAIM_EVENTS = ("chi", "pon", "mkong")


@dataclass(slots=True)
class LiabilityTally:
    """Counts summed over seat-hands (one seat, or one bot over many hands)."""

    santan_asked: int = 0  # 三摊 questions answered (坚持 or 放弃)
    santan_continue: int = 0  # of which 坚持
    continue_hands: int = 0  # hands in which the seat chose 坚持 at least once
    continue_points: float = 0.0  # its payments in those hands
    continue_wins: int = 0  # ... won by the seat itself
    continue_others_won: int = 0  # ... won by someone else
    giveup_hands: int = 0  # hands in which the seat chose 放弃
    giveup_points: float = 0.0
    third_claim_feeds: int = 0  # discards whose claim made the discarder a 承包方
    third_claims_made: int = 0  # claims that made the claimer a 承包方
    baosanjia: int = 0  # hands the seat paid for all three (包三家)
    baosanjia_paid: float = 0.0  # what it paid in those hands

    def merge(self, other: LiabilityTally) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def summary(self) -> dict[str, Any]:
        """The JSON the arena report shows (rates and means next to the counts)."""

        def ratio(a: float, b: int) -> float | None:
            return a / b if b else None

        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["continue_rate"] = ratio(self.santan_continue, self.santan_asked)
        out["points_after_continue"] = ratio(self.continue_points, self.continue_hands)
        out["win_rate_after_continue"] = ratio(self.continue_wins, self.continue_hands)
        out["others_won_after_continue"] = ratio(self.continue_others_won, self.continue_hands)
        out["baosanjia_mean_paid"] = ratio(self.baosanjia_paid, self.baosanjia)
        return out


def hand_liability(
    events: Sequence[Mapping[str, Any]], result: Mapping[str, Any]
) -> list[LiabilityTally]:
    """Per seat (0-3), the liability facts of one finished hand."""
    out = [LiabilityTally() for _ in range(4)]
    payments = result.get("payments") or [0, 0, 0, 0]
    winner = result.get("winner") if result.get("outcome") == "win" else None
    continued: set[int] = set()
    gave_up: set[int] = set()
    previous: Mapping[str, Any] | None = None
    for e in events:
        kind = e.get("type")
        if kind == "santan_choice":
            seat = e["seat"]
            out[seat].santan_asked += 1
            if e.get("choice") == "continue":
                out[seat].santan_continue += 1
                continued.add(seat)
            else:
                gave_up.add(seat)
        elif kind == "santan" and previous is not None and previous.get("type") in CLAIM_EVENTS:
            claimer, source = previous.get("seat"), previous.get("from")
            if claimer is not None and source is not None and {claimer, source} == set(e["pair"]):
                out[source].third_claim_feeds += 1
                out[claimer].third_claims_made += 1
        previous = e
    for seat in continued - gave_up:
        t = out[seat]
        t.continue_hands += 1
        t.continue_points += payments[seat]
        t.continue_wins += winner == seat
        t.continue_others_won += winner is not None and winner != seat
    for seat in gave_up:
        out[seat].giveup_hands += 1
        out[seat].giveup_points += payments[seat]
    liable = result.get("liable")
    if liable is not None:
        out[liable].baosanjia += 1
        out[liable].baosanjia_paid += -payments[liable]
    return out
