"""The Jiaxing part of a JSON scoring input: its own fields, and the checks that make a
Jiaxing request well formed (no flowers, the 百搭 written as ``*``, 天和/地和 and 三摊 flags).
``baida.rulesets.Jiaxing`` hands them to ``parse.parse_request``."""

from __future__ import annotations

from typing import Any

from ..quote import quote
from ..tiles import FLOWER_FIRST, NUM_KINDS, SEAT_WINDS, WILD, tile_str
from .parse import check_copies, expect, field_bool, field_int, field_seat
from .request import MAX_BASE, MAX_CARRY_POOL, ScoreInputError, ScoreRequest


def fill_jiaxing_request(req: ScoreRequest, obj: dict[str, Any]) -> None:
    """The Jiaxing fields of a JSON input (``SCORING_API.md``) into ``req``."""
    req.base = field_int(obj, "base", 1, 1, MAX_BASE)
    req.carry_pool = field_int(obj, "carry_pool", 0, 0, MAX_CARRY_POOL)
    if "round_wind" in obj:
        req.round_wind = field_seat("round_wind", obj["round_wind"])
    req.last_tile = field_bool(obj, "last_tile")
    req.heavenly = field_bool(obj, "heavenly")
    req.earthly = field_bool(obj, "earthly")
    santan = obj.get("santan", [])
    expect("santan", santan, list, "an array of seat pairs like [[\"E\", \"N\"]]")
    for i, pair in enumerate(santan):
        where = f"santan[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise ScoreInputError(where, f"expected a pair of seats like [\"E\", \"N\"], got"
                                  f" {quote(pair)}")
        req.santan.append(
            (field_seat(f"{where}[0]", pair[0]), field_seat(f"{where}[1]", pair[1]))
        )
    gave_up = obj.get("gave_up", [])
    expect("gave_up", gave_up, list, "an array of seats")
    req.gave_up = [field_seat(f"gave_up[{i}]", s) for i, s in enumerate(gave_up)]


def _no_flowers(field: str, tiles: list[int]) -> None:
    for kind in tiles:
        if FLOWER_FIRST <= kind < WILD:
            raise ScoreInputError(field, f"Jiaxing is played without flowers, got {tile_str(kind)}")


def check_jiaxing_request(req: ScoreRequest) -> None:
    """Jiaxing-specific well-formedness: no flowers, the wild's face, flags and seats; then
    the copies of each kind (a robbed kong's other three are in the robbed player's 碰)."""
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
    check_copies(req, robbed_pon=True)
