"""The 听牌 hint of the browser client: which tiles would win a hand, by the ruleset's rules.

``hand_waits(request)`` takes one seat's own tiles as its view shows them (faces, wilds by
their face) and answers, for a hand one tile short (3n + 1 tiles), the kinds whose drawn tile
makes a legal win, and whether a drawn wild would; for a hand of 3n + 2 tiles (one's turn),
the same for every discard that leaves a waiting hand. A kind counts only if the scorer
accepts the self-drawn win (shape, 台头和 pattern, fifth copies, a 得 discarded...), so the
hint never promises a win the table would refuse. At a Jiaxing table the answer also says how
far the hand is from each 台头和 pattern (``patterns``: the evaluator's ``pattern_shanten``).
Pure: no state, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from baida import rulesets

from ...evaluator import is_complete, pattern_shanten
from ...hand import Hand, Meld, MeldError, make_meld
from ...rules.options import OptionError
from ...scoring.jiaxing_items import PATTERN_ITEMS
from ...scoring.request import ScoreInputError, ScoreRequest
from ...tiles import EAST, NUM_KINDS, SEAT_WINDS, WILD, TileError, parse_tile, tile_str

MAX_CONCEALED = 17  # a Wenling hand on its turn
MAX_MELDS = 5
JIAXING_SETS = 4
HONOUR_FIRST = EAST  # kinds from here on are winds and dragons
# the 台头和 patterns in the order the hint shows them: the evaluator's id, the scorer's item
_PATTERN_ITEM = {item.name: item for item in PATTERN_ITEMS}
PATTERNS = tuple((pattern, _PATTERN_ITEM[name]) for pattern, name in (
    ("qingyise", "清一色"), ("hunyise", "混一色"), ("quanlaotou", "全老头"),
    ("duiduihe", "对对和")))


class WaitsError(ValueError):
    """A request the hint cannot read; the message names the field."""


def hand_waits(request: Any) -> dict[str, Any]:
    """``{"tiles": n, "waits": [...], "wild_wins": bool}`` for 3n + 1 tiles, or
    ``{"tiles": n, "discards": [{"tile", "waits", "wild_wins"}, ...]}`` for 3n + 2 (only the
    discards that leave a waiting hand)."""
    hand = _parse(request)
    size = len(hand.concealed) + 3 * len(hand.melds)
    if size % 3 == 0:
        raise WaitsError("concealed: a hand holds 3n + 1 or 3n + 2 tiles with its melds")
    needed = rulesets.ruleset(hand.ruleset).pattern_needed
    extra = {"patterns": pattern_distances(hand)} if needed else {}
    if size % 3 == 1:
        waits, wild = _waits(hand, hand.concealed)
        return {"tiles": len(hand.concealed), "waits": waits, "wild_wins": wild, **extra}
    out = []
    for kind in sorted(set(hand.concealed), key=lambda k: (k == WILD, k)):
        rest = list(hand.concealed)
        rest.remove(kind)
        waits, wild = _waits(hand, rest)
        if waits or wild:
            face = hand.wild_face if kind == WILD else tile_str(kind)
            out.append({"tile": face, "waits": waits, "wild_wins": wild})
    return {"tiles": len(hand.concealed), "discards": out, **extra}


def pattern_distances(hand: _Hand) -> list[dict[str, Any]]:
    """How many tiles a Jiaxing hand is from each 台头和 pattern: ``pattern_shanten`` + 1, so 0
    is a complete hand, 1 a ready one; ``None`` for a pattern its exposed melds already rule
    out (a second suit, an honour meld for 清一色, a suit meld for 全老头, a 吃 for 对对和)."""
    sets = JIAXING_SETS - len(hand.melds)
    if sets < 0:
        return []
    counts = [0] * NUM_KINDS
    wilds = 0
    for kind in hand.concealed:
        if kind == WILD:
            wilds += 1
        elif kind < NUM_KINDS:
            counts[kind] += 1
    suits = {m.tiles[0] // 9 for m in hand.melds if m.tiles[0] < HONOUR_FIRST}
    honours = any(m.tiles[0] >= HONOUR_FIRST for m in hand.melds)
    suit = next(iter(suits)) if len(suits) == 1 else None
    open_ = {
        "qingyise": len(suits) <= 1 and not honours,
        "hunyise": len(suits) <= 1,
        "quanlaotou": not suits,
        "duiduihe": not any(m.is_chi for m in hand.melds),
    }
    return [{"pattern": pattern, "name": {"zh": item.name, "en": item.english},
             "distance": pattern_shanten(counts, wilds, sets, pattern, suit) + 1
             if open_[pattern] else None}
            for pattern, item in PATTERNS]


@dataclass(frozen=True, slots=True)
class _Hand:
    """A parsed request: the seat's tiles as the scorer takes them, and the table it sits at."""

    ruleset: str
    options: Any
    indicator: int
    wilds: frozenset[int]
    specials: frozenset[int]
    wild_face: str
    seat_wind: int
    round_wind: int
    concealed: list[int]  # kinds, WILD for a wild
    melds: list[Meld]
    flowers: list[int]
    discarded_wild: bool


def _waits(hand: _Hand, concealed: list[int]) -> tuple[list[str], bool]:
    """The natural kinds whose self-draw wins with ``concealed``, and whether a wild does."""
    counts = [0] * NUM_KINDS
    wilds = 0
    for kind in concealed:
        if kind == WILD:
            wilds += 1
        elif kind < NUM_KINDS:
            counts[kind] += 1
    held = list(counts)  # copies the seat holds, its melds' too: all four held, none is drawn
    for meld in hand.melds:
        for kind in meld.tiles:
            if kind < NUM_KINDS:
                held[kind] += 1
    out: list[str] = []
    for kind in range(NUM_KINDS):
        if kind in hand.wilds or kind in hand.specials or held[kind] >= 4:
            continue  # never drawn as a natural tile: a wild, exposed at once, or all held
        counts[kind] += 1
        shaped = is_complete(counts, wilds)
        counts[kind] -= 1
        if shaped and _legal(hand, concealed, kind):
            out.append(tile_str(kind))
    wild = is_complete(counts, wilds + 1) and _legal(hand, concealed, WILD)
    return out, wild


def _legal(hand: _Hand, concealed: list[int], win_tile: int) -> bool:
    request = ScoreRequest(
        ruleset=hand.ruleset,
        options=hand.options,
        indicator=hand.indicator,
        winner=hand.seat_wind,
        hand=Hand(list(concealed), list(hand.melds), list(hand.flowers)),
        win_tile=win_tile,
        win_by="self_draw",
        round_wind=hand.round_wind,
        discarded_wild=hand.discarded_wild,
    )
    try:
        return bool(rulesets.score(request)["legal"])
    except ScoreInputError:
        return False  # e.g. a fifth copy of a kind: that tile cannot be drawn


def _parse(obj: Any) -> _Hand:
    if not isinstance(obj, dict):
        raise WaitsError("the request is a JSON object")
    unknown = sorted(set(obj) - {"ruleset", "options", "indicator", "seat_wind", "round_wind",
                                 "concealed", "melds", "flowers", "discarded_wild"})
    if unknown:
        raise WaitsError(f"unknown field: {unknown[0][:40]}")
    ruleset = obj.get("ruleset")
    if ruleset not in rulesets.names():
        raise WaitsError(f"ruleset: {rulesets.expected_names()}")
    rules = rulesets.ruleset(ruleset)
    try:
        options = rules.make_options(obj.get("options") or {})
    except OptionError as exc:
        raise WaitsError(f"options: {exc}") from None
    indicator = _tile(obj.get("indicator"), "indicator")
    if not rules.flowers and indicator >= NUM_KINDS:
        raise WaitsError(f"indicator: {rules.title} has no flowers")
    wilds, specials = rules.choose_wilds(indicator, options)
    concealed_in = obj.get("concealed")
    if not isinstance(concealed_in, list) or not 1 <= len(concealed_in) <= MAX_CONCEALED:
        raise WaitsError(f"concealed: a list of 1 to {MAX_CONCEALED} tiles")
    concealed = []
    wild_face = ""
    for i, face in enumerate(concealed_in):
        kind = _tile(face, f"concealed[{i}]")
        if kind in wilds:
            concealed.append(WILD)
            wild_face = wild_face or tile_str(kind)
        else:
            concealed.append(kind)
    melds_in = obj.get("melds") or []
    if not isinstance(melds_in, list) or len(melds_in) > MAX_MELDS:
        raise WaitsError(f"melds: a list of at most {MAX_MELDS} melds")
    melds = [_meld(m, f"melds[{i}]") for i, m in enumerate(melds_in)]
    flowers_in = obj.get("flowers") or []
    if not isinstance(flowers_in, list) or len(flowers_in) > 12:
        raise WaitsError("flowers: a list of tiles")
    flowers = [_tile(face, f"flowers[{i}]") for i, face in enumerate(flowers_in)]
    discarded_wild = obj.get("discarded_wild", False)
    if not isinstance(discarded_wild, bool):
        raise WaitsError("discarded_wild: true or false")
    return _Hand(
        ruleset=ruleset, options=options, indicator=indicator, wilds=wilds, specials=specials,
        wild_face=wild_face, seat_wind=_wind(obj.get("seat_wind", "E"), "seat_wind"),
        round_wind=_wind(obj.get("round_wind") or "E", "round_wind"), concealed=concealed,
        melds=melds, flowers=flowers, discarded_wild=discarded_wild,
    )


def _tile(face: Any, where: str) -> int:
    if not isinstance(face, str) or len(face) > 3:
        raise WaitsError(f"{where}: a tile face like '5m'")
    try:
        kind = parse_tile(face)
    except TileError:
        raise WaitsError(f"{where}: {face!r} is not a tile") from None
    if kind == WILD:
        raise WaitsError(f"{where}: write a wild by its face, not '*'")
    return kind


def _wind(value: Any, where: str) -> int:
    if not isinstance(value, str) or value not in SEAT_WINDS:
        raise WaitsError(f"{where}: one of E, S, W, N")
    return SEAT_WINDS.index(value)


def _meld(obj: Any, where: str) -> Meld:
    if not isinstance(obj, dict) or not isinstance(obj.get("tiles"), list):
        raise WaitsError(f"{where}: a meld is {{'type', 'tiles'}} (a face-down kong too)")
    tiles = [_tile(face, f"{where}.tiles") for face in obj["tiles"]]
    try:
        return make_meld(str(obj.get("type")), tiles, None)
    except MeldError as exc:
        raise WaitsError(f"{where}: {exc}") from None
