"""Keys for the legal actions of one decision: a pure mapping, no terminal I/O.

``build_menu(legal, view)`` gives every legal action (JSON dicts, docs/engine.md) a key:

* discards: ``1``-``9``, ``0``, then letters that name no action, one key per distinct face in
  the order the hand is shown (wilds leftmost, the drawn tile last);
* ``w`` 和, ``p`` 碰, ``c`` 吃, ``k`` 杠 (明杠/暗杠/补杠), ``l`` 腊子, ``y`` 坚持, ``n`` 放弃;
* Space / Enter: pass in a claim window; on one's own turn, discard the rightmost tile shown:
  the drawn tile (摸切), or after a 吃/碰 the last tile of the hand;
  at 三摊, 坚持;
* ``q`` quit, ``?`` help. Several 吃 or 杠 choices open a numbered sub-menu (Esc goes back).

``menu.resolve(key)`` answers with a ``Choice``; an invalid key changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .i18n import text
from .tiles import compact_label, sort_faces

DISCARD_KEYS = "1234567890abdefgijmorstuvxz"
PASS_KEYS = (" ", "\n", "\r")
ESCAPE = "\x1b"
QUIT_KEY = "q"
HELP_KEYS = ("?", "h")
SINGLE_KEYS = {"win": "w", "pon": "p", "lazi": "l", "continue": "y", "give_up": "n"}
GROUP_KEYS = {"chi": "c", "kong": "k"}
KONG_TYPES = ("mkong", "akong", "bukong")
ORDER = ("win", "lazi", "pon", "kong", "chi", "continue", "give_up", "pass")

Action = dict[str, Any]


@dataclass(frozen=True)
class Choice:
    """What a key means: ``kind`` is action / menu / back / quit / help / invalid."""

    kind: str
    action: Action | None = None
    menu: Menu | None = None
    message: str = ""


@dataclass
class Entry:
    """One line of the prompt: a key, what it does, and the action or sub-menu behind it."""

    key: str
    label: str
    action: Action | None = None
    submenu: Menu | None = None


@dataclass
class Menu:
    """The keys of one decision."""

    entries: list[Entry] = field(default_factory=list)
    discard_keys: dict[str, str] = field(default_factory=dict)  # face -> key
    discards: dict[str, Action] = field(default_factory=dict)  # key -> discard action
    pass_action: Action | None = None
    pass_label: str = ""
    drawn_discard: Action | None = None  # what Enter discards: the rightmost tile shown
    drawn_is_new: bool = False  # ... which is the tile just drawn (摸切)
    lang: str = "zh"
    is_sub: bool = False

    def keys(self) -> list[str]:
        """Every key that does something now (for the error message)."""
        out = list(self.discards) + [e.key for e in self.entries]
        if self.pass_action is not None or self.drawn_discard is not None:
            out.append(text("key.space", self.lang))
        if self.is_sub:
            out.append("Esc")
        return out

    def resolve(self, key: str) -> Choice:
        """The meaning of one key press; ``invalid`` (with a message) changes nothing."""
        if key == "":
            return Choice("invalid", message=text("not_offered", self.lang))
        if self.is_sub and key in (ESCAPE, "\x7f", "\b"):
            return Choice("back")
        if key in PASS_KEYS:
            if self.pass_action is not None:
                return Choice("action", action=self.pass_action)
            if self.drawn_discard is not None:
                return Choice("action", action=self.drawn_discard)
        if not self.is_sub:
            if key == QUIT_KEY:
                return Choice("quit")
            if key in HELP_KEYS:
                return Choice("help")
        if key in self.discards:
            return Choice("action", action=self.discards[key])
        for entry in self.entries:
            if entry.key == key:
                if entry.submenu is not None:
                    return Choice("menu", menu=entry.submenu)
                return Choice("action", action=entry.action)
        why = text("not_offered", self.lang) + "; " + text(
            "keys_are", self.lang, keys=" ".join(self.keys())
        )
        name = key_name(key, self.lang)
        return Choice("invalid", message=text("invalid_key", self.lang, key=name, why=why))


def key_name(key: str, lang: str = "zh") -> str:
    """A key as a player calls it: 'x', 回车/Enter, 空格/Space, Esc."""
    if key in ("\n", "\r"):
        return text("key.enter", lang)
    if key == " ":
        return text("key.space1", lang)
    if key.startswith(ESCAPE):
        return "Esc" if key == ESCAPE else repr(key)
    return repr(key) if not key.isprintable() else f"'{key}'"


def _kind_label(action: Action, lang: str, claimed: str | None = None) -> str:
    """A short description of one 吃/杠 option (a 吃 shows the whole run it makes)."""
    kind = action["type"]
    if kind == "chi":
        run = list(action.get("tiles") or []) + ([claimed] if claimed else [])
        return text("chi", lang) + " " + compact_label(sort_faces(run), lang)
    tile = action.get("tile") or (claimed if kind in ("pon", "mkong") else None)
    label = text(kind, lang)
    return f"{label} {compact_label([tile], lang)}" if tile else label


def _group(
    actions: list[Action], key: str, label: str, lang: str, claimed: str | None
) -> Entry:
    if len(actions) == 1:
        return Entry(key, _kind_label(actions[0], lang, claimed), action=actions[0])
    sub = Menu(lang=lang, is_sub=True)
    for i, action in enumerate(actions):
        sub.entries.append(Entry(str(i + 1), _kind_label(action, lang, claimed), action=action))
    return Entry(key, label + "…", submenu=sub)


def display_order(view: Mapping[str, Any], seat: int) -> tuple[list[str], str | None]:
    """The seat's concealed faces as shown: sorted hand (wilds first) and the drawn tile apart."""
    player = view["players"][seat]
    concealed = list(player.get("concealed") or [])
    drawn = player.get("drawn")
    if drawn is not None and drawn in concealed:
        concealed.remove(drawn)
    else:
        drawn = None
    return sort_faces(concealed, view.get("wilds") or []), drawn


def build_menu(legal: Sequence[Action], view: Mapping[str, Any], lang: str = "zh") -> Menu:
    """Keys for ``legal`` (the JSON of ``legal_actions(seat)``) shown against ``view``."""
    menu = Menu(lang=lang)
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        kind = "kong" if action["type"] in KONG_TYPES else action["type"]
        by_type.setdefault(kind, []).append(action)

    seat = view.get("seat")
    discards = {a["tile"]: a for a in by_type.get("discard", [])}
    if discards:
        faces: list[str] = list(discards)
        drawn = None
        shown: list[str] = []
        if seat is not None:
            hand, drawn = display_order(view, seat)
            shown = hand + ([drawn] if drawn else [])
            faces = [f for f in dict.fromkeys(shown) if f in discards]
            faces += [f for f in sort_faces(discards, view.get("wilds") or []) if f not in faces]
        for key, face in zip(DISCARD_KEYS, faces, strict=False):
            menu.discard_keys[face] = key
            menu.discards[key] = discards[face]
        if drawn is not None and drawn in discards:
            menu.drawn_discard = discards[drawn]
            menu.drawn_is_new = True
        elif shown and shown[-1] in discards:
            menu.drawn_discard = discards[shown[-1]]

    claimed = (view.get("last_discard") or {}).get("tile") if view.get("phase") == "claim" else None
    for kind in ORDER:
        actions = by_type.get(kind)
        if not actions:
            continue
        if kind == "pass":
            menu.pass_action = actions[0]
            menu.pass_label = text("pass", lang)
        elif kind == "pon":
            label = _kind_label(actions[0], lang, claimed)
            menu.entries.append(Entry(SINGLE_KEYS[kind], label, action=actions[0]))
        elif kind in SINGLE_KEYS:
            menu.entries.append(Entry(SINGLE_KEYS[kind], text(kind, lang), action=actions[0]))
        else:
            entry = _group(actions, GROUP_KEYS[kind], text(kind, lang), lang, claimed)
            menu.entries.append(entry)
    if menu.pass_action is None and "continue" in by_type:  # 三摊: Enter keeps playing
        menu.pass_action = by_type["continue"][0]
        menu.pass_label = text("continue", lang)
    return menu
