"""The Wenling 温岭麻将 scorer: one finished hand to the ``SCORING_API.md`` output object.

``validate_wenling`` rejects malformed input; ``score_wenling`` decides legality (RULES.md §B3),
scores the winner's best reading (§B4.1-B4.2, ``wenling_winner``), every non-winner
(§B4.3, ``wenling_others``) and settles (§B5-B6, ``wenling_settle``).
"""

from __future__ import annotations

from typing import Any

from ..hand import Hand
from ..rules.options import WenlingOptions
from ..rules.wenling_tiles import WenlingTiles, wenling_tiles
from ..tiles import SEAT_WINDS, WILD, tile_name, tile_str
from .request import ScoreRequest
from .wenling_items import LIMIT
from .wenling_lazi import lazi_names
from .wenling_others import nonwinner_score
from .wenling_settle import Transfer, settle, transfers
from .wenling_validate import validate_wenling
from .wenling_winner import WinnerScore, best_reading

__all__ = ["payment_transfers", "score_wenling", "validate_wenling"]


def _by_seat(values: dict[int, int]) -> dict[str, int]:
    return {SEAT_WINDS[seat]: values[seat] for seat in range(4)}


def _items(pairs: list[tuple[str, int]]) -> list[dict[str, Any]]:
    return [{"name": name, "value": value} for name, value in pairs]


def _illegal(reason: str) -> dict[str, Any]:
    zeros = _by_seat(dict.fromkeys(range(4), 0))
    return {
        "legal": False,
        "reason": reason,
        "tai": [],
        "fan": [],
        "base_items": [],
        "tai_total": None,
        "fan_total": 0,
        "base_points": 0,
        "raw": 0,
        "points": 0,
        "totals": zeros,
        "payments": dict(zeros),
        "carry_pool_after": None,
        "wilds": [],
    }


def _unexposed_special(hand: Hand, win_tile: int | None, tiles: WenlingTiles) -> int | None:
    for kind in [*hand.concealed, win_tile]:
        if kind is not None and kind in tiles.specials:
            return kind
    return None


def _refusal(req: ScoreRequest, tiles: WenlingTiles) -> str | None:
    """Why the described win may not be declared, or None."""
    if req.discarded_wild:
        return "a player who discarded a 得 cannot win this hand"
    if req.win_tile == WILD and req.win_by in ("discard", "rob_kong"):
        return "nobody may win on a discarded 得"
    special = _unexposed_special(req.hand, req.win_tile, tiles)
    if special is not None:
        return (
            f"the hand holds an unexposed special ({tile_name(special)} {tile_str(special)}); "
            "it must be exposed before winning"
        )
    return None


def _lazi_score(req: ScoreRequest) -> WinnerScore | None:
    names = lazi_names(req.hand, req.winner, req.options)  # type: ignore[arg-type]
    if not names:
        return None
    return WinnerScore(LIMIT, LIMIT, 0, 0, [], [(name, 0) for name in names], [])


def _sole_payer(req: ScoreRequest) -> int | None:
    """The robbed player, when it pays the winner for everyone (W-A15 ``robbed``)."""
    robbed_pays = req.win_by == "rob_kong" and req.options.rob_payment == "robbed"  # type: ignore[union-attr]
    return req.from_seat if robbed_pays else None


def payment_transfers(req: ScoreRequest, verdict: dict[str, Any]) -> list[Transfer]:
    """Who pays whom behind a legal verdict's ``payments``, seats as in ``req`` (0 = East):
    the winner's shares, then the payments between non-winners, each with its totals."""
    if not verdict["legal"]:
        return []
    totals = {seat: verdict["totals"][wind] for seat, wind in enumerate(SEAT_WINDS)}
    return transfers(req.winner, totals, req.liable, _sole_payer(req))


def score_wenling(req: ScoreRequest) -> dict[str, Any]:
    """Score and settle one Wenling hand (validated first; see ``validate_wenling``)."""
    validate_wenling(req)
    options = req.options
    assert isinstance(options, WenlingOptions)
    tiles = wenling_tiles(req.indicator, options.flower_flip_specials)
    refusal = _refusal(req, tiles)
    if refusal is not None:
        return _illegal(refusal)
    if req.win_by == "lazi":
        scored = _lazi_score(req)
        if scored is None:
            return _illegal("no 腊子: none of 3张得, four flowers of a group, four specials, "
                            "暗杠门风 or 暗杠字牌")
    else:
        assert req.win_tile is not None
        scored = best_reading(
            req.hand, req.winner, req.win_tile, req.win_by, options, tiles,
            req.after_kong, req.after_special,
        )
        if scored is None:
            return _illegal("not a winning hand: it does not split into 5 sets and a pair")
    totals = {req.winner: scored.total}
    for seat in range(4):
        if seat == req.winner:
            continue
        hand = req.others.get(seat, Hand())
        liable = seat == req.liable
        totals[seat] = 0 if liable else nonwinner_score(hand, seat, tiles, options).total
    payments = settle(req.winner, totals, req.liable, _sole_payer(req))
    return {
        "legal": True,
        "reason": None,
        "tai": [],
        "fan": _items(scored.fan_items),
        "base_items": _items(scored.base_items),
        "tai_total": None,
        "fan_total": scored.fan_total,
        "base_points": scored.base_points,
        "raw": scored.raw,
        "points": scored.total,
        "totals": _by_seat(totals),
        "payments": _by_seat(payments),
        "carry_pool_after": None,
        "wilds": [tile_str(face) for face in scored.wilds],
    }
