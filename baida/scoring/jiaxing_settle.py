"""Who pays how many shares of a Jiaxing win (RULES.md §A5, §A6).

``share_multipliers`` gives each loser's multiplier m (the payer pays m·s). 三摊 (承包) sets the
base multipliers: the winner's partners pay 5, every other player still playing pays 2 when the
winner or the payer is in a 承包 pair and 1 otherwise, players who gave up pay 0. A win on a
robbed kong or (抓铳 variant) on a discard puts the extra shares on the robbed player or the
discarder; ``rob_with_chengbao`` (J-A10) says how they combine with the 承包 multipliers. That
is 承包 arithmetic: with no 承包 pair in force both modes keep the plain rule (only the robbed
player or the discarder pays, its extra shares).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.options import JiaxingOptions

PARTNER, CONTINUING, PLAIN = 5, 2, 1
ROB_SHARES = 3


def chengbao_multipliers(
    winner: int, santan: Sequence[tuple[int, int]], gave_up: Sequence[int]
) -> dict[int, int]:
    """Each loser's multiplier on a self-drawn win, 承包 and 放弃 applied."""
    partners = {b for a, b in santan if a == winner} | {a for a, b in santan if b == winner}
    in_pair = {seat for pair in santan for seat in pair}
    out: dict[int, int] = {}
    for seat in range(4):
        if seat == winner:
            continue
        if seat in gave_up:
            out[seat] = 0
        elif seat in partners:
            out[seat] = PARTNER
        elif winner in in_pair or seat in in_pair:
            out[seat] = CONTINUING
        else:
            out[seat] = PLAIN
    return out


def share_multipliers(
    winner: int,
    win_by: str,
    from_seat: int | None,
    santan: Sequence[tuple[int, int]],
    gave_up: Sequence[int],
    options: JiaxingOptions,
) -> dict[int, int]:
    """Each loser's multiplier for this win."""
    base = chengbao_multipliers(winner, santan, gave_up)
    if win_by == "self_draw" or from_seat is None:
        return base
    if win_by == "rob_kong":
        extra = ROB_SHARES
    else:
        extra = 3 if options.discard_win_payment == "discarder_three_shares" else 1
    out: dict[int, int] = {}
    if not santan:  # the plain rule (J-A10): nobody but the robbed player / discarder pays
        return {seat: extra if seat == from_seat else 0 for seat in base}
    additive = options.rob_with_chengbao == "additive"
    for seat, m in base.items():
        liability = m if additive or m > PLAIN else 0
        out[seat] = liability + extra if seat == from_seat else liability
    return out


def payments(
    winner: int, share: int, multipliers: dict[int, int], bonus: int
) -> dict[int, int]:
    """Net change per seat: each loser pays m·share, the winner gets it all plus the bonus."""
    out = {seat: -m * share for seat, m in multipliers.items()}
    out[winner] = -sum(out.values()) + bonus
    return {seat: out[seat] for seat in range(4)}
