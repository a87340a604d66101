"""A player's record (战绩): per ruleset, the hands finished, won, self-drawn, dealt in, drawn,
the points won and lost, and the best hand. Counted by the database from the stored results,
so it cannot drift from the hands list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, func, select

from .database import Sessions
from .models import HandRow, HandSeat


@dataclass(frozen=True)
class RulesetRecord:
    """One ruleset's part of a player's record; ``points`` the sum of the player's payments."""

    ruleset: str
    hands: int
    wins: int
    self_drawn: int
    dealt_in: int  # hands another player won on this player's discard (or robbed kong)
    drawn: int  # hands nobody won (黄牌 / 流局)
    points: int
    best_points: int | None  # the largest gain of one hand, None when never above 0
    best_hand_id: int | None

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "hands": self.hands, "wins": self.wins,
                "self_drawn": self.self_drawn, "dealt_in": self.dealt_in, "drawn": self.drawn,
                "points": self.points, "best_points": self.best_points,
                "best_hand_id": self.best_hand_id}


def _own_payment() -> Any:
    """The seat's own entry of the result's ``payments`` (the seat is a column, so a CASE)."""
    return case(*((HandSeat.seat == seat, HandRow.result[("payments", seat)].as_integer())
                  for seat in range(4)), else_=0)


class PlayerStats:
    def __init__(self, sessions: Sessions) -> None:
        self._sessions = sessions

    def of(self, user_id: int) -> list[RulesetRecord]:
        """``user_id``'s record in each ruleset they finished a hand of, by ruleset name."""
        winner = HandRow.result["winner"].as_integer()
        dealer_in = HandRow.result["from"].as_integer()
        win_by = HandRow.result["win_by"].as_string()
        payment = _own_payment()

        def count(condition: Any) -> Any:
            return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)

        ended = (HandSeat.user_id == user_id, HandRow.status == "ended")
        with self._sessions.read() as session:
            rows = session.execute(
                select(HandRow.ruleset, func.count(),
                       count(winner == HandSeat.seat),
                       count((winner == HandSeat.seat) & (win_by == "self_draw")),
                       count((dealer_in == HandSeat.seat) & (winner != HandSeat.seat)),
                       count(winner.is_(None)),
                       func.coalesce(func.sum(payment), 0))
                .join(HandSeat, HandSeat.hand_id == HandRow.id)
                .where(*ended).group_by(HandRow.ruleset).order_by(HandRow.ruleset)).all()
            records = []
            for ruleset, hands, wins, self_drawn, dealt_in, drawn, points in rows:
                best = session.execute(
                    select(payment, HandRow.id).join(HandSeat, HandSeat.hand_id == HandRow.id)
                    .where(*ended, HandRow.ruleset == ruleset, payment > 0)
                    .order_by(payment.desc(), HandRow.id.desc()).limit(1)).first()
                records.append(RulesetRecord(
                    ruleset, int(hands), int(wins), int(self_drawn), int(dealt_in), int(drawn),
                    int(points), None if best is None else int(best[0]),
                    None if best is None else int(best[1])))
            return records
