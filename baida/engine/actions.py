"""Player actions: what a seat may do, as a value type with a plain-JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..tiles import TileError, parse_tile, tile_str
from .errors import MalformedAction

DISCARD, WIN, AKONG, BUKONG, LAZI = "discard", "win", "akong", "bukong", "lazi"
CHI, PON, MKONG, PASS = "chi", "pon", "mkong", "pass"
CONTINUE, GIVE_UP = "continue", "give_up"

ACTION_TYPES = (DISCARD, WIN, AKONG, BUKONG, LAZI, CHI, PON, MKONG, PASS, CONTINUE, GIVE_UP)
_WITH_TILE = (DISCARD, AKONG, BUKONG)
_WITH_TILES = (CHI,)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat: ``tile`` for discard/akong/bukong, ``tiles`` (own two) for chi."""

    type: str
    seat: int
    tile: int | None = None
    tiles: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "seat": self.seat}
        if self.tile is not None:
            out["tile"] = tile_str(self.tile)
        if self.tiles is not None:
            out["tiles"] = [tile_str(t) for t in self.tiles]
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Action:
        """Parse an action object; a clear ``MalformedAction`` for anything else."""
        if isinstance(obj, Action):
            return obj
        if not isinstance(obj, dict):
            raise MalformedAction(f"an action is a JSON object, not {type(obj).__name__}")
        kind = obj.get("type")
        if kind not in ACTION_TYPES:
            raise MalformedAction(
                f"unknown action type {kind!r}; expected one of {', '.join(ACTION_TYPES)}"
            )
        seat = obj.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
            raise MalformedAction(f"action 'seat' must be 0-3, got {seat!r}")
        unknown = set(obj) - {"type", "seat", "tile", "tiles"}
        if unknown:
            raise MalformedAction(
                f"unknown field(s) in a {kind} action: {', '.join(sorted(unknown))}"
            )
        tile = None
        tiles = None
        if kind in _WITH_TILE:
            if "tile" not in obj:
                raise MalformedAction(f"a {kind} action needs 'tile'")
            tile = _parse_one(obj["tile"], kind)
        elif "tile" in obj:
            raise MalformedAction(f"a {kind} action takes no 'tile'")
        if kind in _WITH_TILES:
            raw = obj.get("tiles")
            if not isinstance(raw, list) or len(raw) != 2:
                raise MalformedAction(
                    "a chi action needs 'tiles': the two own tiles, e.g. ['3m', '4m']"
                )
            tiles = tuple(sorted(_parse_one(t, kind) for t in raw))
        elif "tiles" in obj:
            raise MalformedAction(f"a {kind} action takes no 'tiles'")
        return cls(kind, seat, tile, tiles)

    def __str__(self) -> str:
        text = f"seat {self.seat} {self.type}"
        if self.tile is not None:
            text += f" {tile_str(self.tile)}"
        if self.tiles is not None:
            text += " " + "".join(tile_str(t) for t in self.tiles)
        return text


def _parse_one(value: Any, kind: str) -> int:
    if not isinstance(value, str):
        raise MalformedAction(f"a tile in a {kind} action is a string like '5m', got {value!r}")
    try:
        tile = parse_tile(value)
    except TileError as exc:
        raise MalformedAction(f"bad tile in a {kind} action: {exc}") from None
    if tile >= 42:
        raise MalformedAction("write a wild tile by its face (e.g. '5m'), not '*'")
    return tile
