"""What one seat (or a spectator) may see of a hand, as plain data with a JSON form, and
``build_view``, which makes one from a hand's state (``Round.view``)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..hand import Meld
from ..quote import quote
from ..rules.options import options_to_json
from ..tiles import tile_str
from .errors import MalformedAction
from .phases import CLAIM, ENDED, ROB, TURN, WINDS
from .state import HandState


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

    def to_json(self) -> dict[str, Any]:
        """As ``dataclasses.asdict`` makes it (fresh containers), several times faster."""
        return {
            "seat": self.seat,
            "wind": self.wind,
            "concealed": None if self.concealed is None else list(self.concealed),
            "concealed_count": self.concealed_count,
            "drawn": self.drawn,
            "melds": [_copied(m) for m in self.melds],
            "discards": list(self.discards),
            "claimed": list(self.claimed),
            "flowers": list(self.flowers),
            "gave_up": self.gave_up,
        }


def _copied(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_copied(v) for v in value)
    return value


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
        """The view as JSON data: what ``dataclasses.asdict`` makes, built directly (a
        snapshot is built for every seat at every deal)."""
        out = {name: _copied(getattr(self, name)) for name in _VIEW_FIELDS}
        out["players"] = [p.to_json() for p in self.players]
        return out

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


_VIEW_FIELDS = tuple(f.name for f in fields(View) if f.name != "players")


def build_view(rnd: HandState, seat: int | None) -> View:
    """What ``seat`` may see (None: a spectator); the wall and an unrevealed seed never."""
    if seat is not None and seat not in (0, 1, 2, 3):
        raise ValueError(f"a seat is 0-3 or None, got {quote(seat)}")
    ended = rnd.phase == ENDED
    players = []
    for s in range(4):
        own = ended or s == seat
        melds = []
        for meld in rnd.melds[s]:
            if meld.kind == "akong" and not own:
                melds.append({"type": "akong", "tiles": None, "from": None})
            else:
                melds.append(meld_json(meld))
        drawn = rnd.drawn[s] if (s == seat and rnd.phase == TURN and s == rnd.turn) else None
        players.append(
            PlayerView(
                seat=s,
                wind=rnd.seat_wind(s),
                concealed=[tile_str(t) for t in rnd.concealed(s)] if own else None,
                concealed_count=rnd.concealed_count(s),
                drawn=tile_str(drawn) if drawn is not None else None,
                melds=melds,
                discards=[tile_str(t) for t in rnd.discards[s]],
                claimed=list(rnd.claimed[s]),
                flowers=[tile_str(t) for t in rnd.flowers[s]],
                gave_up=s in rnd.gave_up,
            )
        )
    last = rnd.last_discard
    return View(
        ruleset=rnd.ruleset,
        options=options_to_json(rnd.options),
        seat=seat,
        dealer=rnd.dealer,
        seat_winds=[rnd.seat_wind(s) for s in range(4)],
        round_wind=WINDS[rnd.round_wind] if rnd.rules.round_wind else None,
        dice=list(rnd.dice),
        commitment=rnd.commitment,
        seed=rnd.seed.hex() if (ended and rnd.seed is not None) else None,
        indicator=tile_str(rnd.indicator),
        wilds=[tile_str(k) for k in rnd.wilds],
        specials=[tile_str(k) for k in rnd.specials],
        phase=rnd.phase,
        turn=rnd.turn,
        to_act=_visible_to_act(rnd, seat),
        wall_remaining=rnd.remaining,
        last_discard=None if last is None else {"seat": last[0], "tile": tile_str(last[1])},
        robbable=_robbable(rnd),
        players=players,
        santan_pairs=[list(p) for p in rnd.santan_pairs],
        claim_counts=[list(row) for row in rnd.claim_counts],
        sheng_phase=rnd.sheng_phase,
        carry_pool=rnd.carry_pool if rnd.rules.carry_pool else None,
        result=rnd.result.to_json() if rnd.result is not None else None,
    )


def _robbable(rnd: HandState) -> dict[str, Any] | None:
    """The 补杠 that may be robbed now (public: the bukong event announced it)."""
    if rnd.phase != ROB or rnd.window_from is None or rnd.window_tile is None:
        return None
    return {"seat": rnd.window_from, "tile": tile_str(rnd.window_tile)}


def _visible_to_act(rnd: HandState, seat: int | None) -> list[int]:
    """Who must decide, as ``seat`` may know it: in a claim or rob window only whether
    oneself is asked (who else holds a claim is private)."""
    waiting = rnd.to_act
    if rnd.phase in (CLAIM, ROB):
        return [seat] if seat in waiting else []
    return list(waiting)
