"""The end of a hand and of a match as rich renderables, from the final view JSON.

Pure functions: the view's ``result`` (docs/engine.md, "HandResult", with the scorer's output
of SCORING_API.md in ``score``) in, renderables out: who won how, every 台/番/和 item, the
sums, every seat's payment and the running match totals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .i18n import item_name, text, tile_label
from .render import (
    ME_STYLE,
    View,
    melds_text,
    seat_name,
    seat_status,
    seat_title,
    signed_text,
)
from .tiles import sort_faces, tile_text, tiles_text


def _items_line(items: Sequence[Mapping[str, Any]], lang: str) -> Text:
    """Scoring items as 'name value · name value'."""
    out = Text()
    for i, item in enumerate(items):
        if i:
            out.append(" · ", style="dim")
        out.append(item_name(str(item["name"]), lang))
        out.append(f" {item['value']}", style="bold")
    return out


def revealed_hand_text(
    hand: Mapping[str, Any],
    wilds: Sequence[str],
    lang: str = "zh",
    win_tile: str | None = None,
) -> Text:
    """A finished hand: concealed tiles (wilds first; the winning tile apart), melds, flowers."""
    concealed = list(hand.get("concealed") or [])
    if win_tile is not None and win_tile in concealed:
        concealed.remove(win_tile)
    else:
        win_tile = None
    out = tiles_text(sort_faces(concealed, wilds), lang, wilds=wilds)
    if win_tile is not None:
        out.append(" + ")
        out.append_text(tile_text(win_tile, lang, wilds=wilds, extra_style="reverse"))
    rest = melds_text(hand, lang)
    if rest:
        out.append("  │ ")
        out.append_text(rest)
    return out


def render_settlement(
    view: View,
    me: int | None,
    lang: str = "zh",
    *,
    totals: Sequence[int] | None = None,
    hand_no: int | None = None,
    base: int | None = None,
) -> Group:
    """The end of a hand: who won how, every scoring item, the sums and everyone's payments."""
    result = view.get("result") or {}
    ruleset = view.get("ruleset", "jiaxing")
    wilds = list(view.get("wilds") or [])
    items: list[RenderableType] = []
    title = text("settlement", lang)
    if hand_no is not None:
        title += " · " + text("hand_no", lang, n=hand_no)
    items.append(Text(title, style="bold underline"))
    score = result.get("score") or {}
    winner = result.get("winner")
    if result.get("outcome") != "win" or winner is None:
        items.append(Text(text(f"outcome.draw.{ruleset}", lang), style="bold yellow"))
    else:
        how = text(f"win_by.{result.get('win_by', 'self_draw')}", lang)
        tile = tile_label(result.get("win_tile"), lang) if result.get("win_tile") else ""
        who = seat_title(view, winner, me, lang)
        items.append(
            Text(text("winner_line", lang, who=who, how=how, tile=tile), style="bold green")
        )
        if result.get("from") is not None and result.get("win_by") != "self_draw":
            items.append(Text(text("winner_from", lang, who=seat_name(result["from"], me, lang))))
        if result.get("liable") is not None:
            liable = seat_name(result["liable"], me, lang)
            items.append(Text(text("liable", lang, who=liable), style="bold red"))
        hands = result.get("hands") or []
        if winner < len(hands):
            win_tile = result.get("win_tile")
            items.append(revealed_hand_text(hands[winner], wilds, lang, win_tile))
        items.extend(_score_lines(score, ruleset, lang, base))
    pairs = view.get("santan_pairs") or []
    if ruleset == "jiaxing" and pairs and result.get("outcome") == "win":
        names = ", ".join(
            "–".join(seat_name(s, me, lang) for s in pair) for pair in pairs
        )
        items.append(Text(text("santan_rule", lang, pairs=names), style="red"))
    items.append(Text(""))
    items.append(_payments_table(view, me, lang, result, score, totals))
    pool = result.get("carry_pool_after")
    if ruleset == "jiaxing" and pool is not None:
        items.append(Text(text("carry_after", lang, n=pool), style="magenta"))
    return Group(*items)


def _score_lines(
    score: Mapping[str, Any], ruleset: str, lang: str, base: int | None
) -> list[RenderableType]:
    out: list[RenderableType] = []
    if score.get("legal") is False:
        out.append(Text(text("illegal_win", lang, reason=score.get("reason")), style="red"))
        return out
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    grid.add_column(justify="right", no_wrap=True)
    rows = (
        ("tai", score.get("tai"), score.get("tai_total"), text("unit.tai", lang)),
        ("base_items", score.get("base_items"), score.get("base_points"), ""),
        ("fan", score.get("fan"), score.get("fan_total"), text("unit.fan", lang)),
    )
    for key, items, total, unit in rows:
        if items:
            grid.add_row(text(key, lang), _items_line(items, lang), f"= {total}{unit}")
    if grid.row_count:
        out.append(grid)
    points = score.get("points")
    fan = score.get("fan_total") or 0
    if ruleset == "jiaxing":
        line = text(
            "points_jiaxing",
            lang,
            base=base if base is not None else "?",
            tai=score.get("tai_total", 0),
            fan=fan,
            points=points,
        )
    elif score.get("raw") is None or score.get("base_points") is None:
        line = text("limit_wenling", lang, points=points)
    else:
        line = text(
            "points_wenling",
            lang,
            base_points=score.get("base_points"),
            fan=fan,
            raw=score.get("raw"),
            points=points,
        )
    out.append(Text(line, style="bold"))
    return out


def _payments_table(
    view: View,
    me: int | None,
    lang: str,
    result: Mapping[str, Any],
    score: Mapping[str, Any],
    totals: Sequence[int] | None,
) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column(text("player", lang), no_wrap=True)
    wl_totals = score.get("totals") if isinstance(score.get("totals"), Mapping) else None
    if wl_totals:
        table.add_column(text("wenling_totals", lang), justify="right")
    table.add_column(text("payments", lang), justify="right")
    if totals is not None:
        table.add_column(text("match_totals", lang), justify="right")
    payments = list(result.get("payments") or [0, 0, 0, 0])
    winds = view.get("seat_winds") or ["E", "S", "W", "N"]
    for seat in range(4):
        name = Text(seat_title(view, seat, me, lang), style=ME_STYLE if seat == me else "")
        status = seat_status(view, view["players"][seat], lang) if view.get("players") else None
        if status:
            name.append(" ")
            name.append_text(status)
        row: list[Text] = [name]
        if wl_totals:
            row.append(Text(str(wl_totals.get(winds[seat], ""))))
        row.append(signed_text(int(payments[seat])))
        if totals is not None:
            row.append(Text(str(totals[seat]), style="bold"))
        table.add_row(*row)
    return table


def render_all_hands(view: View, me: int | None, lang: str = "zh") -> Table:
    """Every hand of a finished hand (from the result), one line each."""
    result = view.get("result") or {}
    wilds = list(view.get("wilds") or [])
    table = Table(title=text("hands_revealed", lang), box=None, show_header=False,
                  title_justify="left", pad_edge=False)
    table.add_column(no_wrap=True)
    table.add_column()
    for seat, hand in enumerate(result.get("hands") or []):
        table.add_row(seat_title(view, seat, me, lang), revealed_hand_text(hand, wilds, lang))
    return table


def render_standings(totals: Sequence[int], me: int | None, lang: str = "zh") -> Table:
    """The final ranking of a match by total."""
    table = Table(title=text("final_standings", lang), box=box.SIMPLE_HEAD, title_justify="left",
                  show_edge=False, pad_edge=False)
    table.add_column(text("rank", lang), justify="right")
    table.add_column(text("player", lang))
    table.add_column(text("match_totals", lang), justify="right")
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    for rank, seat in enumerate(order, 1):
        style = ME_STYLE if seat == me else ""
        name = Text(seat_name(seat, me, lang), style=style)
        table.add_row(str(rank), name, signed_text(totals[seat]))
    return table
