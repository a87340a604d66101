"""What one seat (or a spectator) may see of a hand, as plain data with a JSON form."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from ..hand import Meld
from ..tiles import tile_str
from .errors import MalformedAction


def meld_json(meld: Meld) -> dict[str, Any]:
    """A meld as the views and events show it: type, faces, the seat it was claimed from."""
    return {"type": meld.kind, "tiles": [tile_str(t) for t in meld.tiles], "from": meld.from_seat}


@dataclass(slots=True)
class PlayerView:
    """One seat as seen by the viewer: concealed tiles only for the viewer's own seat."""

    seat: int
    wind: str
    concealed: list[str] | None
    concealed_count: int
    drawn: str | None
    melds: list[dict[str, Any]]
    discards: list[str]
    claimed: list[int]
    flowers: list[str]
    gave_up: bool


@dataclass(slots=True)
class View:
    """A seat's (``seat`` None: a spectator's) view of a hand; never the wall or the seed early."""

    ruleset: str
    options: dict[str, Any]  # the table's rule options (public), every option named
    seat: int | None
    dealer: int
    seat_winds: list[str]
    round_wind: str | None
    dice: list[int]
    commitment: str | None
    seed: str | None
    indicator: str
    wilds: list[str]
    specials: list[str]
    phase: str
    turn: int
    to_act: list[int]
    wall_remaining: int
    last_discard: dict[str, Any] | None
    robbable: dict[str, Any] | None  # during a 抢杠 window: the 补杠 maker and the added tile
    players: list[PlayerView]
    santan_pairs: list[list[int]]
    claim_counts: list[list[int]]
    sheng_phase: bool
    carry_pool: int | None
    result: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, obj: Any) -> View:
        if not isinstance(obj, dict):
            raise MalformedAction(f"a view is a JSON object, not {type(obj).__name__}")
        names = [f.name for f in fields(cls)]
        missing = [n for n in names if n not in obj]
        if missing:
            raise MalformedAction(f"a view lacks field(s): {', '.join(missing)}")
        data = {n: obj[n] for n in names}
        player_names = [f.name for f in fields(PlayerView)]
        players = []
        for p in obj["players"]:
            if not isinstance(p, dict) or any(n not in p for n in player_names):
                raise MalformedAction("a view's player lacks fields")
            players.append(PlayerView(**{n: p[n] for n in player_names}))
        data["players"] = players
        return cls(**data)

    @property
    def me(self) -> PlayerView | None:
        """The viewer's own seat (None for a spectator)."""
        return None if self.seat is None else self.players[self.seat]
