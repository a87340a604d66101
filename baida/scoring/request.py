"""The input of one scoring request (``baida score``, and the engine's settlement), typed.

Field meanings are those of ``SCORING_API.md``. Seats are 0-3 for E, S, W, N (the dealer is
E = 0); tiles are kinds from ``baida.tiles`` with ``WILD`` for a wild tile.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..hand import Hand
from ..rules.options import Options

# Upper bounds of the numeric inputs: far above any real table, and low enough that every
# amount a hand settles stays an exact integer for any JSON reader (below 2**53).
MAX_BASE = 1_000_000  # 底分, the stake per 台
MAX_CARRY_POOL = 1_000_000  # 黄番 tokens (a hand takes at most one)


@dataclass(slots=True)
class ScoreRequest:
    """A finished hand to settle."""

    ruleset: str  # "jiaxing" or "wenling"
    options: Options
    indicator: int
    winner: int
    hand: Hand
    win_tile: int | None  # None only for win_by == "lazi"
    win_by: str = "self_draw"  # "self_draw" | "discard" | "rob_kong" | "lazi"
    from_seat: int | None = None  # the discarder, or the robbed player
    base: int = 1
    round_wind: int = 0  # Jiaxing 风圈, seat index 0-3 = E S W N
    after_kong: bool = False
    after_special: bool = False
    last_tile: bool = False
    heavenly: bool = False
    earthly: bool = False
    carry_pool: int = 0  # Jiaxing
    santan: list[tuple[int, int]] = field(default_factory=list)  # Jiaxing
    gave_up: list[int] = field(default_factory=list)  # Jiaxing
    others: dict[int, Hand] = field(default_factory=dict)  # Wenling non-winners' hands
    liable: int | None = None  # Wenling 被包 seat
    discarded_wild: bool = False  # Wenling


class ScoreInputError(ValueError):
    """Malformed scoring input; ``field`` names the offending field (``hand.melds[1]``...)."""

    def __init__(self, field: str, message: str) -> None:
        # a key of the input in ``field`` is quoted where the path is built (``name_of``)
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def __reduce__(self) -> tuple[type[ScoreInputError], tuple[str, str]]:
        """Picklable (errors cross process boundaries in the arena and the hall)."""
        return (type(self), (self.field, self.message))
