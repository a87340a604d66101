"""JSON scoring input (``SCORING_API.md``) to a typed, validated ``ScoreRequest``.

Everything that makes an input malformed is found here and raised as ``ScoreInputError``
naming the field: unknown or misplaced fields, wrong JSON types, unknown tiles, a hand of the
wrong size, a meld that is not a meld, more than four copies of a kind, more wilds than exist,
a wild written by its face. Whether a well-formed hand may win is the scorer's answer, not an
error.

What differs between rulesets (their fields, hand sizes, and their own checks) is asked of the
ruleset, given as a ``RequestRules``: ``baida.rulesets`` looks the input's ``ruleset`` name up
and passes its table of rulesets to ``parse_request``, so that this module names none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ..hand import Hand, Meld, MeldError, parse_meld
from ..quote import name_of, quote
from ..rules.options import OptionError, Options
from ..tiles import (
    NUM_KINDS,
    SEAT_WINDS,
    WILD,
    TileError,
    parse_tiles,
    tile_str,
)
from .request import ScoreInputError, ScoreRequest

WIN_BY = ("self_draw", "discard", "rob_kong", "lazi")
COMMON_FIELDS = ("ruleset", "options", "indicator", "winner", "hand", "win_tile", "win_by",
                 "from", "after_kong")
HAND_FIELDS = ("concealed", "melds", "flowers")
MAX_WILDS = 3


class RequestRules(Protocol):
    """What parsing asks of a ruleset (``baida.rulesets.Ruleset`` answers)."""

    name: str
    title: str  # "Jiaxing", in messages
    request_fields: tuple[str, ...]  # the input fields of this ruleset beyond COMMON_FIELDS
    lazi: bool  # a 腊子 may be declared (win_by "lazi")

    @property
    def winning_size(self) -> int: ...  # tiles of a winning hand, a kong counting 3

    @property
    def nonwinner_size(self) -> int | None: ...  # of a non-winner's hand, if they are given

    def make_options(self, given: dict[str, Any] | None) -> Options: ...

    def fill_request(self, req: ScoreRequest, obj: dict[str, Any]) -> None: ...

    def check_request(self, req: ScoreRequest) -> None: ...  # with ``check_copies``


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def expect(field: str, value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if isinstance(value, bool) and kind is not bool:
        raise ScoreInputError(field, f"expected {what}, got {type_name(value)}")
    if not isinstance(value, kind):
        raise ScoreInputError(field, f"expected {what}, got {type_name(value)}")
    return value


def field_bool(obj: dict[str, Any], name: str) -> bool:
    if name not in obj:
        return False
    return bool(expect(name, obj[name], bool, "true or false"))


def field_int(obj: dict[str, Any], name: str, default: int, minimum: int, maximum: int) -> int:
    if name not in obj:
        return default
    value = expect(name, obj[name], int, "an integer")
    if value < minimum:
        raise ScoreInputError(name, f"must be at least {minimum}, got {quote(value)}")
    if value > maximum:
        raise ScoreInputError(name, f"must be at most {maximum}, got {quote(value)}")
    return int(value)


def field_seat(field: str, value: Any) -> int:
    if not isinstance(value, str) or value not in SEAT_WINDS:
        raise ScoreInputError(
            field, f"a seat is one of \"E\", \"S\", \"W\", \"N\", got {quote(value)}"
        )
    return SEAT_WINDS.index(value)


_PARSED: dict[str, tuple[int, ...]] = {}
_PARSED_SIZE = 50_000


def field_tiles(field: str, value: Any) -> list[int]:
    """Parse tile notation (memoised: the same strings come back often)."""
    found = _PARSED.get(value) if isinstance(value, str) else None
    if found is not None:
        return list(found)
    expect(field, value, str, "a string of tiles")
    try:
        tiles = parse_tiles(value)
    except TileError as exc:
        raise ScoreInputError(field, str(exc)) from None
    if len(_PARSED) >= _PARSED_SIZE:
        _PARSED.clear()
    _PARSED[value] = tuple(tiles)
    return tiles


def field_tile(field: str, value: Any) -> int:
    tiles = field_tiles(field, value)
    if len(tiles) != 1:
        raise ScoreInputError(field, f"expected exactly one tile, got {quote(value)}")
    return tiles[0]


def field_hand(field: str, value: Any) -> Hand:
    expect(field, value, dict, "an object with concealed, melds and flowers")
    for name in value:
        if name not in HAND_FIELDS:
            raise ScoreInputError(f"{field}.{name_of(name)}",
                                  "unknown field (a hand has concealed, melds, flowers)")
    if "concealed" not in value:
        raise ScoreInputError(f"{field}.concealed", "required field is missing")
    concealed = field_tiles(f"{field}.concealed", value["concealed"])
    melds: list[Meld] = []
    raw_melds = value.get("melds", [])
    expect(f"{field}.melds", raw_melds, list, "an array of melds like \"pon C\"")
    for i, text in enumerate(raw_melds):
        where = f"{field}.melds[{i}]"
        try:
            melds.append(parse_meld(text))
        except MeldError as exc:
            raise ScoreInputError(where, str(exc)) from None
    flowers: list[int] = []
    raw_flowers = value.get("flowers", [])
    expect(f"{field}.flowers", raw_flowers, list, "an array of tiles like \"f1\"")
    for i, text in enumerate(raw_flowers):
        where = f"{field}.flowers[{i}]"
        tiles = field_tiles(where, text)
        if WILD in tiles:
            raise ScoreInputError(where, "a wild tile is never exposed as a flower")
        flowers.extend(tiles)
    return Hand(concealed, melds, flowers)


def _check_size(field: str, hand: Hand, size: int, with_win_tile: bool, role: str) -> None:
    count = len(hand.concealed) + (1 if with_win_tile else 0) + 3 * len(hand.melds)
    if count != size:
        extra = " with the win tile" if with_win_tile else ""
        raise ScoreInputError(
            field,
            f"the hand has {count} tiles{extra} (each meld counting 3), {role} has {size}",
        )


def check_copies(req: ScoreRequest, robbed_pon: bool) -> None:
    """No kind more than four times (a flower more than once), no more wilds than exist.

    ``robbed_pon``: a robbed kong's other three copies count too (they are in the robbed
    player's 碰, which the input does not give when the others' hands are not part of it)."""
    counts = [0] * (WILD + 1)
    hands = [req.hand, *req.others.values()]
    for hand in hands:
        for kind in hand.concealed:
            counts[kind] += 1
        for kind in hand.flowers:
            counts[kind] += 1
        for meld in hand.melds:
            counts[meld.tiles[0]] += len(meld.tiles) if meld.kind != "chi" else 0
            if meld.kind == "chi":
                for kind in meld.tiles:
                    counts[kind] += 1
    if req.win_tile is not None:
        counts[req.win_tile] += 4 if robbed_pon and req.win_by == "rob_kong" else 1
    if counts[WILD] <= MAX_WILDS and max(counts[:NUM_KINDS]) <= 4 and max(
        counts[NUM_KINDS:WILD]
    ) <= 1:
        return
    _name_extra_copies(req, robbed_pon)


def _name_extra_copies(req: ScoreRequest, robbed_pon: bool) -> None:
    """Find the field where a kind goes over its number of copies, and raise."""
    seen: dict[int, list[str]] = {}

    def add(field: str, tiles: list[int] | tuple[int, ...]) -> None:
        for kind in tiles:
            seen.setdefault(kind, []).append(field)

    def add_hand(prefix: str, hand: Hand) -> None:
        add(f"{prefix}.concealed", hand.concealed)
        for i, meld in enumerate(hand.melds):
            add(f"{prefix}.melds[{i}]", meld.tiles)
        add(f"{prefix}.flowers", hand.flowers)

    add_hand("hand", req.hand)
    if req.win_tile is not None:
        add("win_tile", [req.win_tile])
    if robbed_pon and req.win_by == "rob_kong" and req.win_tile is not None:
        # the robbed player's 碰 holds three more copies of the robbed tile
        add("win_tile", [req.win_tile] * 3)
    for seat, hand in sorted(req.others.items()):
        add_hand(f"others.{SEAT_WINDS[seat]}", hand)
    wilds = seen.pop(WILD, [])
    if len(wilds) > MAX_WILDS:
        raise ScoreInputError(wilds[-1], f"{len(wilds)} wild tiles (*), only {MAX_WILDS} exist")
    for kind, fields in sorted(seen.items()):
        limit = 1 if kind >= NUM_KINDS else 4
        if len(fields) > limit:
            name = tile_str(kind)
            if robbed_pon and req.win_by == "rob_kong" and kind == req.win_tile:
                raise ScoreInputError(
                    fields[-1],
                    f"{name} is robbed from a 补杠, so the other three {name} are in the robbed"
                    f" player's 碰 and this hand cannot hold another",
                )
            raise ScoreInputError(
                fields[-1], f"{len(fields)} copies of {name}, only {limit} exist"
            )


def _check_fields(
    obj: dict[str, Any], rules: RequestRules, rulesets: Mapping[str, RequestRules]
) -> None:
    allowed = set(COMMON_FIELDS) | set(rules.request_fields)
    for name in obj:
        if name in allowed:
            continue
        owner = next((r for r in rulesets.values() if name in r.request_fields), None)
        if owner is not None:
            raise ScoreInputError(name, f"not used by {rules.title}"
                                  f" (it is a {owner.title} field)")
        raise ScoreInputError(name_of(name), "unknown field")


def _names(rulesets: Mapping[str, RequestRules]) -> str:
    return " or ".join(f"\"{name}\"" for name in rulesets)


def parse_request(obj: Any, rulesets: Mapping[str, RequestRules]) -> ScoreRequest:
    """Validate one JSON scoring input (already decoded) and build its ``ScoreRequest``;
    ``rulesets`` are the rulesets by name (``baida.rulesets.parse_request`` passes them)."""
    if not isinstance(obj, dict):
        raise ScoreInputError("input", f"expected a JSON object, got {type_name(obj)}")
    if "ruleset" not in obj:
        raise ScoreInputError("ruleset", f"required field is missing ({_names(rulesets)})")
    name = obj["ruleset"]
    rules = rulesets.get(name) if isinstance(name, str) else None
    if rules is None:
        raise ScoreInputError("ruleset", f"expected {_names(rulesets)}, got {quote(name)}")
    _check_fields(obj, rules, rulesets)
    for field in ("indicator", "winner", "hand"):
        if field not in obj:
            raise ScoreInputError(field, "required field is missing")
    try:
        options = rules.make_options(obj.get("options"))
    except OptionError as exc:
        field, _, message = str(exc).partition(": ")
        raise ScoreInputError(field if message else "options", message or str(exc)) from None

    win_by = obj.get("win_by", "self_draw")
    if win_by not in WIN_BY:
        raise ScoreInputError("win_by", f"expected one of {', '.join(map(repr, WIN_BY))},"
                              f" got {quote(win_by)}")
    if win_by == "lazi" and not rules.lazi:
        raise ScoreInputError("win_by", "\"lazi\" (腊子) is a Wenling win")
    indicator = field_tile("indicator", obj["indicator"])
    if indicator == WILD:
        raise ScoreInputError("indicator", "the indicator is the flipped tile's face, not *")
    winner = field_seat("winner", obj["winner"])
    hand = field_hand("hand", obj["hand"])
    if win_by == "lazi":
        if "win_tile" in obj:
            raise ScoreInputError("win_tile", "a 腊子 declaration has no win tile: concealed is"
                                  " the whole hand")
        win_tile = None
    else:
        if "win_tile" not in obj:
            raise ScoreInputError("win_tile", "required field is missing")
        win_tile = field_tile("win_tile", obj["win_tile"])
    from_seat = None
    if win_by in ("discard", "rob_kong"):
        if "from" not in obj:
            raise ScoreInputError("from", f"required for win_by {quote(win_by)}: the"
                                  f" {'discarder' if win_by == 'discard' else 'robbed player'}")
        from_seat = field_seat("from", obj["from"])
        if from_seat == winner:
            raise ScoreInputError("from", "the winner cannot win on their own tile")
    elif "from" in obj:
        raise ScoreInputError("from", f"only for a discard or a robbed kong, not {quote(win_by)}")

    req = ScoreRequest(
        ruleset=rules.name,
        options=options,
        indicator=indicator,
        winner=winner,
        hand=hand,
        win_tile=win_tile,
        win_by=win_by,
        from_seat=from_seat,
        after_kong=field_bool(obj, "after_kong"),
    )
    rules.fill_request(req, obj)
    _check_size("hand", hand, rules.winning_size, win_tile is not None, "a winning hand")
    for seat, other in sorted(req.others.items()):
        size = rules.nonwinner_size
        assert size is not None, "a ruleset that takes the others' hands gives their size"
        _check_size(f"others.{SEAT_WINDS[seat]}", other, size, False, "a non-winner")
    rules.check_request(req)  # the ruleset's own checks, ``check_copies`` among them
    return req
