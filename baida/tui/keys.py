"""Keys for the legal actions of one decision: a pure mapping, no terminal I/O.

``build_menu(legal, view)`` gives every legal action (JSON dicts, docs/engine.md) a key:

* discards by **position**: every tile of the hand as shown (wilds leftmost, the drawn tile
  last, apart) has a fixed key under it, ``1``-``9``, ``0``, then ``a b d e f g i j``; the
  keys never skip a tile, so the n-th tile from the left always answers to the same key;
* a **cursor**: ←/→ (Home/End) move it over the hand; Enter or Space discards the tile under
  it. It starts on the tile just drawn, so Enter alone is 摸切 (after a 吃/碰: the rightmost
  tile);
* ``w`` 和, ``p`` 碰, ``c`` 吃, ``k`` 杠 (明杠/暗杠/补杠), ``l`` 腊子, ``y`` 坚持, ``n`` 放弃;
* Enter / Space in a claim or 抢杠 window pass; at 三摊 they mean 坚持;
* **a win is never thrown away by accident**: while a win is offered, a key that would
  discard or pass does not act but asks (``Choice("confirm")``); only ``x`` then confirms it.
  Pressing Enter or Space again asks again, so a key held down cannot pass a win;
* ``q`` quit, ``?``/``h`` help, ``r`` the hands played so far. Several 吃 or 杠 choices open a
  numbered sub-menu (Esc goes back).

``menu.resolve(key)`` answers with a ``Choice``; an invalid key changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .i18n import text, tile_label
from .keyboard import BACKSPACE, END, ENTER, ESC, HOME, LEFT, RIGHT, SPACE
from .tiles import compact_label, sort_faces

POSITION_KEYS = "1234567890abdefgij"  # one per tile position: a Wenling hand holds 17
CONFIRM_KEY = "x"
QUIT_KEY = "q"
HISTORY_KEY = "r"
HELP_KEYS = ("?", "h")
GO_KEYS = (ENTER, SPACE)
SINGLE_KEYS = {"win": "w", "pon": "p", "lazi": "l", "continue": "y", "give_up": "n"}
GROUP_KEYS = {"chi": "c", "kong": "k"}
KONG_TYPES = ("mkong", "akong", "bukong")
ORDER = ("win", "lazi", "pon", "kong", "chi", "continue", "give_up", "pass")
GUARDED = ("discard", "pass")  # what would throw a win away

Action = dict[str, Any]


@dataclass(frozen=True)
class Choice:
    """What a key means: ``kind`` is action / menu / back / move / confirm / quit / help /
    history / invalid (``message`` says why, or what ``confirm`` asks)."""

    kind: str
    action: Action | None = None
    menu: Menu | None = None
    message: str = ""


@dataclass
class Entry:
    """One item of the prompt: a key, what it does, and the action or sub-menu behind it."""

    key: str
    label: str
    action: Action | None = None
    submenu: Menu | None = None


@dataclass
class Slot:
    """One tile of the hand as shown, and the discard it stands for (None: not allowed now)."""

    face: str
    key: str
    action: Action | None = None


@dataclass
class Menu:
    """The keys of one decision, with the cursor over the hand and a pending confirmation."""

    entries: list[Entry] = field(default_factory=list)
    slots: list[Slot] = field(default_factory=list)  # the hand in display order
    drawn: bool = False  # the last slot is the tile just drawn
    cursor: int | None = None  # index into slots
    pass_action: Action | None = None  # what Enter does when there is no hand to discard from
    pass_label: str = ""
    win_key: str | None = None  # the key that wins when a win is offered: w, or l for a 腊子
    pending: Action | None = None  # a guarded action waiting for CONFIRM_KEY
    lang: str = "zh"
    is_sub: bool = False

    # -- what the prompt shows --------------------------------------------------------------
    @property
    def win_offered(self) -> bool:
        """A 和 or a 腊子 (a win by its own key) is among the choices."""
        return self.win_key is not None

    @property
    def can_discard(self) -> bool:
        return any(s.action is not None for s in self.slots)

    def cursor_slot(self) -> Slot | None:
        if self.cursor is None or not self.slots:
            return None
        return self.slots[self.cursor]

    def keys(self) -> list[str]:
        """Every key that does something now (for the error message)."""
        out: list[str] = []
        discard = [s.key for s in self.slots if s.action is not None]
        if discard:
            out.append(discard[0] if len(discard) == 1 else f"{discard[0]}…{discard[-1]}")
            out.append("←/→")
        out += [e.key for e in self.entries]
        if self.can_discard or self.pass_action is not None:
            out.append(text("key.go", self.lang))
        if self.pending is not None:
            out.append(CONFIRM_KEY)
        if self.is_sub:
            out.append("Esc")
        return out

    # -- keys ---------------------------------------------------------------------------------
    def resolve(self, key: str) -> Choice:
        """The meaning of one key press; ``invalid`` (with a message) changes nothing."""
        pending, self.pending = self.pending, None
        if pending is not None and key == CONFIRM_KEY:
            return Choice("action", action=pending)
        if self.is_sub and key in (ESC, BACKSPACE):
            return Choice("back")
        if key in (LEFT, RIGHT, HOME, END) and self.can_discard:
            return self._move(key)
        if key in GO_KEYS:
            slot = self.cursor_slot()
            if slot is not None:
                return self._act(slot.action, slot.face)
            if self.pass_action is not None:
                return self._act(self.pass_action)
        if not self.is_sub:
            if key == QUIT_KEY:
                return Choice("quit")
            if key in HELP_KEYS:
                return Choice("help")
            if key == HISTORY_KEY:
                return Choice("history")
        for i, slot in enumerate(self.slots):
            if slot.key == key:
                choice = self._act(slot.action, slot.face)
                if choice.kind == "action":
                    self.cursor = i
                return choice
        for entry in self.entries:
            if entry.key == key:
                if entry.submenu is not None:
                    return Choice("menu", menu=entry.submenu)
                return Choice("action", action=entry.action)
        return self._invalid(key)

    def _move(self, key: str) -> Choice:
        last = len(self.slots) - 1
        at = self.cursor if self.cursor is not None else last
        self.cursor = {LEFT: max(0, at - 1), RIGHT: min(last, at + 1), HOME: 0, END: last}[key]
        return Choice("move")

    def _act(self, action: Action | None, face: str | None = None) -> Choice:
        if action is None:
            label = tile_label(face, self.lang)
            return Choice("invalid", message=text("cannot_discard", self.lang, tile=label))
        if self.win_offered and action["type"] in GUARDED:
            self.pending = action
            if action["type"] == "discard":
                what = text("guard.discard", self.lang, tile=tile_label(action["tile"], self.lang))
            else:
                what = text("guard.pass", self.lang)
            guard = "guard" if self.win_key == SINGLE_KEYS["win"] else "guard.lazi"
            message = text(guard, self.lang, what=what, key=CONFIRM_KEY)
            return Choice("confirm", action=action, message=message)
        return Choice("action", action=action)

    def _invalid(self, key: str) -> Choice:
        why = text("not_offered", self.lang) + "; " + text(
            "keys_are", self.lang, keys=" ".join(self.keys())
        )
        name = key_name(key, self.lang)
        return Choice("invalid", message=text("invalid_key", self.lang, key=name, why=why))


def key_name(key: str, lang: str = "zh") -> str:
    """A key as a player calls it: 'x', 回车/Enter, 空格/Space, ←, Esc."""
    names = {ENTER: "key.enter", SPACE: "key.space1"}
    if key in names:
        return text(names[key], lang)
    arrows = {LEFT: "←", RIGHT: "→", "up": "↑", "down": "↓", ESC: "Esc"}
    if key in arrows:
        return arrows[key]
    if len(key) > 1 and key.isalpha():
        return key.capitalize()  # Home, End, Delete, Backspace
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


def _hand_slots(menu: Menu, view: Mapping[str, Any], discards: dict[str, Action]) -> None:
    """One slot per tile shown, each with its position key; the cursor on the tile to 摸切."""
    seat = view.get("seat")
    if seat is None or view["players"][seat].get("concealed") is None:
        faces = sort_faces(discards, view.get("wilds") or [])
        drawn = None
    else:
        faces, drawn = display_order(view, seat)
        if drawn is not None:
            faces.append(drawn)
    menu.drawn = drawn is not None
    for i, face in enumerate(faces):
        key = POSITION_KEYS[i] if i < len(POSITION_KEYS) else ""
        menu.slots.append(Slot(face, key, discards.get(face)))
    allowed = [i for i, s in enumerate(menu.slots) if s.action is not None]
    if allowed:
        menu.cursor = allowed[-1]


def build_menu(legal: Sequence[Action], view: Mapping[str, Any], lang: str = "zh") -> Menu:
    """Keys for ``legal`` (the JSON of the legal actions) shown against ``view``."""
    menu = Menu(lang=lang)
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        kind = "kong" if action["type"] in KONG_TYPES else action["type"]
        by_type.setdefault(kind, []).append(action)
    winning = next((kind for kind in ("lazi", "win") if kind in by_type), None)
    menu.win_key = SINGLE_KEYS[winning] if winning else None

    discards = {a["tile"]: a for a in by_type.get("discard", [])}
    if discards:
        _hand_slots(menu, view, discards)

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
            label = text(kind, lang)
            if kind == "give_up":
                label = text("give_up_can_win" if gave_up_may_win(view) else "give_up_no_win", lang)
            menu.entries.append(Entry(SINGLE_KEYS[kind], label, action=actions[0]))
        else:
            entry = _group(actions, GROUP_KEYS[kind], text(kind, lang), lang, claimed)
            menu.entries.append(entry)
    if menu.pass_action is None and "continue" in by_type:  # 三摊: Enter keeps playing
        menu.pass_action = by_type["continue"][0]
        menu.pass_label = text("continue", lang)
    return menu


def gave_up_may_win(view: Mapping[str, Any]) -> bool:
    """Whether a seat that chose 放弃 may still win by self-draw at this table (by default
    放弃 means no win)."""
    return bool((view.get("options") or {}).get("gaveup_can_win"))
