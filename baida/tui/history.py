"""The hands of a match played so far: one line each, to pick one and see its settlement again.

Pure: ``PastHand`` records what a finished hand's settlement needs (the final view and the
match totals after it); ``render_hand_list`` shows a window of them around the cursor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from .i18n import text, tile_label
from .render import ACT_STYLE, seat_name, signed_text
from .settlement import render_settlement


@dataclass(frozen=True)
class PastHand:
    """A finished hand as the player saw it at its end."""

    number: int
    view: Mapping[str, Any]  # the final view JSON (its ``result`` is the settlement)
    totals: list[int]  # the match totals after the hand
    base: int | None = None


def hand_summary(past: PastHand, me: int | None, lang: str = "zh") -> Text:
    """第3局  下家 自摸 3条  你 -12: the hand's number, outcome and the player's payment."""
    result = past.view.get("result") or {}
    out = Text(text("hand_no", lang, n=past.number) + "  ")
    winner = result.get("winner")
    if result.get("outcome") == "win" and winner is not None:
        how = text(f"win_by.{result.get('win_by', 'self_draw')}", lang)
        tile = tile_label(result.get("win_tile"), lang) if result.get("win_tile") else ""
        out.append(text("ev.win", lang, who=seat_name(winner, me, lang), how=how, tile=tile))
    else:
        out.append(text("history_draw", lang), style="yellow")
    if me is not None:
        payments = result.get("payments") or [0, 0, 0, 0]
        out.append("   " + seat_name(me, me, lang) + " ")
        out.append_text(signed_text(int(payments[me])))
    return out


def render_hand_list(
    hands: Sequence[PastHand], cursor: int, me: int | None, lang: str = "zh", rows: int = 18
) -> Group:
    """The list of hands with ▶ at the cursor, scrolled so the cursor stays in ``rows``."""
    items: list[RenderableType] = [Text(text("history_title", lang), style="bold underline")]
    if not hands:
        items.append(Text(text("history_empty", lang), style="dim"))
        return Group(*items)
    rows = max(1, rows)
    first = min(max(0, cursor - rows // 2), max(0, len(hands) - rows))
    for i in range(first, min(len(hands), first + rows)):
        line = Text("▶ " if i == cursor else "  ", style=ACT_STYLE)
        line.append_text(hand_summary(hands[i], me, lang))
        if i == cursor:
            line.stylize("bold")
        items.append(line)
    return Group(*items)


def render_past_settlement(past: PastHand, me: int | None, lang: str = "zh") -> Group:
    """A past hand's settlement as it was shown, with the keys to move on."""
    return Group(
        render_settlement(
            past.view, me, lang, totals=past.totals, hand_no=past.number, base=past.base
        ),
        Text(text("history_back", lang), style="dim"),
    )
