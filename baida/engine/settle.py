"""Scoring a win and settling a hand: the scorer's request and verdict, the ``HandResult``.

Functions of a hand's state (their first argument). The ruleset-specific parts stay hooks of
the round (``_request_extras``, ``_liable_for``, ``_draw_outcome``); the scorer is the ruleset's.
"""

from __future__ import annotations

from typing import Any

from ..hand import Hand
from ..scoring.request import ScoreRequest
from ..tiles import WILD, tile_str
from .phases import ENDED, WINDS
from .result import HandResult
from .state import HandState
from .views import meld_json


def scorer_hand(rnd: HandState, seat: int, exclude: int | None) -> Hand:
    """The seat's hand as the scorer takes it (wilds as ``WILD``), less ``exclude`` if given."""
    concealed = [WILD] * len(rnd.wild[seat])
    counts = rnd.cnt[seat]
    for kind in range(42):
        if counts[kind]:
            concealed.extend([kind] * counts[kind])
    if exclude is not None:
        concealed.remove(WILD if exclude in rnd.wild_kinds else exclude)
    return Hand(concealed, list(rnd.melds[seat]), list(rnd.flowers[seat]))


def score_request(
    rnd: HandState, seat: int, win_by: str, tile: int | None, from_seat: int | None
) -> ScoreRequest:
    """The scorer's request for ``seat`` winning by ``win_by`` on ``tile``."""
    in_hand = win_by in ("self_draw",)
    hand = scorer_hand(rnd, seat, tile if in_hand else None)
    source = rnd.draw_source[seat]
    req = ScoreRequest(
        ruleset=rnd.ruleset,
        options=rnd.options,
        indicator=rnd.indicator,
        winner=rnd._wind_index(seat),
        hand=hand,
        win_tile=None if tile is None else (WILD if tile in rnd.wild_kinds else tile),
        win_by=win_by,
        from_seat=None if from_seat is None else rnd._wind_index(from_seat),
        base=rnd.base,
        after_kong=win_by == "self_draw" and source == "kong",
    )
    rnd._request_extras(req, seat, win_by, from_seat)
    return req


def score(
    rnd: HandState, seat: int, win_by: str, tile: int | None, from_seat: int | None
) -> dict[str, Any]:
    """The scorer's verdict on a win (cached while no tile moves)."""
    if rnd._scores_version != rnd._version:
        rnd._scores = {}
        rnd._scores_version = rnd._version
    key = (seat, win_by, tile, from_seat)
    found = rnd._scores.get(key)
    if found is None:
        found = rnd.rules.score(score_request(rnd, seat, win_by, tile, from_seat))
        rnd._scores[key] = found
    return found


def finish_win(
    rnd: HandState, seat: int, win_by: str, tile: int | None, from_seat: int | None
) -> None:
    """``seat`` wins: the ``win`` event, the payments by seat, and the end of the hand."""
    verdict = score(rnd, seat, win_by, tile, from_seat)
    transfers = rnd._transfers(seat, win_by, tile, from_seat, verdict)
    if win_by in ("discard", "rob_kong"):
        assert tile is not None
        rnd._add(seat, tile)  # the claimed or robbed tile joins the winning hand
    rnd._emit(
        "win",
        seat,
        win_by=win_by,
        tile=None if tile is None else tile_str(tile),
        **{"from": from_seat},
    )
    payments = [0, 0, 0, 0]
    for wind, amount in verdict["payments"].items():
        payments[(rnd.dealer + WINDS.index(wind)) % 4] = amount
    carry_after = verdict.get("carry_pool_after") if rnd.rules.carry_pool else None
    _end(
        rnd,
        HandResult(
            outcome="win",
            winner=seat,
            win_by=win_by,
            win_tile=tile,
            from_seat=from_seat,
            liable=rnd._liable_for(seat, win_by, from_seat),
            payments=payments,
            score=verdict,
            carry_pool_after=carry_after,
            transfers=transfers,
        ),
    )


def end_draw(rnd: HandState) -> None:
    """The hand ends without a winner (Jiaxing 流局, Wenling 黄牌)."""
    carry_after, _ = rnd._draw_outcome()
    _end(
        rnd,
        HandResult(
            outcome="draw",
            winner=None,
            win_by=None,
            win_tile=None,
            from_seat=None,
            liable=None,
            payments=[0, 0, 0, 0],
            score=None,
            carry_pool_after=carry_after,
        ),
    )


def _end(rnd: HandState, result: HandResult) -> None:
    result.hands = [_hand_json(rnd, s) for s in range(4)]
    result.seed = rnd.seed.hex() if rnd.seed is not None else None
    rnd.result = result
    rnd.phase = ENDED
    rnd.asked = {}
    rnd.answers = {}
    rnd._emit("hand_end", None, **result.to_json())


def _hand_json(rnd: HandState, seat: int) -> dict[str, Any]:
    return {
        "concealed": [tile_str(t) for t in rnd.concealed(seat)],
        "melds": [meld_json(m) for m in rnd.melds[seat]],
        "flowers": [tile_str(t) for t in rnd.flowers[seat]],
    }
