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

from ..rulesets import Ruleset
from .i18n import count_of, item_name, text, tile_label
from .keys import gave_up_may_win
from .nonwinners import NonWinnerItems, wenling_nonwinners
from .render import (
    ME_STYLE,
    View,
    melds_text,
    seat_name,
    seat_status,
    seat_title,
    signed_text,
    wild_word,
)
from .ruleset import view_rules
from .tiles import grouped_text, tile_text, tiles_text


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
    out = grouped_text(concealed, lang, wilds=wilds)
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
    """The end of a hand: who won how, every scoring item, what the wilds stood for, the 承包
    shares paid, the Wenling non-winners' items, everyone's payment and the match totals."""
    result = view.get("result") or {}
    rules = view_rules(view)
    wilds = list(view.get("wilds") or [])
    items: list[RenderableType] = []
    title = text("settlement", lang)
    if hand_no is not None:
        title += " · " + text("hand_no", lang, n=hand_no)
    items.append(Text(title, style="bold underline"))
    score = result.get("score") or {}
    winner = result.get("winner")
    if result.get("outcome") != "win" or winner is None:
        items.append(Text(text(f"outcome.draw.{rules.name}", lang), style="bold yellow"))
    else:
        how = text(f"win_by.{result.get('win_by', 'self_draw')}", lang)
        tile = tile_label(result.get("win_tile"), lang) if result.get("win_tile") else ""
        who = seat_title(view, winner, me, lang)
        line = Text(text("winner_line", lang, who=who, how=how, tile=tile), style="bold green")
        if result.get("from") is not None and result.get("win_by") != "self_draw":
            line.append(" · " + text("winner_from", lang, who=seat_name(result["from"], me, lang)))
        if result.get("liable") is not None:
            liable = seat_name(result["liable"], me, lang)
            line.append(" · " + text("liable", lang, who=liable), style="bold red")
        items.append(line)
        hands = result.get("hands") or []
        if winner < len(hands):
            win_tile = result.get("win_tile")
            items.append(revealed_hand_text(hands[winner], wilds, lang, win_tile))
        items.extend(_score_lines(score, rules, lang, base))
        for line in (wilds_line(view, lang), shares_line(view, me, lang)):
            if line is not None:
                items.append(line)
    items.append(_payments_table(view, me, lang, result, score, totals))
    pool = result.get("carry_pool_after")
    if rules.carry_pool and pool is not None:
        items.append(Text(text("carry_after", lang, n=pool), style="magenta"))
    return Group(*items)


def wilds_line(view: View, lang: str = "zh") -> Text | None:
    """What each wild of the winning hand stood for (the scorer's chosen reading)."""
    score = (view.get("result") or {}).get("score") or {}
    faces = list(score.get("wilds") or [])
    if not faces:
        return None
    if lang == "zh":
        word = wild_word(view, lang)
    else:
        word = "The wild" if len(faces) == 1 else "The wilds"
    out = Text(text("wilds_stood", lang, wild=word, faces=""))
    out.append_text(tiles_text(faces, lang))
    return out


def paid_shares(view: View) -> dict[int, int | None]:
    """Seat -> the shares each loser of a Jiaxing win actually paid (payment / share); None
    where a payment is not a whole number of shares."""
    result = view.get("result") or {}
    share = (result.get("score") or {}).get("points") or 0
    winner = result.get("winner")
    if view_rules(view).unit != "tai" or winner is None or share <= 0:
        return {}
    out: dict[int, int | None] = {}
    for seat, amount in enumerate(result.get("payments") or []):
        if seat != winner:
            out[seat] = -amount // share if -amount % share == 0 else None
    return out


def shares_line(view: View, me: int | None, lang: str = "zh") -> Text | None:
    """Under 三摊: how many shares each loser actually paid (from the payments), and that a
    player who gave up (放弃) paid nothing and could not win (unless ``gaveup_can_win``)."""
    pairs = view.get("santan_pairs") or []
    shares = paid_shares(view)
    if not pairs or not shares:
        return None
    players = view.get("players") or []
    parts: list[str] = []
    for seat, n in shares.items():
        who = seat_name(seat, me, lang)
        if seat < len(players) and players[seat].get("gave_up") and not n:
            key = "shares_gave_up_can_win" if gave_up_may_win(view) else "shares_gave_up"
            parts.append(text(key, lang, who=who))
        elif n is not None:
            parts.append(text("shares", lang, who=who, n=count_of(n, "share", "shares", lang)))
    names = ", ".join("–".join(seat_name(s, me, lang) for s in pair) for pair in pairs)
    share = ((view.get("result") or {}).get("score") or {}).get("points")
    paid = " · ".join(parts)
    return Text(text("santan_paid", lang, pairs=names, share=share, paid=paid), style="red")


def is_limit_hand(score: Mapping[str, Any]) -> bool:
    """A Wenling 满贯 hand (腊子, 四风会齐): its item is listed with the value 0 and it scores
    the cap, not (和 + 20) × 2^番 (docs/scoring-api.md)."""
    return any(item.get("value") == 0 for item in score.get("fan") or [])


def _score_lines(
    score: Mapping[str, Any], rules: Ruleset, lang: str, base: int | None
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
    if rules.unit == "tai":  # 台 and 番 times the 底分
        line = text(
            "points_jiaxing",
            lang,
            base=base if base is not None else "?",
            tai=score.get("tai_total", 0),
            fan=fan,
            points=points,
        )
    elif is_limit_hand(score) or score.get("raw") is None or score.get("base_points") is None:
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
    """Every seat's payment and match total; in Wenling each seat's points too, with the
    non-winners' items."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column(text("player", lang), no_wrap=True)
    wl_totals = score.get("totals") if isinstance(score.get("totals"), Mapping) else None
    nonwinners = wenling_nonwinners(view) if wl_totals else {}
    if nonwinners:
        table.add_column(text("nonwinner_items", lang), overflow="fold")
    if wl_totals:
        table.add_column(text("wenling_totals", lang), justify="right", no_wrap=True)
    table.add_column(text("payments", lang), justify="right", no_wrap=True)
    if totals is not None:
        table.add_column(text("match_totals", lang), justify="right", no_wrap=True)
    payments = list(result.get("payments") or [0, 0, 0, 0])
    winds = view.get("seat_winds") or ["E", "S", "W", "N"]
    for seat in range(4):
        name = Text(seat_title(view, seat, me, lang), style=ME_STYLE if seat == me else "")
        status = seat_status(view, view["players"][seat], lang) if view.get("players") else None
        if status:
            name.append(" ")
            name.append_text(status)
        row: list[Text] = [name]
        if nonwinners:
            row.append(_nonwinner_text(nonwinners.get(seat), lang))
        if wl_totals:
            row.append(Text(str(wl_totals.get(winds[seat], ""))))
        row.append(signed_text(int(payments[seat])))
        if totals is not None:
            row.append(Text(str(totals[seat]), style="bold"))
        table.add_row(*row)
    return table


def _nonwinner_text(items: NonWinnerItems | None, lang: str) -> Text:
    """A non-winner's items: 和 items, then 番 items with their unit (the winner: empty)."""
    if items is None:
        return Text("")
    if items.liable:
        return Text(text("liable_zero", lang), style="red")
    fan_unit = text("unit.fan", lang)
    values: dict[str, list[str]] = {}  # an exposed special counts 和 and 番 under one name
    for name, value in items.base_items:
        values.setdefault(name, []).append(str(value))
    for name, value in items.fan_items:
        values.setdefault(name, []).append(f"{value}{fan_unit}" if value else "")
    parts = [f"{item_name(n, lang)} {'+'.join(v for v in vs if v)}".rstrip()
             for n, vs in values.items()]
    return Text(" · ".join(parts) if parts else "–", style="" if parts else "dim")


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
