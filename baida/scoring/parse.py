"""JSON scoring input (``SCORING_API.md``) to a typed, validated ``ScoreRequest``.

Everything that makes an input malformed is found here and raised as ``ScoreInputError``
naming the field: unknown or misplaced fields, wrong JSON types, unknown tiles, a hand of the
wrong size, a meld that is not a meld, more than four copies of a kind, more wilds than exist,
a wild written by its face. Whether a well-formed hand may win is the scorer's answer, not an
error. Wenling-specific checks are ``baida.scoring.wenling.validate_wenling``'s.
"""

from __future__ import annotations

from typing import Any

from ..hand import Hand, Meld, MeldError, parse_meld
from ..quote import name_of, quote
from ..rules.options import OptionError, make_options
from ..tiles import (
    FLOWER_FIRST,
    NUM_KINDS,
    SEAT_WINDS,
    WILD,
    TileError,
    parse_tiles,
    tile_str,
)
from .request import MAX_BASE, MAX_CARRY_POOL, ScoreInputError, ScoreRequest

RULESETS = ("jiaxing", "wenling")
WIN_BY = ("self_draw", "discard", "rob_kong", "lazi")
COMMON_FIELDS = ("ruleset", "options", "indicator", "winner", "hand", "win_tile", "win_by",
                 "from", "after_kong")
RULESET_FIELDS = {
    "jiaxing": ("base", "round_wind", "carry_pool", "santan", "gave_up", "last_tile",
                "heavenly", "earthly"),
    "wenling": ("others", "liable", "discarded_wild", "after_special"),
}
HAND_FIELDS = ("concealed", "melds", "flowers")
HAND_SIZE = {"jiaxing": 14, "wenling": 17}
NONWINNER_SIZE = {"wenling": 16}
MAX_WILDS = 3
RULESET_NAME = {"jiaxing": "Jiaxing", "wenling": "Wenling"}


def _type_name(value: Any) -> str:
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


def _expect(field: str, value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if isinstance(value, bool) and kind is not bool:
        raise ScoreInputError(field, f"expected {what}, got {_type_name(value)}")
    if not isinstance(value, kind):
        raise ScoreInputError(field, f"expected {what}, got {_type_name(value)}")
    return value


def _bool(obj: dict[str, Any], name: str) -> bool:
    if name not in obj:
        return False
    return bool(_expect(name, obj[name], bool, "true or false"))


def _int(obj: dict[str, Any], name: str, default: int, minimum: int, maximum: int) -> int:
    if name not in obj:
        return default
    value = _expect(name, obj[name], int, "an integer")
    if value < minimum:
        raise ScoreInputError(name, f"must be at least {minimum}, got {quote(value)}")
    if value > maximum:
        raise ScoreInputError(name, f"must be at most {maximum}, got {quote(value)}")
    return int(value)


def _seat(field: str, value: Any) -> int:
    if not isinstance(value, str) or value not in SEAT_WINDS:
        raise ScoreInputError(
            field, f"a seat is one of \"E\", \"S\", \"W\", \"N\", got {quote(value)}"
        )
    return SEAT_WINDS.index(value)


_PARSED: dict[str, tuple[int, ...]] = {}
_PARSED_SIZE = 50_000


def _tiles(field: str, value: Any) -> list[int]:
    """Parse tile notation (memoised: the same strings come back often)."""
    found = _PARSED.get(value) if isinstance(value, str) else None
    if found is not None:
        return list(found)
    _expect(field, value, str, "a string of tiles")
    try:
        tiles = parse_tiles(value)
    except TileError as exc:
        raise ScoreInputError(field, str(exc)) from None
    if len(_PARSED) >= _PARSED_SIZE:
        _PARSED.clear()
    _PARSED[value] = tuple(tiles)
    return tiles


def _one_tile(field: str, value: Any) -> int:
    tiles = _tiles(field, value)
    if len(tiles) != 1:
        raise ScoreInputError(field, f"expected exactly one tile, got {quote(value)}")
    return tiles[0]


def _hand(field: str, value: Any) -> Hand:
    _expect(field, value, dict, "an object with concealed, melds and flowers")
    for name in value:
        if name not in HAND_FIELDS:
            raise ScoreInputError(f"{field}.{name_of(name)}",
                                  "unknown field (a hand has concealed, melds, flowers)")
    if "concealed" not in value:
        raise ScoreInputError(f"{field}.concealed", "required field is missing")
    concealed = _tiles(f"{field}.concealed", value["concealed"])
    melds: list[Meld] = []
    raw_melds = value.get("melds", [])
    _expect(f"{field}.melds", raw_melds, list, "an array of melds like \"pon C\"")
    for i, text in enumerate(raw_melds):
        where = f"{field}.melds[{i}]"
        try:
            melds.append(parse_meld(text))
        except MeldError as exc:
            raise ScoreInputError(where, str(exc)) from None
    flowers: list[int] = []
    raw_flowers = value.get("flowers", [])
    _expect(f"{field}.flowers", raw_flowers, list, "an array of tiles like \"f1\"")
    for i, text in enumerate(raw_flowers):
        where = f"{field}.flowers[{i}]"
        tiles = _tiles(where, text)
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


def _no_flowers(field: str, tiles: list[int]) -> None:
    for kind in tiles:
        if FLOWER_FIRST <= kind < WILD:
            raise ScoreInputError(field, f"Jiaxing is played without flowers, got {tile_str(kind)}")


def _check_copies(req: ScoreRequest) -> None:
    """No kind more than four times (a flower more than once), no more wilds than exist."""
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
        counts[req.win_tile] += 4 if req.ruleset == "jiaxing" and req.win_by == "rob_kong" else 1
    if counts[WILD] <= MAX_WILDS and max(counts[:NUM_KINDS]) <= 4 and max(
        counts[NUM_KINDS:WILD]
    ) <= 1:
        return
    _name_extra_copies(req)


def _name_extra_copies(req: ScoreRequest) -> None:
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
    if req.ruleset == "jiaxing" and req.win_by == "rob_kong" and req.win_tile is not None:
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
            if req.ruleset == "jiaxing" and req.win_by == "rob_kong" and kind == req.win_tile:
                raise ScoreInputError(
                    fields[-1],
                    f"{name} is robbed from a 补杠, so the other three {name} are in the robbed"
                    f" player's 碰 and this hand cannot hold another",
                )
            raise ScoreInputError(
                fields[-1], f"{len(fields)} copies of {name}, only {limit} exist"
            )


def _check_jiaxing(req: ScoreRequest) -> None:
    """Jiaxing-specific well-formedness: no flowers, the wild's face, flags and seats."""
    hand = req.hand
    if not req.indicator < NUM_KINDS:
        raise ScoreInputError("indicator", f"the indicator is a suit or honour tile, got"
                              f" {tile_str(req.indicator)}")
    _no_flowers("hand.concealed", hand.concealed)
    if hand.flowers:
        raise ScoreInputError("hand.flowers", "Jiaxing is played without flowers")
    wild_face = req.indicator
    face = tile_str(wild_face)
    message = (f"the 百搭 is {face}, so no natural {face} is in play: write a 百搭 as *")
    if wild_face in hand.concealed:
        raise ScoreInputError("hand.concealed", message)
    if req.win_tile == wild_face:
        raise ScoreInputError("win_tile", message)
    for i, meld in enumerate(hand.melds):
        if wild_face in meld.tiles:
            raise ScoreInputError(f"hand.melds[{i}]", message)
    if req.win_tile is not None and req.win_tile >= NUM_KINDS and req.win_tile != WILD:
        raise ScoreInputError("win_tile", "Jiaxing is played without flowers")
    if req.win_by == "rob_kong" and req.win_tile == WILD:
        raise ScoreInputError("win_tile", "a 百搭 is never added to a 补杠, so the robbed tile"
                              " cannot be one")
    if req.after_kong and req.win_by != "self_draw":
        raise ScoreInputError("after_kong", "杠上开花 is a self-drawn kong replacement"
                              " (win_by must be self_draw)")
    if req.after_kong and not any(m.is_kong for m in hand.melds):
        raise ScoreInputError("after_kong", "杠上开花 follows a kong, and the hand has none")
    if req.heavenly:
        if req.winner != 0:
            raise ScoreInputError("heavenly", "天和 is the dealer's win (winner must be E)")
        if req.win_by != "self_draw" or hand.melds or req.after_kong:
            raise ScoreInputError("heavenly", "天和 is a self-drawn win on the dealt 14 tiles,"
                                  " before any meld or kong")
    if req.earthly:
        if req.heavenly:
            raise ScoreInputError("earthly", "a hand cannot be both 天和 and 地和")
        if req.winner == 0:
            raise ScoreInputError("earthly", "地和 is a non-dealer's win (winner must not be E)")
        if hand.melds or req.after_kong:
            raise ScoreInputError("earthly", "地和 comes before any meld or kong of the winner")
        opts = req.options
        if getattr(opts, "dihu_mode", "first_draw") == "first_draw":
            if req.win_by != "self_draw":
                raise ScoreInputError("earthly", "地和 (dihu_mode first_draw) is a self-drawn win"
                                      " on the first draw")
        elif req.win_by != "discard" or req.from_seat != 0:
            raise ScoreInputError("earthly", "地和 (dihu_mode dealer_first_discard) is a win on"
                                  " the dealer's first discard (win_by discard, from E)")
    seats_in = set()
    for i, pair in enumerate(req.santan):
        a, b = pair
        if a == b:
            raise ScoreInputError(f"santan[{i}]", "a 承包 pair needs two different seats")
        key = (min(a, b), max(a, b))
        if key in seats_in:
            raise ScoreInputError(f"santan[{i}]", "this 承包 pair is listed twice")
        seats_in.add(key)
    if req.santan and not getattr(req.options, "santan_enabled", True):
        raise ScoreInputError("santan", "三摊 is off at this table (santan_enabled is false)")
    # A seat that gave up may still end in a pair later (others claiming its discards), so
    # being both is not malformed; a gave-up payer pays nothing either way.
    for i, seat in enumerate(req.gave_up):
        if req.gave_up.count(seat) > 1:
            raise ScoreInputError(f"gave_up[{i}]", f"{SEAT_WINDS[seat]} is listed twice")
    if req.gave_up and not req.santan:
        raise ScoreInputError("gave_up", "players choose 放弃 only when a 三摊 pair is in force"
                              " (santan is empty)")


def _check_fields(obj: dict[str, Any], ruleset: str) -> None:
    allowed = set(COMMON_FIELDS) | set(RULESET_FIELDS[ruleset])
    other = "wenling" if ruleset == "jiaxing" else "jiaxing"
    for name in obj:
        if name in allowed:
            continue
        if name in RULESET_FIELDS[other]:
            raise ScoreInputError(name, f"not used by {RULESET_NAME[ruleset]}"
                                  f" (it is a {RULESET_NAME[other]} field)")
        raise ScoreInputError(name_of(name), "unknown field")


def parse_request(obj: Any) -> ScoreRequest:
    """Validate one JSON scoring input (already decoded) and build its ``ScoreRequest``."""
    if not isinstance(obj, dict):
        raise ScoreInputError("input", f"expected a JSON object, got {_type_name(obj)}")
    if "ruleset" not in obj:
        raise ScoreInputError("ruleset", "required field is missing (\"jiaxing\" or \"wenling\")")
    ruleset = obj["ruleset"]
    if ruleset not in RULESETS:
        raise ScoreInputError(
            "ruleset", f"expected \"jiaxing\" or \"wenling\", got {quote(ruleset)}"
        )
    _check_fields(obj, ruleset)
    for name in ("indicator", "winner", "hand"):
        if name not in obj:
            raise ScoreInputError(name, "required field is missing")
    try:
        options = make_options(ruleset, obj.get("options"))
    except OptionError as exc:
        field, _, message = str(exc).partition(": ")
        raise ScoreInputError(field if message else "options", message or str(exc)) from None

    win_by = obj.get("win_by", "self_draw")
    if win_by not in WIN_BY:
        raise ScoreInputError("win_by", f"expected one of {', '.join(map(repr, WIN_BY))},"
                              f" got {quote(win_by)}")
    if win_by == "lazi" and ruleset != "wenling":
        raise ScoreInputError("win_by", "\"lazi\" (腊子) is a Wenling win")
    indicator = _one_tile("indicator", obj["indicator"])
    if indicator == WILD:
        raise ScoreInputError("indicator", "the indicator is the flipped tile's face, not *")
    winner = _seat("winner", obj["winner"])
    hand = _hand("hand", obj["hand"])
    if win_by == "lazi":
        if "win_tile" in obj:
            raise ScoreInputError("win_tile", "a 腊子 declaration has no win tile: concealed is"
                                  " the whole hand")
        win_tile = None
    else:
        if "win_tile" not in obj:
            raise ScoreInputError("win_tile", "required field is missing")
        win_tile = _one_tile("win_tile", obj["win_tile"])
    from_seat = None
    if win_by in ("discard", "rob_kong"):
        if "from" not in obj:
            raise ScoreInputError("from", f"required for win_by {quote(win_by)}: the"
                                  f" {'discarder' if win_by == 'discard' else 'robbed player'}")
        from_seat = _seat("from", obj["from"])
        if from_seat == winner:
            raise ScoreInputError("from", "the winner cannot win on their own tile")
    elif "from" in obj:
        raise ScoreInputError("from", f"only for a discard or a robbed kong, not {quote(win_by)}")

    req = ScoreRequest(
        ruleset=ruleset,
        options=options,
        indicator=indicator,
        winner=winner,
        hand=hand,
        win_tile=win_tile,
        win_by=win_by,
        from_seat=from_seat,
        after_kong=_bool(obj, "after_kong"),
    )
    if ruleset == "jiaxing":
        _fill_jiaxing(req, obj)
    else:
        _fill_wenling(req, obj)
    _check_size("hand", hand, HAND_SIZE[ruleset], win_tile is not None, "a winning hand")
    for seat, other in sorted(req.others.items()):
        _check_size(
            f"others.{SEAT_WINDS[seat]}", other, NONWINNER_SIZE[ruleset], False, "a non-winner"
        )
    if ruleset == "jiaxing":
        _check_jiaxing(req)
    _check_copies(req)
    if ruleset == "wenling":
        from .wenling import validate_wenling

        validate_wenling(req)
    return req


def _fill_jiaxing(req: ScoreRequest, obj: dict[str, Any]) -> None:
    req.base = _int(obj, "base", 1, 1, MAX_BASE)
    req.carry_pool = _int(obj, "carry_pool", 0, 0, MAX_CARRY_POOL)
    if "round_wind" in obj:
        req.round_wind = _seat("round_wind", obj["round_wind"])
    req.last_tile = _bool(obj, "last_tile")
    req.heavenly = _bool(obj, "heavenly")
    req.earthly = _bool(obj, "earthly")
    santan = obj.get("santan", [])
    _expect("santan", santan, list, "an array of seat pairs like [[\"E\", \"N\"]]")
    for i, pair in enumerate(santan):
        where = f"santan[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise ScoreInputError(where, f"expected a pair of seats like [\"E\", \"N\"], got"
                                  f" {quote(pair)}")
        req.santan.append((_seat(f"{where}[0]", pair[0]), _seat(f"{where}[1]", pair[1])))
    gave_up = obj.get("gave_up", [])
    _expect("gave_up", gave_up, list, "an array of seats")
    req.gave_up = [_seat(f"gave_up[{i}]", s) for i, s in enumerate(gave_up)]


def _fill_wenling(req: ScoreRequest, obj: dict[str, Any]) -> None:
    req.after_special = _bool(obj, "after_special")
    req.discarded_wild = _bool(obj, "discarded_wild")
    if "liable" in obj:
        req.liable = _seat("liable", obj["liable"])
        if req.liable == req.winner:
            raise ScoreInputError("liable", "the winner cannot be the 被包 player")
    others = obj.get("others", {})
    _expect("others", others, dict, "an object of hands keyed by seat")
    for key, value in others.items():
        seat = _seat(f"others.{name_of(key)}", key)
        if seat == req.winner:
            raise ScoreInputError(f"others.{key}", "the winner's hand belongs in hand, not others")
        req.others[seat] = _hand(f"others.{key}", value)

