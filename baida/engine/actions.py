"""Player actions: what a seat may do, as a value type with a plain-JSON form.

An ``Action`` checks its own fields when it is built, so a wrongly typed one never reaches a
round: ``MalformedAction`` names the field. Tiles are kept as kinds (ints); a face such as
``"9p"`` is accepted wherever a tile is and converted, so bots may build actions from faces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..quote import quote
from ..tiles import NUM_ALL_KINDS, TileError, parse_tile, tile_str
from .errors import MalformedAction

DISCARD, WIN, AKONG, BUKONG, LAZI = "discard", "win", "akong", "bukong", "lazi"
CHI, PON, MKONG, PASS = "chi", "pon", "mkong", "pass"
CONTINUE, GIVE_UP = "continue", "give_up"

ACTION_TYPES = (DISCARD, WIN, AKONG, BUKONG, LAZI, CHI, PON, MKONG, PASS, CONTINUE, GIVE_UP)
_TYPE_SET = frozenset(ACTION_TYPES)
_WITH_TILE = frozenset((DISCARD, AKONG, BUKONG))
_WITH_TILES = frozenset((CHI,))


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat: ``tile`` for discard/akong/bukong, ``tiles`` (own two) for chi.

    ``tile`` / ``tiles`` may be given as kinds or faces (``"9p"``); they are stored as kinds
    (``tiles`` sorted). ``face`` / ``faces`` give them back as faces.
    """

    type: str
    seat: int
    tile: int | None = None
    tiles: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        kind = self.type
        if type(kind) is not str or kind not in _TYPE_SET:
            raise MalformedAction(
                f"unknown action type {quote(kind)}; expected one of {', '.join(ACTION_TYPES)}"
            )
        seat = self.seat
        if type(seat) is not int or not 0 <= seat <= 3:
            raise MalformedAction(f"action 'seat' must be 0-3 (an integer), got {quote(seat)}")
        tile = self.tile
        if kind in _WITH_TILE:
            if type(tile) is not int or not 0 <= tile < NUM_ALL_KINDS:
                if tile is None:
                    raise MalformedAction(f"a {kind} action needs 'tile'")
                object.__setattr__(self, "tile", _kind(tile, kind))
        elif tile is not None:
            raise MalformedAction(f"a {kind} action takes no 'tile'")
        tiles = self.tiles
        if kind in _WITH_TILES:
            if (
                type(tiles) is tuple
                and len(tiles) == 2
                and type(tiles[0]) is int
                and type(tiles[1]) is int
                and 0 <= tiles[0] <= tiles[1] < NUM_ALL_KINDS
            ):
                return  # already two sorted kinds: the engine's own chi options
            if isinstance(tiles, str | bytes) or not isinstance(tiles, Sequence) or len(tiles) != 2:
                raise MalformedAction(
                    "a chi action needs 'tiles': the two own tiles, e.g. ('3m', '4m'),"
                    f" got {quote(tiles)}"
                )
            a, b = (_kind(t, kind) for t in tiles)
            object.__setattr__(self, "tiles", (a, b) if a <= b else (b, a))
        elif tiles is not None:
            raise MalformedAction(f"a {kind} action takes no 'tiles'")

    @property
    def face(self) -> str | None:
        """``tile`` as a face (``"9p"``), or None."""
        return None if self.tile is None else tile_str(self.tile)

    @property
    def faces(self) -> list[str] | None:
        """``tiles`` as faces, or None."""
        return None if self.tiles is None else [tile_str(t) for t in self.tiles]

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
        unknown = set(obj) - {"type", "seat", "tile", "tiles"}
        if unknown:
            names = ", ".join(quote(name) for name in sorted(map(str, unknown))[:3])
            raise MalformedAction(f"unknown field(s) in a {quote(kind)} action: {names}")
        for name in ("tile",):
            if name in obj and not isinstance(obj[name], str):
                raise MalformedAction(
                    f"a tile in an action is a string like '5m', got {quote(obj[name])}"
                )
        raw = obj.get("tiles")
        if isinstance(raw, list) and any(not isinstance(t, str) for t in raw):
            raise MalformedAction(f"a tile in an action is a string like '5m', got {quote(raw)}")
        if "tiles" in obj and not isinstance(raw, list):
            raise MalformedAction(f"action 'tiles' is a list of two tiles, got {quote(raw)}")
        return cls(kind, obj.get("seat"), obj.get("tile"), raw)  # type: ignore[arg-type]

    def __str__(self) -> str:
        text = f"seat {self.seat} {self.type}"
        if self.tile is not None:
            text += f" {tile_str(self.tile)}"
        if self.tiles is not None:
            text += " " + "".join(tile_str(t) for t in self.tiles)
        return text


def _kind(value: Any, kind: str) -> int:
    """A tile of a ``kind`` action: a kind 0-41 (an int) or a face; MalformedAction else."""
    if isinstance(value, str):
        try:
            tile = parse_tile(value)
        except TileError:
            raise MalformedAction(
                f"bad tile in a {kind} action: {quote(value)} is not a tile like '5m'"
            ) from None
        if tile >= NUM_ALL_KINDS:
            raise MalformedAction("write a wild tile by its face (e.g. '5m'), not '*'")
        return tile
    if type(value) is not int or not 0 <= value < NUM_ALL_KINDS:
        raise MalformedAction(
            f"a tile in a {kind} action is a kind 0-41 or a face like '5m', got {quote(value)}"
        )
    return value
