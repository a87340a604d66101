"""Wenling-specific checks of a scoring request: malformed input raises ``ScoreInputError``.
``fill_wenling_request`` reads the Wenling fields of a JSON input.

A hand that is well formed but may not win (an unexposed special in the concealed hand, a
discarded 得, a win on a 得) is not malformed: the scorer answers ``"legal": false``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..hand import Hand
from ..quote import name_of, quote
from ..rules.options import WenlingOptions
from ..rules.wenling_tiles import WenlingTiles, wenling_tiles
from ..tiles import NUM_ALL_KINDS, SEAT_WINDS, WILD, is_flower, tile_str
from .parse import check_copies, expect, field_bool, field_hand, field_seat
from .request import ScoreInputError, ScoreRequest

HAND_SIZE = 17  # a winning hand: 5 sets and a pair, a kong counting 3
WAITING_SIZE = 16  # a non-winner after the win
WIN_BYS = ("self_draw", "discard", "rob_kong", "lazi")
MAX_WILDS = 3


def _seat(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ScoreInputError(field, f"a seat is one of E S W N, got {quote(value)}")
    return value


def _check_tile(kind: int, field: str, tiles: WenlingTiles) -> None:
    """A tile written somewhere in a hand: not the indicator flower, not a 得 by its face."""
    if kind == WILD:
        return
    if not 0 <= kind < NUM_ALL_KINDS:
        raise ScoreInputError(field, f"not a tile: {quote(kind)}")
    if kind in tiles.wilds:
        raise ScoreInputError(
            field,
            f"{tile_str(kind)} is 得 this hand (indicator {tile_str(tiles.indicator)}); "
            "write it as *",
        )
    if kind == tiles.indicator and is_flower(kind):
        raise ScoreInputError(field, f"{tile_str(kind)} is the indicator, out of play")


def _check_hand(hand: Hand, where: str, tiles: WenlingTiles, size: int, extra: int) -> None:
    """Tiles, melds, flowers and the size of one hand (``extra`` = a winning tile outside it)."""
    for kind in set(hand.concealed):  # each kind once: this runs for every scored hand
        _check_tile(kind, f"{where}.concealed", tiles)
    for i, meld in enumerate(hand.melds):
        field = f"{where}.melds[{i}]"
        for kind in set(meld.tiles):
            _check_tile(kind, field, tiles)
            if kind in tiles.specials:
                raise ScoreInputError(
                    field, f"{tile_str(kind)} is a special this hand and cannot be melded"
                )
    for kind in hand.flowers:
        if kind == WILD:
            raise ScoreInputError(f"{where}.flowers", "a 得 (*) is not an exposed special")
        _check_tile(kind, f"{where}.flowers", tiles)
        if kind not in tiles.specials:
            raise ScoreInputError(
                f"{where}.flowers",
                f"{tile_str(kind)} is not a special this hand (indicator "
                f"{tile_str(tiles.indicator)}); only flowers and specials are exposed there",
            )
    n = len(hand.concealed) + extra + 3 * len(hand.melds)
    if n != size:
        raise ScoreInputError(
            f"{where}.concealed",
            f"this hand has {n} tiles (a kong counting 3); a Wenling "
            f"{'winning hand' if size == HAND_SIZE else 'non-winner'} has {size}",
        )


def _check_copies(req: ScoreRequest, tiles: WenlingTiles) -> None:
    """No kind more than four times (a flower once) and at most three 得 over all hands."""
    seen: Counter[int] = Counter()
    hands = [req.hand, *req.others.values()]
    for hand in hands:
        seen.update(hand.concealed)
        seen.update(hand.flowers)
        for meld in hand.melds:
            seen.update(meld.tiles)
    if req.win_tile is not None:
        seen[req.win_tile] += 1
    if seen[WILD] > MAX_WILDS:
        raise ScoreInputError("hand", f"{seen[WILD]} 得 (*) in all hands; there are only 3")
    for kind, n in seen.items():
        limit = 1 if is_flower(kind) else 4
        if kind != WILD and n > limit:
            raise ScoreInputError(
                "hand", f"{tile_str(kind)} appears {n} times in all hands; there are {limit}"
            )


def _check_win(req: ScoreRequest) -> None:
    if req.win_by not in WIN_BYS:
        raise ScoreInputError(
            "win_by", f"expected one of {', '.join(WIN_BYS)}, got {quote(req.win_by)}"
        )
    if req.win_by == "lazi":
        if req.win_tile is not None:
            raise ScoreInputError("win_tile", "a 腊子 has no winning tile")
    elif req.win_tile is None:
        raise ScoreInputError("win_tile", "required unless win_by is 'lazi'")
    if req.win_by in ("discard", "rob_kong"):
        if req.from_seat is None:
            raise ScoreInputError("from", f"required when win_by is {quote(req.win_by)}")
        if _seat(req.from_seat, "from") == req.winner:
            raise ScoreInputError("from", "the winner cannot be the one who pays the tile")
    if (req.after_kong or req.after_special) and req.win_by != "self_draw":
        raise ScoreInputError(
            "after_kong" if req.after_kong else "after_special",
            "a replacement draw is a self-draw (win_by 'self_draw')",
        )
    if req.after_kong and req.after_special:
        raise ScoreInputError(
            "after_special", "the winning tile replaces a kong or a special, not both"
        )


def _check_robbed_tile(req: ScoreRequest) -> None:
    """A robbed 补杠 tile: its other three copies sit in the robbed player's 碰."""
    if req.win_by != "rob_kong" or req.win_tile is None or req.win_tile == WILD:
        return
    kind = req.win_tile
    held = req.hand.concealed.count(kind) + sum(m.tiles.count(kind) for m in req.hand.melds)
    for seat, hand in req.others.items():
        held += hand.concealed.count(kind)
        for meld in hand.melds:
            if not (seat == req.from_seat and meld.kind == "pon" and meld.tile == kind):
                held += meld.tiles.count(kind)
    if held:
        raise ScoreInputError(
            "win_tile",
            f"{tile_str(kind)} is robbed from a 补杠, so the other three {tile_str(kind)} are in "
            "the robbed player's 碰 and no other hand can hold one",
        )


def _check_liable(req: ScoreRequest) -> None:
    if req.liable is None:
        return
    liable = _seat(req.liable, "liable")
    if liable == req.winner:
        raise ScoreInputError("liable", "the winner cannot be 被包 (liable)")
    if req.win_by != "discard" or liable != req.from_seat:
        raise ScoreInputError(
            "liable",
            "包三家 applies only to the player whose discard was won on (win_by 'discard')",
        )


def validate_wenling(req: ScoreRequest) -> None:
    """Raise ``ScoreInputError`` for Wenling input that is malformed (see the module doc)."""
    if not isinstance(req.options, WenlingOptions):
        raise ScoreInputError("options", "Wenling options expected")
    if isinstance(req.indicator, bool) or not isinstance(req.indicator, int) or not (
        0 <= req.indicator < NUM_ALL_KINDS
    ):
        raise ScoreInputError("indicator", f"not a tile: {quote(req.indicator)}")
    winner = _seat(req.winner, "winner")
    tiles = wenling_tiles(req.indicator, req.options.flower_flip_specials)
    _check_win(req)
    if req.win_tile is not None:
        _check_tile(req.win_tile, "win_tile", tiles)
    _check_hand(req.hand, "hand", tiles, HAND_SIZE, int(req.win_tile is not None))
    for seat, hand in req.others.items():
        if _seat(seat, "others") == winner:
            raise ScoreInputError(f"others.{SEAT_WINDS[winner]}", "that seat is the winner")
        _check_hand(hand, f"others.{SEAT_WINDS[seat]}", tiles, WAITING_SIZE, 0)
    _check_copies(req, tiles)
    _check_robbed_tile(req)
    _check_liable(req)


def fill_wenling_request(req: ScoreRequest, obj: dict[str, Any]) -> None:
    """The Wenling fields of a JSON input (``SCORING_API.md``) into ``req``."""
    req.after_special = field_bool(obj, "after_special")
    req.discarded_wild = field_bool(obj, "discarded_wild")
    if "liable" in obj:
        req.liable = field_seat("liable", obj["liable"])
        if req.liable == req.winner:
            raise ScoreInputError("liable", "the winner cannot be the 被包 player")
    others = obj.get("others", {})
    expect("others", others, dict, "an object of hands keyed by seat")
    for key, value in others.items():
        seat = field_seat(f"others.{name_of(key)}", key)
        if seat == req.winner:
            raise ScoreInputError(f"others.{key}", "the winner's hand belongs in hand, not others")
        req.others[seat] = field_hand(f"others.{key}", value)


def check_wenling_request(req: ScoreRequest) -> None:
    """A parsed Wenling input: the copies of each kind over every hand given, then
    ``validate_wenling``."""
    check_copies(req, robbed_pon=False)
    validate_wenling(req)
