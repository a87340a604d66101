"""One terminal match: the table driver with three bots, and a person at the keyboard.

The match runs on the project's one game loop, ``baida.table.TableDriver``, on an instant
table: ``play_bots`` answers every bot decision (a failing bot is reported and the driver's
safe fallback plays for it), the player's seat receives its events and prompts through the
driver's outbox, and the player's choice goes back with ``driver.submit``. With ``auto`` a bot
plays the player's seat too and each hand's settlement is printed.

The session owns the I/O (a ``Screen`` and a ``KeyReader``); what it shows comes from the pure
renderers (``render``, ``settlement``, ``history``, ``help``) and the keys from ``keys``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from ..engine import Match
from ..table import BotTurn, Refused, SeatMode, TableDriver, TableTiming, bot_modes, play_bots
from .help import PAGE_COUNT, help_page
from .history import PastHand, render_hand_list, render_past_settlement
from .i18n import count_of, text
from .keyboard import BACKSPACE, DOWN, ENTER, ESC, LEFT, RIGHT, UP, KeyReader
from .keys import HELP_KEYS, HISTORY_KEY, QUIT_KEY, Menu, build_menu
from .recorder import RecordWriter
from .render import render_event, render_header, render_menu, render_table
from .screen import Screen
from .settlement import render_all_hands, render_settlement, render_standings

NOW = 0.0  # an instant table never waits: its clock does not matter
CLAIM_EVENTS = ("chi", "pon", "mkong", "bukong", "akong")
LAST_CLAIMS = 3
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

    def __init__(
        self,
        settings: Settings,
        console: Console,
        reader: KeyReader | None,
        recorder: RecordWriter | None = None,
    ) -> None:
        self.s = settings
        self.console = console
        self.reader = reader
        self.recorder = recorder
        self.lang = settings.lang
        self.me = settings.me
        self.screen = Screen(console, settings.lang)
        self.match = Match(settings.ruleset, settings.options or None, hands=settings.hands)
        modes = bot_modes(None if settings.auto else settings.me)
        self.driver = TableDriver(self.match, timing=TableTiming.instant(), modes=modes)
        self.driver.listeners = {settings.me}
        self.bots = [
            None if modes[seat] == SeatMode.PLAYER else load_bot(settings.bot, bot_seed(
                settings.seed, seat))
            for seat in range(4)
        ]
        self.log: list[Text] = []
        self.claims: list[dict[str, Any]] = []  # the last claims others made, newest last
        self.notice: Text | None = None
        self.past: list[PastHand] = []
        self.number = 0  # the hand being played (1-based)
        self.menu: Menu | None = None  # the decision being asked (scripted readers read it)
        self.bot_failed = False
        options = self.match.options
        self.santan_threshold: int | None = (
            options.santan_threshold if getattr(options, "santan_enabled", False) else None
        )

    # -- the match -----------------------------------------------------------------------------
    def run(self) -> None:
        """Every hand until the match is over; the final standings at the end."""
        self._say_intro()
        while not self.match.over:
            number = self.number = self.match.hand_number + 1
            self.log = [self._intro_line()]
            self.claims = []
            self.notice = None
            self.driver.start_hand(hand_seed(self.s.seed, number), NOW)
            self.play_hand()
            self.finish_hand(number)
        self.console.print()
        self.console.print(render_standings(self.match.totals, self.me, self.lang))
        over = text("match_over", self.lang) + " · " + text("seed_is", self.lang, seed=self.s.seed)
        self.console.print(Text(over, style="bold"))
        self.say_records()

    def play_hand(self) -> None:
        """Bots answer through the driver; the player answers the prompts it sends the seat."""
        while True:
            play_bots(self.driver, self.bots, now=NOW, on_decision=self._bot_decided)
            prompt = self.receive()
            if self.driver.hand_over:
                return
            if prompt is None:  # the driver waits for nobody: a bug, said plainly
                raise RuntimeError("the table is waiting, but not for the player")
            self.answer(prompt)

    def receive(self) -> dict[str, Any] | None:
        """Take the seat's messages from the driver: events for the log, the latest prompt."""
        prompt = None
        for _, message in self.driver.drain():
            if message["type"] == "events":
                self.log_events(message["events"])
            elif message["type"] == "prompt":
                prompt = message
        return prompt

    def _bot_decided(self, turn: BotTurn, seconds: float, problem: str) -> None:
        """A bot's answer failed (the driver played its safe fallback): say so once."""
        if not problem or self.bot_failed:
            return
        self.bot_failed = True
        line = Text(f"bot {self.s.bot} {problem}", style="red dim")
        self.log.append(line)
        if self.s.auto:
            self.console.print(line)

    def log_events(self, events: Sequence[dict[str, Any]]) -> None:
        """Log lines (and banners) for the events the player's seat sees."""
        for seen in events:
            kind = seen.get("type")
            if kind in CLAIM_EVENTS and seen.get("seat") != self.me:
                self.claims = [*self.claims, seen][-LAST_CLAIMS:]
            line = render_event(seen, self.me, self.lang)
            if line is None:
                continue
            if kind == "sheng_phase":
                self.notice = line  # a banner on the next screen; the header keeps saying it
            else:
                self.log.append(line)
            if self.s.auto and kind in AUTO_EVENTS:
                self.console.print(line)

    def finish_hand(self, number: int) -> None:
        """Keep the hand for the history, save its record, show the settlement."""
        rnd = self.driver.round
        assert rnd is not None
        past = PastHand(number, rnd.view(self.me).to_json(), list(self.match.totals),
                        self.match.base)
        self.past.append(past)
        if self.recorder is not None:
            try:
                self.recorder.save(number, rnd.record())
            except OSError as exc:
                why = Text(text("record_failed", self.lang, why=exc), style="red")
                self.console.print(why)
        if self.s.auto:
            self.console.rule(text("hand_no", self.lang, n=number))
            self.console.print(self._settlement(past))
            return
        self.wait_for_enter(past)

    # -- the player's decisions ------------------------------------------------------------------
    def answer(self, prompt: dict[str, Any]) -> None:
        """Ask the player until the driver takes an answer to ``prompt``."""
        rnd = self.driver.round
        assert rnd is not None
        view = rnd.view(self.me).to_json()
        menu = build_menu(prompt["actions"], view, self.lang)
        status: Text | None = None
        while True:
            action = self.ask(view, menu, status)
            try:
                self.driver.submit(self.me, prompt["seq"], action, NOW)
                return
            except Refused as exc:  # cannot happen for an offered action; never a traceback
                status = Text(text("illegal", self.lang, why=exc.message), style="red")

    def ask(self, view: dict[str, Any], root: Menu, status: Text | None = None) -> dict[str, Any]:
        """Show the table and read keys until one names an action (returned as offered)."""
        menu = root
        self.menu = menu
        notice, self.notice = self.notice, None
        banner = None if notice is None else Text(f" {notice.plain} ", style="bold white on red")

        def page(log_rows: int) -> RenderableType:
            return self._table(view, menu, log_rows, banner, status)

        self.screen.show(page)
        if root.win_offered:
            self.screen.bell()
        while True:
            choice = menu.resolve(self.read_key())
            note: RenderableType | None = None
            status = None
            if choice.kind == "action" and choice.action is not None:
                self.menu = None
                return choice.action
            if choice.kind in ("invalid", "confirm"):
                style = "bold yellow" if choice.kind == "confirm" else "red"
                status = note = Text(choice.message, style=style)
            elif choice.kind == "menu" and choice.menu is not None:
                menu = self.menu = choice.menu
                note = render_menu(menu, self.lang)
            elif choice.kind == "back":
                menu = self.menu = root
                note = render_menu(menu, self.lang)
            elif choice.kind == "move":
                note = render_menu(menu, self.lang, view.get("wilds") or [])
            elif choice.kind == "help":
                self.show_help()
                self.screen.show(page)
                continue
            elif choice.kind == "history":
                self.browse_history()
                self.screen.show(page)
                continue
            elif choice.kind == "quit":
                self.confirm_quit()
                note = render_menu(menu, self.lang)
            self.screen.update(page, note)

    def _table(
        self,
        view: dict[str, Any],
        menu: Menu | None,
        log_rows: int,
        notice: Text | None,
        status: Text | None,
    ) -> RenderableType:
        return render_table(
            view,
            self.me,
            self.lang,
            menu=menu,
            log=self.log[-log_rows:] if log_rows else [],
            hand_no=self.number,
            hands_total=self.s.hands,
            notice=notice,
            totals=self.match.totals,
            santan_threshold=self.santan_threshold,
            claims=self.claims,
            status=status,
            warning=self.screen.warning(),
        )

    def read_key(self) -> str:
        assert self.reader is not None
        key = self.reader.read_key()
        if key is None:
            raise EndOfInput
        return key

    def confirm_quit(self) -> None:
        self.console.print(Text(text("confirm_quit", self.lang), style="bold"))
        if self.read_key() in ("y", "Y"):
            raise QuitMatch

    # -- settlements, history, help ----------------------------------------------------------------
    def _settlement(self, past: PastHand) -> RenderableType:
        return render_settlement(
            past.view, self.me, self.lang, totals=past.totals, hand_no=past.number,
            base=past.base,
        )

    def wait_for_enter(self, past: PastHand) -> None:
        """The settlement stays until Enter; keys pressed before it appeared do not count."""
        assert self.reader is not None
        self.reader.discard_typeahead()
        status: Text | None = None

        def page(_: int) -> RenderableType:
            items: list[RenderableType] = [
                render_header(past.view, self.lang, hand_no=past.number,
                              hands_total=self.s.hands),
                self._settlement(past),
                render_all_hands(past.view, self.me, self.lang),
                Text(text("press_enter", self.lang), style="bold"),
            ]
            for line in (status, self.screen.warning()):
                if line is not None:
                    items.append(line)
            return Group(*items)

        self.screen.show(page)
        while True:
            key = self.read_key()
            status = None
            if key == ENTER:
                return
            if key in (QUIT_KEY, QUIT_KEY.upper()):
                self.confirm_quit()
            elif key == HISTORY_KEY:
                self.browse_history()
            elif key in HELP_KEYS:
                self.show_help()
            else:
                status = Text(text("enter_only", self.lang), style="yellow")
                self.screen.update(page, status)
                continue
            self.screen.show(page)

    def browse_history(self) -> None:
        """The list of finished hands; Enter shows one's settlement again."""
        cursor = len(self.past) - 1
        while True:
            rows = self.screen.size()[1] - 3 if self.screen.live else len(self.past)
            self.screen.show(
                lambda _, c=cursor, r=rows: render_hand_list(self.past, c, self.me, self.lang, r)
            )
            key = self.read_key()
            if not self.past or key in (ESC, BACKSPACE, HISTORY_KEY, QUIT_KEY):
                return
            if key in (UP, LEFT):
                cursor = max(0, cursor - 1)
            elif key in (DOWN, RIGHT):
                cursor = min(len(self.past) - 1, cursor + 1)
            elif key == ENTER:
                cursor = self.show_past(cursor)

    def show_past(self, index: int) -> int:
        """One past settlement; ←/→ go to the previous/next hand. Returns where it stopped."""
        while True:
            past = self.past[index]
            self.screen.show(lambda _, p=past: render_past_settlement(p, self.me, self.lang))
            key = self.read_key()
            if key == LEFT:
                index = max(0, index - 1)
            elif key == RIGHT:
                index = min(len(self.past) - 1, index + 1)
            elif key in (ENTER, ESC, BACKSPACE, QUIT_KEY):
                return index

    def show_help(self) -> None:
        """The help pages: ←/→ turn them; any other key goes back. A stream gets them all."""
        if not self.screen.live:
            for number in range(PAGE_COUNT):
                self.console.print(help_page(number, self.lang))
            return
        number = 0
        while True:
            self.screen.show(lambda _, n=number: help_page(n, self.lang))
            key = self.read_key()
            if key in (LEFT, RIGHT, " "):
                number = (number + (-1 if key == LEFT else 1)) % PAGE_COUNT
                continue
            return

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

    def print_totals(self) -> None:
        """The standings so far (after a quit or the end of the input)."""
        if self.match.hand_number:
            self.console.print(render_standings(self.match.totals, self.me, self.lang))
        self.say_records()

    def say_records(self) -> None:
        if self.recorder is not None and self.recorder.saved:
            n = len(self.recorder.saved)
            what = count_of(n, "hand record", "hand records", self.lang)
            line = text("records_saved", self.lang, n=what, dir=self.recorder.directory)
            self.console.print(Text(line, style="dim"), soft_wrap=True)
