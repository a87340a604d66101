"""The outcome of one hand: who won how, the payments by seat and the scorer's breakdown."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..tiles import parse_tile, tile_str


@dataclass(slots=True)
class HandResult:
    """A finished hand: ``payments`` by absolute seat, ``score`` the scorer output."""

    outcome: str  # "win" or "draw"
    winner: int | None
    win_by: str | None
    win_tile: int | None
    from_seat: int | None
    liable: int | None
    payments: list[int]
    score: dict[str, Any] | None
    carry_pool_after: int | None
    hands: list[dict[str, Any]] = field(default_factory=list)
    seed: str | None = None
    # Wenling: who paid whom (engine.md "HandResult"); derived from ``score``, so not stored
    # in a record's settlement
    transfers: list[dict[str, Any]] | None = None

    def settlement(self) -> dict[str, Any]:
        """The part a record stores and a replay must reproduce."""
        return {
            "outcome": self.outcome,
            "winner": self.winner,
            "win_by": self.win_by,
            "win_tile": None if self.win_tile is None else tile_str(self.win_tile),
            "from": self.from_seat,
            "liable": self.liable,
            "payments": list(self.payments),
            "carry_pool_after": self.carry_pool_after,
            "score": self.score,
        }

    def to_json(self) -> dict[str, Any]:
        out = self.settlement()
        out["hands"] = self.hands
        out["seed"] = self.seed
        if self.transfers is not None:  # only where the ruleset settles pair by pair
            out["transfers"] = self.transfers
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> HandResult:
        tile = obj.get("win_tile")
        return cls(
            outcome=obj["outcome"],
            winner=obj.get("winner"),
            win_by=obj.get("win_by"),
            win_tile=None if tile is None else parse_tile(tile),
            from_seat=obj.get("from"),
            liable=obj.get("liable"),
            payments=list(obj["payments"]),
            score=obj.get("score"),
            carry_pool_after=obj.get("carry_pool_after"),
            hands=list(obj.get("hands", [])),
            seed=obj.get("seed"),
            transfers=obj.get("transfers"),
        )
