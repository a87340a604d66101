"""Helpers for the terminal game's tests: the real program in a pseudo-terminal, and a bot
that plays the person's seat by pressing keys.

``Terminal`` runs ``baida play`` in a pseudo-terminal of a given size and reads what it draws.
The game redraws a page by clearing the screen first, so the screen is the text after the
last clear, without its colours. ``BotKeys`` presses the keys a bot's choice maps to in the
current menu, so a test can find a seed and a key script that lead to a given situation.
"""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from baida.bots.policy import make_bot
from baida.tui.keyboard import ENTER, KeyReader
from baida.tui.keys import Menu

ROOT = Path(__file__).resolve().parent.parent
CLEAR = "\x1b[2J"
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\x07|\r")


class Terminal:
    """``baida play ARGS`` in a pseudo-terminal of ``width`` × ``height``."""

    def __init__(self, args: list[str], width: int = 80, height: int = 24) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env["TERM"] = "xterm-256color"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "baida.cli", "play", *args],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.raw = ""
        self._decoder = io.IncrementalNewlineDecoder(None, translate=False)

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def _read(self, timeout: float) -> bool:
        """Read what is there (waiting up to ``timeout``); False when nothing came."""
        if not select.select([self.master], [], [], timeout)[0]:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the program ended and closed the terminal
            return False
        if not data:
            return False
        self.raw += data.decode("utf-8", errors="replace")
        return True

    def screen(self) -> list[str]:
        """The rows of the current page (after the last clear), colours removed."""
        page = self.raw.rsplit(CLEAR, 1)[-1]
        return ANSI.sub("", page).split("\n")

    def text(self) -> str:
        return "\n".join(self.screen())

    def pages(self) -> int:
        """How many pages have been drawn so far."""
        return self.raw.count(CLEAR)

    def wait_for(
        self, wanted: str | Callable[[str], bool], timeout: float = 30.0, *, after: int = -1
    ) -> str:
        """Read until the current page shows ``wanted`` (a string or a test of the page);
        with ``after``, only a page drawn after the first ``after`` pages counts."""
        test = wanted if callable(wanted) else (lambda page: wanted in page)
        deadline = time.monotonic() + timeout
        while True:
            page = self.text()
            if self.pages() > after and test(page):
                return page
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {wanted!r}; the page:\n{page}")
            if not self._read(min(left, 0.5)) and self.proc.poll() is not None:
                self._read(0.1)
                page = self.text()
                if test(page):
                    return page
                raise AssertionError(f"the program ended ({self.proc.returncode}):\n{page}")

    def settle(self, quiet: float = 0.3) -> str:
        """Read until the program has drawn nothing for ``quiet`` seconds."""
        while self._read(quiet):
            pass
        return self.text()

    def finish(self, timeout: float = 30.0) -> int:
        """Wait for the program to end; its exit status."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.2)
        self.settle(0.1)
        return self.proc.wait(timeout=1)

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        os.close(self.master)


def key_for(menu: Menu, action: dict[str, Any]) -> str:
    """The keys that choose ``action`` (as offered, without a seat) in ``menu``."""
    kind = action["type"]
    if kind == "discard":
        slot = next(s for s in menu.slots if s.face == action["tile"] and s.action is not None)
        return slot.key
    if kind in ("pass", "continue"):
        return ENTER
    for entry in menu.entries:
        if entry.action == action:
            return entry.key
        if entry.submenu is not None:
            for sub in entry.submenu.entries:
                if sub.action == action:
                    return entry.key + sub.key
    raise AssertionError(f"{action} has no key in the menu")


class BotKeys(KeyReader):
    """Plays the person's seat of a ``Session`` with a bot by pressing keys; the keys pressed
    are in ``pressed``. ``stop(session)`` ends the input (None) when it returns True."""

    def __init__(self, bot: str = "efficient", stop: Callable[[Any], bool] | None = None) -> None:
        super().__init__(io.StringIO(""))
        self.policy = make_bot(bot, seed=0)
        self.session: Any = None
        self.stop = stop
        self.pressed: list[str] = []
        self.queue: list[str] = []

    def read_key(self) -> str | None:
        s = self.session
        if not self.queue:
            if self.stop is not None and self.stop(s):
                return None
            if s.menu is None:  # a settlement: go on
                self.queue = [ENTER]
            else:
                rnd = s.driver.round
                prompt = s.driver.prompts[s.me]
                choice = self.policy.choose(rnd.view(s.me), prompt.legal)
                offered = choice.to_json()
                del offered["seat"]
                keys = key_for(s.menu, offered)
                if s.menu.win_offered and offered["type"] in ("discard", "pass"):
                    keys += "x"
                self.queue = list(keys) if len(keys) > 1 and keys != ENTER else [keys]
        key = self.queue.pop(0)
        self.pressed.append(key)
        return key
