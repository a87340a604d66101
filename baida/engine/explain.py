"""Why an action is refused, in a player's words: the message of ``IllegalAction``.

A refusal is built only from what the sender's own view shows. A seat that has nothing to
decide now gets one fixed answer, whatever the phase, so that it never learns who else may
claim a discard or rob a kong, nor even whether anyone may. A seat that has a decision gets
the reason recorded by the very code that builds its ``legal_actions``
(``Round.refusals``), so the two cannot disagree. The texts live here; the decisions are the
round's.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tiles import tile_str
from . import actions as A
from .actions import Action
from .phases import CLAIM, ROB, SANTAN, TURN
from .settle import score
from .state import HandState, Why

__all__ = ["Why", "explain"]

NOT_YOURS = "not your decision now"
AFTER_CLAIM = "after 吃/碰 you must discard"
LAST_DISCARD = "nothing may be claimed on the last discard"
ONLY_WIN_ON_LAST = "only 和 may be claimed on the last discard"
NO_SANTAN = "there is no 三摊 question now"


def explain(rnd: HandState, action: Action) -> str:
    """Why ``action`` is not legal now, from what ``action.seat``'s view shows."""
    if action.type == A.CHI and not rnd.chi_allowed:
        return "this table forbids 吃"  # a rule of the table, whatever the phase
    if action.type == A.LAZI and not rnd.rules.lazi:
        return "腊子 is a Wenling hand"
    if action.seat not in rnd.to_act:
        return NOT_YOURS
    why = rnd.refusals(action.seat)
    for key in ((action.type, action.tile), (action.type, action.tiles), action.type):
        if key in why:
            return why[key]
    return f"{action.type} is not possible now"


def phase_refusals(rnd: HandState, why: Why) -> None:
    """The reasons that follow from the phase alone, for the action types it never offers."""
    if rnd.phase == TURN:
        for kind in (A.CHI, A.PON, A.MKONG, A.PASS):
            why[kind] = "there is no discard to claim: it is your turn to discard"
        why[A.CONTINUE] = why[A.GIVE_UP] = NO_SANTAN
    elif rnd.phase in (CLAIM, ROB):
        tile = tile_str(rnd.window_tile or 0)
        if rnd.phase == CLAIM:
            first = f"answer the claim on {tile} first (pass or claim it)"
        else:
            first = f"answer the 抢杠 question on {tile} first (win or pass)"
            for kind in (A.CHI, A.PON, A.MKONG):
                why[kind] = first
        for kind in (A.DISCARD, A.AKONG, A.BUKONG, A.LAZI):
            why[kind] = first
        why[A.CONTINUE] = why[A.GIVE_UP] = NO_SANTAN
    elif rnd.phase == SANTAN:
        for kind in A.ACTION_TYPES:
            why.setdefault(kind, "三摊: answer continue (坚持) or give_up (放弃)")


def win_refusal(rnd: HandState, seat: int, win_by: str) -> str:
    """Why ``seat`` may not win by ``win_by`` now (the blocking rule, or the scorer's reason)."""
    if seat in rnd.gave_up and not getattr(rnd.options, "gaveup_can_win", False):
        return "放弃: a player who gave up cannot win"
    if rnd._win_blocked(seat):
        return rnd._blocked_reason(seat)
    if win_by == "self_draw":
        if rnd.drawn[seat] is None:
            return "you can only win on a tile you drew"
        if not rnd._complete_with(seat, None):
            return "your hand is not complete"
        return score(rnd, seat, "self_draw", rnd.drawn[seat], None).get("reason") or (
            "this win is not allowed"
        )
    tile = rnd.window_tile
    assert tile is not None and rnd.window_from is not None
    if not rnd._complete_with(seat, tile):
        return f"{tile_str(tile)} does not complete your hand"
    return (
        score(rnd, seat, win_by, tile, rnd.window_from).get("reason") or "this win is not allowed"
    )


def no_kong_reason(gave_up: bool) -> str:
    if gave_up:
        return "放弃: you may only draw and discard"
    return "no replacement tile left for a kong"


def kong_refusals(rnd: HandState, seat: int, offered: Sequence[Action], why: Why) -> None:
    """Why each kong of one's own that is not in ``offered`` is refused, kind by kind."""
    given = {(a.type, a.tile) for a in offered}
    for kind in range(42):
        face = tile_str(kind)
        if kind in rnd.wild_kinds:
            akong = bukong = "a wild tile cannot be used in a kong"
        elif kind in rnd.special_kinds:
            akong = bukong = f"{face} is a special tile: it cannot be played"
        else:
            akong = f"暗杠 needs four {face} in your hand"
            bukong = f"补杠 needs your own 碰 of {face} and the fourth {face} in your hand"
        if (A.AKONG, kind) not in given:
            why[(A.AKONG, kind)] = akong
        if (A.BUKONG, kind) not in given:
            why[(A.BUKONG, kind)] = bukong


def discard_refusals(rnd: HandState, seat: int, offered: Sequence[Action], why: Why) -> None:
    """Why each discard that is not in ``offered`` is refused, kind by kind."""
    given = {a.tile for a in offered if a.type == A.DISCARD}
    held = set(rnd.wild[seat]) | {k for k in range(42) if rnd.cnt[seat][k]}
    for kind in range(42):
        if kind in given:
            continue
        face = tile_str(kind)
        if kind in rnd.special_kinds:
            why[(A.DISCARD, kind)] = f"{face} is a special tile: it cannot be played"
        elif kind not in held:
            why[(A.DISCARD, kind)] = f"you do not hold {face}"
        elif seat in rnd.gave_up:
            why[(A.DISCARD, kind)] = "放弃: you must discard the tile you drew"
        else:
            why[(A.DISCARD, kind)] = f"you cannot discard {face} now"


def pon_refusal(tile: int, have: int) -> str:
    face = tile_str(tile)
    if have >= 2:
        return f"you passed on 碰 of {face}: no 碰 of it until you draw"
    return f"碰 needs two {face} in your hand"


def mkong_refusal(tile: int, have: int) -> str:
    if have >= 3:
        return "no replacement tile left for a kong"
    return f"明杠 needs three {tile_str(tile)} in your hand"


def chi_refusal(seat: int, discarder: int, tile: int, allowed: bool) -> str:
    """Why no 吃 at all is offered on this discard."""
    if seat != (discarder + 1) % 4:
        return "吃 only from the player on your left (上家)"
    if tile >= 27:
        return "吃 needs a suit tile"
    if not allowed:
        return "this table forbids 吃"
    return f"you cannot 吃 {tile_str(tile)}"


def chi_pair_refusal(tile: int) -> str:
    return f"you cannot 吃 {tile_str(tile)} with those tiles"
