"""Game records: reading one and replaying it (``docs/records.md``); ``recording`` writes
them (``Round.record``)."""

from __future__ import annotations

import hashlib
from typing import Any

from ..quote import name_of, quote
from ..rules.options import OptionError
from ..rulesets import RulesetError, expected_names, ruleset
from ..scoring.request import MAX_BASE, MAX_CARRY_POOL
from ..tiles import TileError, parse_tile, tile_str
from .actions import Action
from .errors import EngineError, MalformedAction, RecordError, ReplayError
from .events import Event
from .recording import FORMAT, make_record
from .round import WINDS, Round
from .wall import PROCEDURE

__all__ = ["FORMAT", "Replay", "make_record", "play_record", "read_record", "replay",
           "start_round"]

_FIELDS = {
    "format",
    "ruleset",
    "options",
    "base",
    "dealer",
    "round_wind",
    "carry_pool",
    "previous_wild",
    "wall_procedure",
    "commitment",
    "seed",
    "wall",
    "dice",
    "actions",
    "settlement",
}


def _field(obj: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = obj.get(name, default)
    if value is default:
        return value
    if isinstance(value, bool) and kind is int or not isinstance(value, kind):
        what = getattr(kind, "__name__", kind)
        raise RecordError(f"record.{name}: expected {what}, got {quote(value)}")
    return value


def _count(obj: dict[str, Any], name: str, default: int, minimum: int, maximum: int) -> int:
    """An integer field within its bounds (those of ``baida score``)."""
    value = _field(obj, name, int, default)
    if not minimum <= value <= maximum:
        side = f"at least {minimum}" if value < minimum else f"at most {maximum}"
        raise RecordError(f"record.{name}: must be {side}, got {quote(value)}")
    return value


def _seat(obj: dict[str, Any], name: str) -> int:
    value = _field(obj, name, int, 0)
    if value not in (0, 1, 2, 3):
        raise RecordError(f"record.{name}: a seat is 0-3, got {quote(value)}")
    return value


def start_round(obj: Any) -> Round:
    """The hand a record describes, dealt and before any action."""
    if not isinstance(obj, dict):
        raise RecordError(f"a record is a JSON object, not {type(obj).__name__}")
    unknown = set(obj) - _FIELDS
    if unknown:
        names = ", ".join(name_of(name) for name in sorted(unknown, key=str)[:3])
        raise RecordError(f"record: unknown field(s) {names}")
    fmt = obj.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"record.format: expected {quote(FORMAT)}, got {quote(fmt)}")
    name = obj.get("ruleset")
    try:
        rules = ruleset(name)
    except RulesetError:
        raise RecordError(
            f"record.ruleset: expected {expected_names()}, got {quote(name)}"
        ) from None
    try:
        options = rules.make_options(_field(obj, "options", dict, None))
    except OptionError as exc:
        raise RecordError(f"record.{exc}") from None
    wind = _field(obj, "round_wind", str, "E")
    if wind not in WINDS:
        raise RecordError(f"record.round_wind: one of E S W N, got {quote(wind)}")
    previous = _field(obj, "previous_wild", str, None)
    try:
        previous_kind = None if previous is None else parse_tile(previous)
    except TileError as exc:
        raise RecordError(f"record.previous_wild: {exc}") from None
    base = _count(obj, "base", 1, 1, MAX_BASE)
    carry = _count(obj, "carry_pool", 0, 0, MAX_CARRY_POOL)
    kwargs: dict[str, Any] = {
        "options": options,
        "dealer": _seat(obj, "dealer"),
        "round_wind": WINDS.index(wind),
        "base": base,
        "carry_pool": carry,
        "previous_wild": previous_kind,
    }
    seed_hex = _field(obj, "seed", str, None)
    try:
        if seed_hex is not None:
            try:
                seed = bytes.fromhex(seed_hex)
            except ValueError:
                raise RecordError("record.seed: not a hex string") from None
            procedure = obj.get("wall_procedure", PROCEDURE)
            if procedure != PROCEDURE:
                raise RecordError(f"record.wall_procedure: only {quote(PROCEDURE)} is known")
            given = obj.get("commitment")
            if given is not None and given != hashlib.sha256(seed).hexdigest():
                raise RecordError("record.seed does not match record.commitment")
            rnd = Round.from_seed(rules, seed, **kwargs)
            if "wall" in obj and [tile_str(t) for t in rnd.wall] != obj["wall"]:
                raise RecordError("record.wall is not the wall the seed gives")
            return rnd
        if "wall" not in obj:
            if obj.get("commitment") is not None:
                raise RecordError("record: the seed is not revealed yet; cannot replay")
            raise RecordError("record: give either 'seed' or 'wall' and 'dice'")
        wall_raw = _field(obj, "wall", list, None)
        try:
            wall = [parse_tile(t) if isinstance(t, str) else _bad_tile(t) for t in wall_raw]
        except TileError as exc:
            raise RecordError(f"record.wall: {exc}") from None
        dice = _field(obj, "dice", list, None)
        if dice is None:
            raise RecordError("record.dice: required with an explicit wall")
        return Round.from_wall(rules, wall, tuple(dice), **kwargs)
    except (ValueError, TypeError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"record: {exc}") from None


def _bad_tile(value: Any) -> int:
    raise TileError(f"a tile is a string like '5m', got {quote(value)}")


class Replay:
    """The outcome of re-running a record."""

    def __init__(self, rnd: Round, events: list[Event], expected: dict[str, Any] | None) -> None:
        self.round = rnd
        self.events = events
        self.expected = expected

    @property
    def settlement(self) -> dict[str, Any] | None:
        return None if self.round.result is None else self.round.result.settlement()

    @property
    def matches(self) -> bool:
        """Whether the record's settlement (if it has one) is reproduced exactly."""
        return self.expected is None or self.expected == self.settlement

    def differences(self) -> list[str]:
        if self.matches:
            return []
        got = self.settlement or {}
        want = self.expected or {}
        return [
            f"{key}: record has {quote(want.get(key))},"
            f" replay gives {quote(got.get(key))}"
            for key in sorted(set(got) | set(want))
            if got.get(key) != want.get(key)
        ]


def read_record(obj: Any) -> tuple[Round, list[Action], dict[str, Any] | None]:
    """Everything a record says, checked before anything is played: the dealt hand, the
    actions (well-formed, not yet known to be legal) and the settlement it claims, if any.
    ``RecordError`` when it is not a readable record."""
    rnd = start_round(obj)
    raw_actions = obj.get("actions", [])
    if not isinstance(raw_actions, list):
        raise RecordError(f"record.actions: expected a list, got {quote(raw_actions)}")
    actions = []
    for i, raw in enumerate(raw_actions):
        try:
            actions.append(Action.from_json(raw))
        except MalformedAction as exc:
            raise RecordError(f"record.actions[{i}]: {exc}") from None
    expected = obj.get("settlement")
    if expected is not None:
        _check_settlement(expected)
    return rnd, actions, expected


def _seat_or_null(value: Any) -> bool:
    return value is None or type(value) is int and 0 <= value <= 3


def _int_or_null(value: Any) -> bool:
    return value is None or type(value) is int


_SETTLEMENT: dict[str, tuple[str, Any]] = {  # field: (what it is, the check of its type)
    "outcome": ("a string", lambda v: isinstance(v, str)),
    "winner": ("a seat 0-3 or null", _seat_or_null),
    "win_by": ("a string or null", lambda v: v is None or isinstance(v, str)),
    "win_tile": ("a tile face or null", lambda v: v is None or isinstance(v, str)),
    "from": ("a seat 0-3 or null", _seat_or_null),
    "liable": ("a seat 0-3 or null", _seat_or_null),
    "payments": ("a list of 4 integers",
                 lambda v: isinstance(v, list) and len(v) == 4
                 and all(type(x) is int for x in v)),
    "carry_pool_after": ("an integer or null", _int_or_null),
    "score": ("an object or null", lambda v: v is None or isinstance(v, dict)),
}


def _check_settlement(expected: Any) -> None:
    """The claimed settlement has the shape a record's has (``RecordError``); whether its
    values are the right ones is the replay's answer, not a reading error."""
    if not isinstance(expected, dict):
        raise RecordError(f"record.settlement: expected an object, got {quote(expected)}")
    unknown = set(expected) - set(_SETTLEMENT)
    if unknown:
        names = ", ".join(name_of(name) for name in sorted(unknown, key=str)[:3])
        raise RecordError(f"record.settlement: unknown field(s) {names}")
    for name, value in expected.items():
        what, check = _SETTLEMENT[name]
        if not check(value):
            raise RecordError(f"record.settlement.{name}: expected {what}, got {quote(value)}")


def replay(obj: Any) -> Replay:
    """Re-run a record. ``RecordError`` when it is not a readable record (``read_record``);
    ``ReplayError`` (a ``RecordError``) when one of its actions may not be played."""
    return play_record(*read_record(obj))


def play_record(rnd: Round, actions: list[Action], expected: dict[str, Any] | None) -> Replay:
    """Play a read record's actions on its dealt hand (``read_record``); ``ReplayError`` when
    one may not be played."""
    events = list(rnd.events)
    for i, action in enumerate(actions):
        try:
            events.extend(rnd.apply(action))
        except EngineError as exc:
            raise ReplayError(f"record.actions[{i}] ({action}): {exc}") from None
    return Replay(rnd, events, expected)
