"""The table as rich renderables, from a seat's view JSON (docs/engine.md, "View").

Pure functions: a view dict (and the keys of the decision, if any) in, renderables out; no
terminal, no engine objects. ``me`` is the seat the screen belongs to (None: a spectator).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .i18n import (
    item_name,
    mid_sentence,
    pair_names,
    possessive,
    text,
    tile_label,
    times,
    wind_name,
)
from .keys import SINGLE_KEYS, Menu, display_order, gave_up_may_win
from .ruleset import view_rules
from .tiles import compact_text, sort_faces, tile_text, tiles_text

View = Mapping[str, Any]
ME_STYLE = "bold cyan"
ACT_STYLE = "bold yellow"
WIN_STYLE = "bold white on green"
TOTAL_WIDTH = 6  # the match total in a seat's row: "+1234"
MIN_WIDTH, MIN_HEIGHT = 80, 24  # the terminal the table is laid out for


def seat_name(seat: int | None, me: int | None, lang: str = "zh") -> str:
    """A seat named from ``me``'s chair: 你 / 下家 / 对家 / 上家 (You / Right / Across / Left)."""
    if seat is None:
        return ""
    if me is None:
        return text("seat.n", lang, n=seat + 1)
    rel = (seat - me) % 4
    return text(("seat.self", "seat.next", "seat.across", "seat.prev")[rel], lang)


def seat_title(
    view: View, seat: int, me: int | None, lang: str = "zh", *, short: bool = False
) -> str:
    """The name with the seat wind and a dealer mark: 下家 南, 你 东·庄, Right South.

    ``short`` (the table's rows) writes English winds by their letter: Right S·dealer."""
    letter = view["seat_winds"][seat]
    wind = letter if short and lang != "zh" else wind_name(letter, lang)
    title = f"{seat_name(seat, me, lang)} {wind}"
    if seat == view.get("dealer"):
        title += "·" + text("dealer", lang)
    return title


def wild_word(view: View, lang: str = "zh") -> str:
    return text(f"wild.{view_rules(view).name}", lang)


def render_header(
    view: View,
    lang: str = "zh",
    *,
    hand_no: int | None = None,
    hands_total: int | None = None,
) -> Text:
    """One line: ruleset, hand number, round wind, wall, indicator and wilds, pool, phase."""
    parts: list[Text] = [Text(text(f"ruleset_short.{view['ruleset']}", lang), style="bold")]
    if (view.get("options") or {}).get("allow_chi") is False:
        parts[0].append(" " + text("no_chi", lang), style="bold magenta")
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
        if lang == "zh":
            sp.append_text(tiles_text(sort_faces(specials), lang, sep=""))
        else:
            sp.append(compact_flowers(sort_faces(specials)), style="magenta")
        parts.append(sp)
    if view_rules(view).carry_pool and view.get("carry_pool"):
        parts.append(Text(text("carry_pool", lang, n=view["carry_pool"]), style="magenta"))
    if view.get("sheng_phase"):
        parts.append(Text(text("sheng_phase", lang), style="bold red"))
    return Text(" · ").join(parts)


def _flower_sep(lang: str) -> str:
    """Flowers, specials and discards run together in Chinese (白春兰, 1万东), spaced in
    notation (P f1 f6, 1m E)."""
    return "" if lang == "zh" else " "


def compact_flowers(faces: Sequence[str]) -> str:
    """Specials in notation with runs of flowers merged: 'P f1-f8', 'C F P f5-f8'."""
    out: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if run:
            out.append(f"f{run[0]}" if len(run) == 1 else f"f{run[0]}-f{run[-1]}")
            run.clear()

    for face in faces:
        if face.startswith("f") and face[1:].isdigit():
            n = int(face[1:])
            if run and n != run[-1] + 1:
                flush()
            run.append(n)
        else:
            flush()
            out.append(face)
    flush()
    return " ".join(out)


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
            out.append(_flower_sep(lang))  # Chinese labels end in a character of their own
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
    """Claim counts one short of 三摊: (claimer, discarder, count), pairs not yet formed."""
    if not view_rules(view).santan or threshold < 2:
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
    lines = []
    for x, y, n in santan_warnings(view, threshold):
        if me not in (x, y):
            continue
        claimer, discarder = seat_name(x, me, lang), seat_name(y, me, lang)
        lines.append(text(
            "santan_warn", lang, x=claimer, whose=possessive(discarder, lang), times=times(n, lang),
            pair=pair_names(claimer, discarder, lang, start=False),
        ))
    return Text("\n".join(lines), style="bold red") if lines else None


def _seat_line(
    view: View, seat: int, me: int | None, lang: str, name_width: int,
    totals: Sequence[int] | None,
) -> Text:
    """A seat's first line: turn marker, name and status, match total, melds and flowers."""
    player = view["players"][seat]
    to_act = seat in (view.get("to_act") or [])
    line = Text("▶ " if to_act else "  ", style=ACT_STYLE)
    name = seat_label(view, seat, me, lang)
    line.append_text(name)
    line.append(" " * (name_width - name.cell_len))
    if totals is not None:
        total = signed_text(totals[seat])
        line.append(" " * max(1, TOTAL_WIDTH - total.cell_len))
        line.append_text(total)
    melds = melds_text(player, lang)
    if melds:
        line.append("  ")
        line.append_text(melds)
    return line


def seat_label(view: View, seat: int, me: int | None, lang: str) -> Text:
    """The seat's name as the table's rows show it, with 放弃 / 承包 after it."""
    name = Text(seat_title(view, seat, me, lang, short=True), style=ME_STYLE if seat == me else "")
    status = seat_status(view, view["players"][seat], lang)
    if status:
        name.append(" ")
        name.append_text(status)
    return name


def _discard_line(view: View, seat: int, lang: str) -> Text:
    """A seat's second line: tiles in hand, then the discards (they may fold at the edge)."""
    player = view["players"][seat]
    count = player.get("concealed_count")
    line = Text("    ")
    if count is not None:
        line.append(text("in_hand", lang, n=count), style="dim")
        line.append(" ")
    line.append_text(discards_text(view, player, lang))
    return line


def render_players(
    view: View, me: int | None, lang: str = "zh", totals: Sequence[int] | None = None
) -> Group:
    """Every seat on two lines: name, total, melds and flowers (one line); hand size, discards."""
    order = _seat_order(me)
    width = max(seat_label(view, seat, me, lang).cell_len for seat in order)
    lines: list[RenderableType] = []
    for seat in order:
        lines.append(_seat_line(view, seat, me, lang, width, totals))
        lines.append(_discard_line(view, seat, lang))
    return Group(*lines)


def render_claims(claims: Sequence[Mapping[str, Any]], me: int | None, lang: str = "zh") -> Text:
    """The last claims (吃/碰/杠 events) others made, newest last, on one line."""
    out = Text(text("last_claims", lang) + ": ", style="dim")
    for i, event in enumerate(claims):
        if i:
            out.append(" · ", style="dim")
        kind = event.get("type", "")
        source = event.get("from")
        src = ""
        if kind in ("chi", "pon", "mkong") and source is not None:
            name = seat_name(source, me, lang)
            src = possessive(name, lang) if lang == "zh" else f" from {mid_sentence(name, lang)}"
        tile = event.get("tile")
        out.append(text(
            "claim_item", lang, who=seat_name(event.get("seat"), me, lang),
            kind=text(f"meld.{kind}", lang), tile=tile_label(tile, lang) if tile else "", src=src,
        ), style="bold")
    return out


def render_hand(view: View, seat: int, lang: str = "zh", menu: Menu | None = None) -> Table:
    """The seat's concealed tiles, wilds leftmost, the drawn tile apart; under every tile its
    key, and the cursor ▲ under the tile Enter discards."""
    hand, drawn = display_order(view, seat)
    wilds = list(view.get("wilds") or [])
    slots = menu.slots if menu is not None else []
    grid = Table.grid(padding=(0, 1))
    faces: list[str | None] = list(hand)
    if drawn is not None:
        faces += [None, drawn]
    for _ in faces:
        grid.add_column(justify="center", no_wrap=True)
    top: list[Text] = []
    keys: list[Text] = []
    marks: list[Text] = []
    cursor = menu.cursor if menu is not None else None
    index = 0  # position among the tiles (the gap before the drawn tile is no tile)
    for face in faces:
        if face is None:
            top.append(Text(text("drawn", lang), style="dim"))
            keys.append(Text(""))
            marks.append(Text(""))
            continue
        extra = "reverse" if cursor == index else ""
        top.append(tile_text(face, lang, wilds=wilds, extra_style=extra))
        slot = slots[index] if index < len(slots) else None
        if slot is not None:
            keys.append(Text(slot.key, style=ACT_STYLE if slot.action is not None else "dim"))
        else:
            keys.append(Text(""))
        marks.append(Text("▲", style=ACT_STYLE) if cursor == index else Text(""))
        index += 1
    grid.add_row(*top)
    if slots:
        grid.add_row(*keys)
    if cursor is not None:
        grid.add_row(*marks)
    return grid


def render_menu(menu: Menu, lang: str = "zh", wilds: Sequence[str] = ()) -> Text:
    """The prompt line: which keys do what (Enter names the tile under the cursor)."""
    parts: list[Text] = []
    keys = [s.key for s in menu.slots if s.action is not None]
    if keys:
        span = keys[0] if len(keys) == 1 else f"{keys[0]}…{keys[-1]}"
        parts.append(Text.assemble((span, ACT_STYLE), " " + text("discard", lang)))
        parts.append(Text.assemble(("←/→", ACT_STYLE), " " + text("cursor_keys", lang)))
        slot = menu.cursor_slot()
        if slot is not None:
            drawn_here = menu.drawn and menu.cursor == len(menu.slots) - 1
            label = Text(text("key.go_short", lang), style=ACT_STYLE)
            label.append(" " + text("discard_drawn" if drawn_here else "discard_at", lang) + " ")
            label.append_text(tile_text(slot.face, lang, wilds=wilds))
            parts.append(label)
    for entry in menu.entries:
        parts.append(Text.assemble((entry.key, ACT_STYLE), " " + entry.label))
    if menu.pass_action is not None and not keys:
        label = menu.pass_label or text("pass", lang)
        parts.append(Text.assemble((text("key.go", lang), ACT_STYLE), " " + label))
    if menu.is_sub:
        parts.insert(0, Text(text("choose_one", lang)))
        parts.append(Text.assemble(("Esc", ACT_STYLE), " ←"))
    else:
        parts.append(Text.assemble(("?", ACT_STYLE), " " + text("help", lang)))
        parts.append(Text.assemble(("r", ACT_STYLE), " " + text("history", lang)))
        parts.append(Text.assemble(("q", ACT_STYLE), " " + text("quit", lang)))
    return Text("  ").join(parts)


def prompt_title(view: View, me: int, lang: str = "zh", menu: Menu | None = None) -> Text:
    """What the decision is about: your turn, a claim on a discard, 抢杠, 三摊; a banner when
    a win is offered."""
    phase = view.get("phase")
    last = view.get("last_discard") or {}
    win = menu is not None and menu.win_offered
    if phase == "claim" and last:
        who = seat_name(last.get("seat"), me, lang)
        tile = tile_label(last.get("tile"), lang)
        if win:
            msg = text("win_offer.claim", lang, whose=possessive(who, lang), tile=tile)
        else:
            msg = text("your_claim", lang, who=who, tile=tile)
    elif phase == "rob":
        robbable = view.get("robbable") or {}
        maker = robbable.get("seat", view.get("turn"))
        tile = tile_label(robbable.get("tile") or _last_meld_tile(view, maker), lang)
        who = seat_name(maker, me, lang)
        if win:
            msg = text("win_offer.rob", lang, whose=possessive(who, lang), tile=tile)
        else:
            msg = text("your_rob", lang, who=who, tile=tile)
    elif phase == "santan":
        pair = (view.get("santan_pairs") or [[None, None]])[-1]
        a, b = (seat_name(s, me, lang) for s in pair[:2])
        gave_up = "gave_up_self_draw" if gave_up_may_win(view) else "gave_up_no_win"
        msg = text("santan_question", lang, pair=pair_names(a, b, lang), win=text(gave_up, lang))
    elif win and menu is not None and menu.win_key == SINGLE_KEYS["lazi"]:
        msg = text("win_offer.lazi", lang)
    elif win:
        drawn = view["players"][me].get("drawn")
        msg = text("win_offer.turn", lang, tile=tile_label(drawn, lang) if drawn else "")
    else:
        msg = text("your_turn", lang)
    return Text(msg, style=WIN_STYLE if win else "bold")


def _last_meld_tile(view: View, seat: int | None) -> str | None:
    if seat is None:
        return None
    melds = view["players"][seat].get("melds") or []
    for meld in reversed(melds):
        if meld.get("type") in ("bukong", "pon") and meld.get("tiles"):
            return meld["tiles"][0]
    return None


def size_warning(width: int, height: int, lang: str = "zh") -> Text | None:
    """A line saying the terminal is smaller than the table needs (None when it fits)."""
    if width >= MIN_WIDTH and height >= MIN_HEIGHT:
        return None
    return Text(
        text("too_small", lang, w=width, h=height, min_w=MIN_WIDTH, min_h=MIN_HEIGHT),
        style="bold white on red",
    )


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
    totals: Sequence[int] | None = None,
    santan_threshold: int | None = None,
    claims: Sequence[Mapping[str, Any]] = (),
    status: Text | None = None,
    warning: Text | None = None,
) -> Group:
    """The whole screen of one decision: header, seats, last claims, recent events, own hand
    with its keys, the prompt and a status line (why a key did nothing, what it asks).

    ``santan_threshold`` (Jiaxing, when 三摊 is on) warns the player one claim before it;
    ``warning`` (a too-small terminal) goes last, where a page too tall still shows it."""
    items: list[RenderableType] = [
        render_header(view, lang, hand_no=hand_no, hands_total=hands_total)
    ]
    items.append(render_players(view, me, lang, totals))
    if claims:
        items.append(render_claims(claims, me, lang))
    if santan_threshold is not None and me is not None:
        santan = santan_warning_text(view, me, lang, santan_threshold)
        if santan is not None:
            items.append(santan)
    if log:
        items.append(Text("\n").join(list(log)))
    if notice is not None:
        items.append(notice)
    if me is not None and view["players"][me].get("concealed") is not None:
        items.append(render_hand(view, me, lang, menu))
    if menu is not None and me is not None:
        items.append(prompt_title(view, me, lang, menu))
        items.append(render_menu(menu, lang, view.get("wilds") or []))
    if status is not None:
        items.append(status)
    if warning is not None:
        items.append(warning)
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
        whose = possessive(who, lang)
        return Text(text("ev.kong_robbed", lang, by=by, whose=whose, tile=label), style="bold")
    if kind == "santan":
        pair = event.get("pair") or [None, None]
        a, b = (seat_name(s, me, lang) for s in pair[:2])
        return Text(text("ev.santan", lang, pair=pair_names(a, b, lang)), style="bold red")
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
