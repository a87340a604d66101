"""The table as rich renderables, from a seat's view JSON (docs/engine.md, "View").

Pure functions: a view dict (and the keys of the decision, if any) in, renderables out; no
terminal, no engine objects. ``me`` is the seat the screen belongs to (None: a spectator).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .i18n import item_name, text, tile_label, wind_name
from .keys import Menu, display_order
from .tiles import compact_text, sort_faces, tile_text, tiles_text

View = Mapping[str, Any]
ME_STYLE = "bold cyan"
ACT_STYLE = "bold yellow"


def seat_name(seat: int | None, me: int | None, lang: str = "zh") -> str:
    """A seat named from ``me``'s chair: 你 / 下家 / 对家 / 上家 (You / Right / Across / Left)."""
    if seat is None:
        return ""
    if me is None:
        return text("seat.n", lang, n=seat + 1)
    rel = (seat - me) % 4
    return text(("seat.self", "seat.next", "seat.across", "seat.prev")[rel], lang)


def seat_title(view: View, seat: int, me: int | None, lang: str = "zh") -> str:
    """The name with the seat wind and a dealer mark: 下家 南, 你 东·庄."""
    wind = wind_name(view["seat_winds"][seat], lang)
    title = f"{seat_name(seat, me, lang)} {wind}"
    if seat == view.get("dealer"):
        title += "·" + text("dealer", lang)
    return title


def wild_word(view: View, lang: str = "zh") -> str:
    return text(f"wild.{view.get('ruleset', 'jiaxing')}", lang)


def render_header(
    view: View,
    lang: str = "zh",
    *,
    hand_no: int | None = None,
    hands_total: int | None = None,
) -> Text:
    """One line: ruleset, hand number, round wind, wall, indicator and wilds, pool, phase."""
    parts: list[Text] = [Text(text(f"ruleset_short.{view['ruleset']}", lang), style="bold")]
    if hand_no is not None:
        key = "hand_of" if hands_total else "hand_no"
        parts.append(Text(text(key, lang, n=hand_no, total=hands_total)))
    if view.get("round_wind"):
        parts.append(Text(text("round_wind", lang, wind=wind_name(view["round_wind"], lang))))
    parts.append(Text(text("wall", lang, n=view.get("wall_remaining", "?"))))
    wilds = list(view.get("wilds") or [])
    line = Text(text("indicator", lang, tile=tile_label(view.get("indicator"), lang)))
    line.append(f"  {wild_word(view, lang)} ")
    line.append_text(tiles_text(sort_faces(wilds), lang, wilds=wilds))
    parts.append(line)
    specials = list(view.get("specials") or [])
    if specials:
        sp = Text(text("specials", lang) + " ")
        sp.append_text(tiles_text(sort_faces(specials), lang, sep=_flower_sep(lang)))
        parts.append(sp)
    if view.get("ruleset") == "jiaxing" and view.get("carry_pool"):
        parts.append(Text(text("carry_pool", lang, n=view["carry_pool"]), style="magenta"))
    if view.get("sheng_phase"):
        parts.append(Text(text("sheng_phase", lang), style="bold red"))
    return Text(" · ").join(parts)


def _flower_sep(lang: str) -> str:
    """Flowers and specials run together in Chinese (白春兰), spaced in notation (P f1 f6)."""
    return "" if lang == "zh" else " "


def meld_text(meld: Mapping[str, Any] | str, lang: str = "zh") -> Text:
    """One meld: 碰 555万, 吃 345万, 暗杠 (face down for others)."""
    if isinstance(meld, str):  # the scorer's notation, "pon C"
        kind, _, tiles = meld.partition(" ")
        return Text(f"{text(kind, lang)} {tiles}")
    kind = meld.get("type", "")
    known = kind in ("chi", "pon", "mkong", "akong", "bukong")
    label = text(f"meld.{kind}" if known else "kong", lang)
    tiles = meld.get("tiles")
    out = Text(label + " ", style="dim")
    if not tiles:
        out.append("■■■■", style="dim")
        return out
    out.append_text(compact_text(sort_faces(tiles), lang))
    return out


def melds_text(player: Mapping[str, Any], lang: str = "zh") -> Text:
    """The melds and the flowers of a player on one line."""
    parts = [meld_text(m, lang) for m in player.get("melds") or []]
    flowers = list(player.get("flowers") or [])
    if flowers:
        ft = Text(text("flowers", lang) + " ", style="dim")
        ft.append_text(tiles_text(sort_faces(flowers), lang, sep=_flower_sep(lang)))
        parts.append(ft)
    return Text("  ").join(parts)


def discards_text(view: View, player: Mapping[str, Any], lang: str = "zh") -> Text:
    """A player's discards in order; claimed ones dimmed, the live last discard highlighted."""
    claimed = set(player.get("claimed") or [])
    discards = list(player.get("discards") or [])
    last = view.get("last_discard") or {}
    live_last = last.get("seat") == player.get("seat") and view.get("phase") in ("claim",)
    wilds = list(view.get("wilds") or [])
    out = Text()
    for i, face in enumerate(discards):
        if i:
            out.append(" ")
        extra = ""
        if i in claimed:
            extra = "dim strike"
        elif live_last and i == len(discards) - 1:
            extra = "reverse"
        out.append_text(tile_text(face, lang, wilds=wilds, extra_style=extra))
        if live_last and i == len(discards) - 1 and i not in claimed:
            out.append("←", style=ACT_STYLE)
    return out


def _seat_order(me: int | None) -> list[int]:
    """Turn order from the seat after ``me``, ending with ``me`` (at the bottom)."""
    start = 0 if me is None else (me + 1) % 4
    return [(start + i) % 4 for i in range(4)]


def seat_status(view: View, player: Mapping[str, Any], lang: str) -> Text:
    seat = player["seat"]
    out = Text()
    if player.get("gave_up"):
        out.append(text("gave_up", lang), style="red")
    pairs = [p for p in view.get("santan_pairs") or [] if seat in p]
    if pairs:
        if out:
            out.append(" ")
        out.append(text("chengbao", lang), style="bold red")
    return out


def santan_warnings(view: View, threshold: int) -> list[tuple[int, int, int]]:
    """Jiaxing claim counts one short of 三摊: (claimer, discarder, count), pairs not yet formed."""
    if view.get("ruleset") != "jiaxing" or threshold < 2:
        return []
    formed = {frozenset(p) for p in view.get("santan_pairs") or []}
    out = []
    for x, row in enumerate(view.get("claim_counts") or []):
        for y, count in enumerate(row):
            if count == threshold - 1 and frozenset((x, y)) not in formed:
                out.append((x, y, count))
    return out


def santan_warning_text(view: View, me: int, lang: str, threshold: int) -> Text | None:
    """The warning the Jiaxing client gives both players one claim before 三摊."""
    lines = [
        text("santan_warn", lang, x=seat_name(x, me, lang), y=seat_name(y, me, lang), n=n)
        for x, y, n in santan_warnings(view, threshold)
        if me in (x, y)
    ]
    return Text("\n".join(lines), style="bold red") if lines else None


def render_players(
    view: View, me: int | None, lang: str = "zh", totals: Sequence[int] | None = None
) -> Table:
    """Every seat: name and wind, match total, tile count, melds and flowers, discards."""
    table = Table(box=box.SIMPLE_HEAD, expand=True, pad_edge=False, show_edge=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column(text("player", lang), no_wrap=True)
    if totals is not None:
        table.add_column(text("total_short", lang), justify="right", no_wrap=True)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(text("melds", lang) + "·" + text("flowers", lang), ratio=2,
                     overflow="fold")
    table.add_column(text("discards", lang), ratio=3, overflow="fold")
    to_act = set(view.get("to_act") or [])
    for seat in _seat_order(me):
        player = view["players"][seat]
        marker = Text("▶", style=ACT_STYLE) if seat in to_act else Text("")
        name = Text(seat_title(view, seat, me, lang), style=ME_STYLE if seat == me else "")
        status = seat_status(view, player, lang)
        if status:
            name.append(" ")
            name.append_text(status)
        count = player.get("concealed_count")
        cells: list[Text] = [marker, name]
        if totals is not None:
            cells.append(signed_text(totals[seat]))
        cells += [
            Text(str(count) if count is not None else ""),
            melds_text(player, lang),
            discards_text(view, player, lang),
        ]
        table.add_row(*cells)
    return table


def render_hand(view: View, seat: int, lang: str = "zh", menu: Menu | None = None) -> Table:
    """The seat's concealed tiles, wilds leftmost, the drawn tile apart, keys underneath."""
    hand, drawn = display_order(view, seat)
    wilds = list(view.get("wilds") or [])
    keys = menu.discard_keys if menu is not None else {}
    grid = Table.grid(padding=(0, 1))
    faces: list[str | None] = list(hand)
    if drawn is not None:
        faces += [None, drawn]
    for _ in faces:
        grid.add_column(justify="center", no_wrap=True)
    top: list[Text] = []
    bottom: list[Text] = []
    for i, face in enumerate(faces):
        if face is None:  # the gap before the drawn tile
            top.append(Text(text("drawn", lang), style="dim"))
            bottom.append(Text(""))
            continue
        top.append(tile_text(face, lang, wilds=wilds))
        # one key per distinct face: under its last copy in the hand, and under the drawn tile
        in_hand = faces[i + 1 : len(hand)] if i < len(hand) else []
        show_key = face in keys and face not in in_hand
        bottom.append(Text(keys[face] if show_key else "", style=ACT_STYLE))
    grid.add_row(*top)
    if keys:
        grid.add_row(*bottom)
    return grid


def render_menu(menu: Menu, lang: str = "zh", wilds: Sequence[str] = ()) -> Text:
    """The prompt line: which keys do what (摸切 names the drawn tile, a wild marked)."""
    parts: list[Text] = []
    if menu.discards:
        keys = list(menu.discards)
        span = keys[0] if len(keys) == 1 else f"{keys[0]}-{keys[-1]}"
        parts.append(Text.assemble((span, ACT_STYLE), " " + text("discard", lang)))
    for entry in menu.entries:
        parts.append(Text.assemble((entry.key, ACT_STYLE), " " + entry.label))
    if menu.pass_action is not None:
        label = menu.pass_label or text("pass", lang)
        parts.append(Text.assemble((text("key.space", lang), ACT_STYLE), " " + label))
    elif menu.drawn_discard is not None:
        label = Text(text("key.space", lang), style=ACT_STYLE)
        word = text("discard_drawn" if menu.drawn_is_new else "discard", lang)
        label.append(" " + word + " ")
        label.append_text(tile_text(menu.drawn_discard["tile"], lang, wilds=wilds))
        parts.append(label)
    if menu.is_sub:
        parts.insert(0, Text(text("choose_one", lang)))
        parts.append(Text.assemble(("Esc", ACT_STYLE), " ←"))
    else:
        parts.append(Text.assemble(("?", ACT_STYLE), " " + text("help", lang)))
        parts.append(Text.assemble(("q", ACT_STYLE), " " + text("quit", lang)))
    return Text("   ").join(parts)


def prompt_title(view: View, me: int, lang: str = "zh", rob_tile: str | None = None) -> Text:
    """What the decision is about: your turn, a claim on a discard, 抢杠, 三摊.

    The view does not say which tile a 补杠 adds; ``rob_tile`` is that tile from the
    ``bukong`` event (else the kong maker's last 碰 is assumed)."""
    phase = view.get("phase")
    last = view.get("last_discard") or {}
    if phase == "claim" and last:
        who = seat_name(last.get("seat"), me, lang)
        msg = text("your_claim", lang, who=who, tile=tile_label(last.get("tile"), lang))
    elif phase == "rob":
        turn = view.get("turn")
        tile = rob_tile or _last_meld_tile(view, turn)
        msg = text("your_rob", lang, who=seat_name(turn, me, lang), tile=tile_label(tile, lang))
    elif phase == "santan":
        pair = (view.get("santan_pairs") or [[None, None]])[-1]
        msg = text(
            "santan_question",
            lang,
            a=seat_name(pair[0], me, lang),
            b=seat_name(pair[1], me, lang),
        )
    else:
        msg = text("your_turn", lang)
    return Text(msg, style="bold")


def _last_meld_tile(view: View, seat: int | None) -> str | None:
    if seat is None:
        return None
    melds = view["players"][seat].get("melds") or []
    for meld in reversed(melds):
        if meld.get("type") in ("bukong", "pon") and meld.get("tiles"):
            return meld["tiles"][0]
    return None


def render_table(
    view: View,
    me: int | None,
    lang: str = "zh",
    *,
    menu: Menu | None = None,
    log: Sequence[Text] = (),
    hand_no: int | None = None,
    hands_total: int | None = None,
    notice: RenderableType | None = None,
    rob_tile: str | None = None,
    totals: Sequence[int] | None = None,
    santan_threshold: int | None = None,
) -> Group:
    """The whole screen of one decision: header, seats, recent events, own hand and keys.

    ``santan_threshold`` (Jiaxing, when 三摊 is on) warns the player one claim before it."""
    items: list[RenderableType] = [
        render_header(view, lang, hand_no=hand_no, hands_total=hands_total),
        render_players(view, me, lang, totals),
    ]
    if santan_threshold is not None and me is not None:
        warning = santan_warning_text(view, me, lang, santan_threshold)
        if warning is not None:
            items.append(warning)
    if log:
        items.append(Text("\n").join(list(log)))
    if notice is not None:
        items.append(notice)
    if me is not None and view["players"][me].get("concealed") is not None:
        items.append(Text(""))
        items.append(render_hand(view, me, lang, menu))
    if menu is not None and me is not None:
        items.append(prompt_title(view, me, lang, rob_tile))
        items.append(render_menu(menu, lang, view.get("wilds") or []))
    return Group(*items)


def render_event(event: Mapping[str, Any], me: int | None, lang: str = "zh") -> Text | None:
    """One line of the event log for an event as the seat sees it; None for silent events."""
    kind = event.get("type")
    seat = event.get("seat")
    who = seat_name(seat, me, lang)
    tile = event.get("tile")
    label = tile_label(tile, lang) if tile else ""
    if kind == "hand_start":
        dice = "+".join(str(d) for d in event.get("dice") or [])
        dealer = seat_name(event.get("dealer", seat), me, lang)
        line = Text(text("ev.hand_start", lang, dealer=dealer, dice=dice), style="dim")
        tokens = event.get("carry_tokens") or []
        if tokens:
            names = ", ".join(item_name(str(t), lang) for t in tokens)
            line.append("  " + text("ev.carry_tokens", lang, names=names), style="magenta")
        return line
    if kind == "discard":
        return Text(text("ev.discard", lang, who=who, tile=label))
    if kind in ("chi", "pon", "mkong", "bukong"):
        return Text(text(f"ev.{kind}", lang, who=who, tile=label), style="bold")
    if kind == "akong":
        key = "ev.akong_tile" if tile else "ev.akong"
        return Text(text(key, lang, who=who, tile=label), style="bold")
    if kind == "flower":
        return Text(text("ev.flower", lang, who=who, tile=label), style="magenta")
    if kind == "draw" and seat == me and me is not None and tile:
        return Text(text("ev.draw_self", lang, tile=label), style="dim")
    if kind == "kong_robbed":
        by = seat_name(event.get("by"), me, lang)
        return Text(text("ev.kong_robbed", lang, by=by, who=who, tile=label), style="bold")
    if kind == "santan":
        pair = event.get("pair") or [None, None]
        a, b = (seat_name(s, me, lang) for s in pair[:2])
        return Text(text("ev.santan", lang, a=a, b=b), style="bold red")
    if kind == "santan_choice":
        choice = text("continue" if event.get("choice") == "continue" else "give_up", lang)
        return Text(text("ev.santan_choice", lang, who=who, choice=choice))
    if kind == "sheng_phase":
        return Text(text("sheng_announce", lang, n=event.get("remaining")), style="bold red")
    if kind == "win":
        how = text(f"win_by.{event.get('win_by', 'self_draw')}", lang)
        return Text(text("ev.win", lang, who=who, how=how, tile=label), style="bold green")
    return None


def signed_text(n: int) -> Text:
    """A score change: +36 green, -12 red, 0 dim."""
    style = "green" if n > 0 else "red" if n < 0 else "dim"
    return Text(f"{n:+d}" if n else "0", style=style)
