"""Why an action is illegal, in a player's words: the message of ``IllegalAction``.

Functions of a ``Round`` (its first argument), used only on the refusal path. Ruleset-specific
refusals stay hooks of the round (``_explain_rule``, ``_blocked_reason``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tiles import tile_str
from . import actions as A
from .actions import Action
from .phases import CLAIM, ROB, SANTAN, TURN

if TYPE_CHECKING:
    from .round import Round


def explain(rnd: Round, action: Action) -> str:
    """Why ``action`` is not legal now, in a player's words."""
    rule = rnd._explain_rule(action)
    if rule is not None:
        return rule
    seat = action.seat
    kind = action.type
    waiting = rnd.to_act
    if (
        kind == A.CHI
        and rnd.phase == CLAIM
        and seat != ((rnd.window_from or 0) + 1) % 4
        and seat != rnd.window_from
    ):
        return "吃 only from the player on your left (上家)"
    if seat not in waiting:
        if rnd.phase == TURN:
            return f"not your turn: waiting for seat {rnd.turn}"
        if seat in rnd.answers:
            return "you have already answered"
        seats = ", ".join(map(str, waiting))
        if rnd.phase == CLAIM:
            tile = tile_str(rnd.window_tile or 0)
            if kind in (A.CHI, A.PON, A.MKONG, A.WIN, A.PASS):
                return f"you have no claim on {tile}"
            return f"not your decision now: waiting for seat(s) {seats} to answer on {tile}"
        if rnd.phase == ROB:
            return "you cannot rob this kong (抢杠)"
        return "not your decision now: waiting for seat(s) " + ", ".join(map(str, waiting))
    legal = rnd.legal_actions(seat)
    legal_types = {a.type for a in legal}
    if rnd.phase == SANTAN:
        return "三摊: answer continue (坚持) or give_up (放弃)"
    if rnd.phase in (CLAIM, ROB):
        tile = tile_str(rnd.window_tile or 0)
        if kind in (A.DISCARD, A.AKONG, A.BUKONG, A.LAZI):
            return f"answer the claim on {tile} first (pass or claim it)"
        if kind in (A.CONTINUE, A.GIVE_UP):
            return "there is no 三摊 question now"
        if kind == A.WIN:
            return win_refusal(rnd, seat, "discard" if rnd.phase == CLAIM else "rob_kong")
        if kind == A.CHI:
            if seat != ((rnd.window_from or 0) + 1) % 4:
                return "吃 only from the player on your left (上家)"
            return f"you cannot 吃 {tile} with those tiles"
        if kind == A.PON:
            if rnd.cnt[seat][rnd.window_tile or 0] >= 2:
                return f"you passed on 碰 of {tile}: no 碰 of it until you draw"
            return f"碰 needs two {tile} in your hand"
        if kind == A.MKONG:
            if rnd.cnt[seat][rnd.window_tile or 0] >= 3:
                return "no replacement tile left for a kong"
            return f"明杠 needs three {tile} in your hand"
        return "not possible now"
    # own turn
    if kind in (A.CHI, A.PON, A.MKONG, A.PASS):
        return "there is no discard to claim: it is your turn to discard"
    if kind in (A.CONTINUE, A.GIVE_UP):
        return "there is no 三摊 question now"
    if rnd.after_claim and kind != A.DISCARD:
        return "after 吃/碰 you must discard"
    if kind == A.DISCARD:
        tile = action.tile
        assert tile is not None
        if tile in rnd.special_kinds:
            return f"{tile_str(tile)} is a special tile: it cannot be played"
        if rnd.wild[seat].count(tile) == 0 and rnd.cnt[seat][tile] == 0:
            return f"you do not hold {tile_str(tile)}"
        if seat in rnd.gave_up:
            return "放弃: you must discard the tile you drew"
        return f"you cannot discard {tile_str(tile)} now"
    if kind == A.WIN:
        return win_refusal(rnd, seat, "self_draw")
    if kind == A.LAZI:
        return "your hand holds no 腊子"
    if kind in (A.AKONG, A.BUKONG):
        if seat in rnd.gave_up:
            return "放弃: you may only draw and discard"
        if not rnd._can_draw():
            return "no replacement tile left for a kong"
        tile = tile_str(action.tile or 0)
        if action.tile in rnd.wild_kinds:
            return "a wild tile cannot be used in a kong"
        if kind == A.AKONG:
            return f"暗杠 needs four {tile} in your hand"
        return f"补杠 needs your own 碰 of {tile} and the fourth {tile} in your hand"
    return f"{kind} is not possible now (legal: {', '.join(sorted(legal_types))})"


def win_refusal(rnd: Round, seat: int, win_by: str) -> str:
    """Why ``seat`` may not win by ``win_by`` now (the blocking rule, or the scorer's reason)."""
    if seat in rnd.gave_up and not getattr(rnd.options, "gaveup_can_win", False):
        return "放弃: a player who gave up cannot win"
    blocked = rnd._win_blocked(seat)
    if blocked:
        return rnd._blocked_reason(seat)
    if win_by == "self_draw":
        if rnd.after_claim or rnd.drawn[seat] is None:
            return "you can only win on a tile you drew"
        if not rnd._complete_with(seat, None):
            return "your hand is not complete"
        return rnd._score(seat, "self_draw", rnd.drawn[seat], None).get("reason") or (
            "this win is not allowed"
        )
    tile = rnd.window_tile
    assert tile is not None and rnd.window_from is not None
    if not rnd._complete_with(seat, tile):
        return f"{tile_str(tile)} does not complete your hand"
    return (
        rnd._score(seat, win_by, tile, rnd.window_from).get("reason") or "this win is not allowed"
    )
