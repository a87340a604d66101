"""One terminal match: the engine's ``Match``, three bots, and a person at the keyboard.

The session owns the I/O (a rich ``Console`` and a ``KeyReader``); what it shows comes from
the pure renderers in ``render`` and the keys from ``keys``. With ``auto`` the person's seat
is played by a bot too and each hand's settlement is printed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

from ..engine import Action, EngineError, Event, Match, Round
from .i18n import text
from .keyboard import KeyReader
from .keys import Menu, build_menu
from .render import render_event, render_header, render_menu, render_table
from .settlement import render_all_hands, render_settlement, render_standings

LOG_LINES = 6
MAX_LOG_LINES = 12
# events worth a line when the match runs unattended
AUTO_EVENTS = ("santan", "santan_choice", "sheng_phase")


class EndOfInput(Exception):
    """Standard input ended before the match did."""


class QuitMatch(Exception):
    """The player chose to quit."""


def hand_seed(match_seed: str, number: int) -> bytes:
    """The 32-byte seed of hand ``number`` (1-based) of a match: a deterministic derivation."""
    return hashlib.sha256(f"baida-play/{match_seed}/hand/{number}".encode()).digest()


def bot_seed(match_seed: str, seat: int) -> int:
    """The seed of a bot's own tie-breaking choices in a match."""
    digest = hashlib.sha256(f"baida-play/{match_seed}/bot/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def load_bot(name: str, seed: int) -> Any:
    """A policy from the ``baida.bots`` registry (``choose(view, legal_actions)``)."""
    from ..bots.policy import make_bot

    return make_bot(name, seed=seed)


def fallback_action(view: dict[str, Any], legal: Sequence[Action]) -> Action:
    """A plain move: win, else keep playing (pass / 坚持), else discard the drawn tile."""
    by_type = {a.type: a for a in reversed(legal)}
    for kind in ("win", "lazi", "pass", "continue"):
        if kind in by_type:
            return by_type[kind]
    me = view["players"][view["seat"]]
    for action in legal:
        if action.type == "discard" and action.to_json()["tile"] == me.get("drawn"):
            return action
    discards = [a for a in legal if a.type == "discard"]
    return discards[-1] if discards else legal[0]


@dataclass
class Settings:
    """What the player asked for on the command line."""

    ruleset: str = "jiaxing"
    options: dict[str, Any] = field(default_factory=dict)
    seed: str = ""
    hands: int | None = None
    lang: str = "zh"
    auto: bool = False
    bot: str = "efficient"
    me: int = 0


class Session:
    """Plays one match to its end (or until the player quits or the input ends)."""

    def __init__(self, settings: Settings, console: Console, reader: KeyReader | None) -> None:
        self.s = settings
        self.console = console
        self.reader = reader
        self.lang = settings.lang
        self.match = Match(settings.ruleset, settings.options or None, hands=settings.hands)
        self.bots = [load_bot(settings.bot, bot_seed(settings.seed, seat)) for seat in range(4)]
        self.log: list[Text] = []
        self.notice: Text | None = None
        self.bot_failed = False
        self.rob_tile: str | None = None  # the tile of the latest 补杠 (what 抢杠 would take)
        options = self.match.options
        self.santan_threshold: int | None = (
            options.santan_threshold if getattr(options, "santan_enabled", False) else None
        )

    # -- the match -----------------------------------------------------------------------------
    def run(self) -> None:
        """Every hand until the match is over; the final standings at the end."""
        self._say_intro()
        while not self.match.over:
            number = self.match.hand_number + 1
            rnd = self.match.start_hand(hand_seed(self.s.seed, number))
            self.log = [self._intro_line()]
            self.notice = None
            self.rob_tile = None
            self.log_events(rnd.events)
            self.play_hand(rnd)
            self.show_settlement(rnd, number)
            if not self.match.over and not self.s.auto:
                self.wait_key()
        self.console.print()
        self.console.print(render_standings(self.match.totals, self.s.me, self.lang))
        over = text("match_over", self.lang) + " · " + text("seed_is", self.lang, seed=self.s.seed)
        self.console.print(Text(over, style="bold"))

    def play_hand(self, rnd: Round) -> None:
        """Bots answer first; the player is asked when only their decision is awaited."""
        while not rnd.ended:
            waiting = rnd.to_act
            bot_seats = [s for s in waiting if self.s.auto or s != self.s.me]
            seat = bot_seats[0] if bot_seats else self.s.me
            legal = rnd.legal_actions(seat)
            if bot_seats:
                self.apply(self.bot_action(rnd, seat, legal))
                continue
            action = self.ask(rnd, seat, legal)
            try:
                self.apply(action)
            except EngineError as exc:  # the round is unchanged: ask again
                self.log.append(Text(text("illegal", self.lang, why=exc), style="red"))

    def bot_action(self, rnd: Round, seat: int, legal: Sequence[Action]) -> Action:
        """The bot's choice; should a bot fail, a plain legal move keeps the game going."""
        view = rnd.view(seat).to_json()
        try:
            action = Action.from_json(self.bots[seat].choose(view, list(legal)))
            if action in legal:
                return action
            problem = f"chose an illegal action: {action}"
        except Exception as exc:  # a broken policy must not end the player's match
            problem = f"{type(exc).__name__}: {exc}"
        if not self.bot_failed:
            self.bot_failed = True
            self.console.print(Text(f"bot {self.s.bot} {problem}", style="red dim"))
        return fallback_action(view, legal)

    def apply(self, action: Action) -> None:
        self.log_events(self.match.apply(action))

    def log_events(self, events: Sequence[Event]) -> None:
        """Log lines (and banners) for events, as the player's seat sees them."""
        for event in events:
            seen = event.for_seat(self.s.me)
            if seen.get("type") == "bukong":
                self.rob_tile = seen.get("tile")
            line = render_event(seen, self.s.me, self.lang)
            if line is None:
                continue
            if seen.get("type") == "sheng_phase":
                self.notice = line  # a banner on the next screen; the header keeps saying it
            else:
                self.log.append(line)
            if self.s.auto and seen.get("type") in AUTO_EVENTS:
                self.console.print(line)

    # -- the player's decisions ------------------------------------------------------------------
    def draw_screen(self, rnd: Round, menu: Menu | None) -> None:
        """The whole table; on a terminal the event log fills the rows left over."""
        view = rnd.view(self.s.me).to_json()
        notice = None
        if self.notice is not None:
            notice = Text(f" {self.notice.plain} ", style="bold white on red")
            self.notice = None

        def screen(log_lines: int) -> RenderableType:
            return render_table(
                view,
                self.s.me,
                self.lang,
                menu=menu,
                log=self.log[-log_lines:] if log_lines else [],
                hand_no=self.match.hand_number + 1,
                hands_total=self.s.hands,
                notice=notice,
                rob_tile=self.rob_tile,
                totals=self.match.totals,
                santan_threshold=self.santan_threshold,
            )

        log_lines = LOG_LINES
        if self.console.is_terminal:
            used = len(self.console.render_lines(screen(0), pad=False))
            log_lines = max(2, min(MAX_LOG_LINES, self.console.size.height - used - 2))
            self.console.clear()
        self.console.print(screen(log_lines))

    def read_key(self) -> str:
        assert self.reader is not None
        key = self.reader.read_key()
        if key is None:
            raise EndOfInput
        return key

    def ask(self, rnd: Round, seat: int, legal: Sequence[Action]) -> Action:
        """Show the table and read keys until one names a legal action."""
        view = rnd.view(seat).to_json()
        root = build_menu([a.to_json() for a in legal], view, self.lang)
        self.draw_screen(rnd, root)
        menu = root
        while True:
            key = self.read_key()
            choice = menu.resolve(key)
            if choice.kind == "invalid":
                self.console.print(Text(choice.message, style="red"))
            elif choice.kind == "help":
                self.console.print(Text(text("help_text", self.lang), style="cyan"))
            elif choice.kind == "quit":
                self.confirm_quit()
                self.console.print(render_menu(menu, self.lang))
            elif choice.kind == "menu" and choice.menu is not None:
                menu = choice.menu
                self.console.print(render_menu(menu, self.lang))
            elif choice.kind == "back":
                menu = root
                self.console.print(render_menu(menu, self.lang))
            elif choice.action is not None:
                action = Action.from_json(choice.action)
                if action in legal:
                    return action
                self.console.print(Text(text("not_offered", self.lang), style="red"))

    def confirm_quit(self) -> None:
        self.console.print(Text(text("confirm_quit", self.lang), style="bold"))
        if self.read_key() in ("y", "Y"):
            raise QuitMatch

    def wait_key(self) -> None:
        self.console.print(Text(text("press_any", self.lang), style="dim"))
        key = self.read_key()
        if key in ("q", "Q"):
            self.confirm_quit()

    # -- output ----------------------------------------------------------------------------------
    def _intro_line(self) -> Text:
        parts = [
            text(f"ruleset.{self.s.ruleset}", self.lang),
            text("seed_is", self.lang, seed=self.s.seed),
            text("bots_are", self.lang, name=self.s.bot),
        ]
        if not self.s.auto:
            parts.append("? " + text("help", self.lang))
        return Text(" · ".join(parts), style="dim")

    def _say_intro(self) -> None:
        if self.s.auto:
            self.console.print(self._intro_line())

    def show_settlement(self, rnd: Round, number: int) -> None:
        view = rnd.view(self.s.me).to_json()
        if not self.s.auto:
            if self.console.is_terminal:
                self.console.clear()
            self.console.print(
                render_header(view, self.lang, hand_no=number, hands_total=self.s.hands)
            )
        else:
            self.console.rule(text("hand_no", self.lang, n=number))
        self.console.print(
            render_settlement(
                view, self.s.me, self.lang, totals=self.match.totals, hand_no=number,
                base=self.match.base,
            )
        )
        if not self.s.auto:
            self.console.print(render_all_hands(view, self.s.me, self.lang))

    def print_totals(self) -> None:
        """The standings so far (after a quit or the end of the input)."""
        if self.match.hand_number:
            self.console.print(render_standings(self.match.totals, self.s.me, self.lang))
