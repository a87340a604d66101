"""Reading single key presses from a terminal or from a pipe.

On a terminal the reader switches to cbreak mode (keys arrive without Enter, no echo; Ctrl-C
still interrupts) and restores the terminal on exit. From a pipe or a file it reads one
character at a time, so ``printf '1 w' | baida play`` presses ``1``, Space and ``w``.

``read_key()`` returns one key: a printable character, ``ENTER`` (Return, whether the terminal
sends CR or LF), or the name of a special key parsed from its escape sequence (``LEFT``,
``RIGHT``, ``UP``, ``DOWN``, ``HOME``, ``END``, ``DELETE``, ``ESC``, ``BACKSPACE``); ``None`` at
the end of input. Unknown escape sequences come back whole (they start with ``\\x1b``).
"""

from __future__ import annotations

import codecs
import os
import select
import sys
from types import TracebackType
from typing import IO

ESCAPE_CHAR = "\x1b"
CTRL_C = "\x03"
CTRL_D = "\x04"

# key names (several characters, so never confused with a printable key)
ENTER = "\n"
SPACE = " "
LEFT, RIGHT, UP, DOWN = "left", "right", "up", "down"
HOME, END, DELETE = "home", "end", "delete"
ESC, BACKSPACE = "esc", "backspace"

_FINAL_KEYS = {"A": UP, "B": DOWN, "C": RIGHT, "D": LEFT, "H": HOME, "F": END}
_TILDE_KEYS = {"1": HOME, "7": HOME, "4": END, "8": END, "3": DELETE}
_PLAIN_KEYS = {"\r": ENTER, "\n": ENTER, "\x7f": BACKSPACE, "\b": BACKSPACE}
ESCAPE_WAIT = 0.05  # seconds to wait for the rest of an escape sequence on a terminal


def parse_escape(seq: str) -> str:
    """The name of the key an escape sequence stands for (the sequence itself if unknown).

    >>> parse_escape("\\x1b[D"), parse_escape("\\x1bOC"), parse_escape("\\x1b[1;5A")
    ('left', 'right', 'up')
    >>> parse_escape("\\x1b"), parse_escape("\\x1b[3~")
    ('esc', 'delete')
    """
    if seq == ESCAPE_CHAR:
        return ESC
    if len(seq) == 3 and seq[1] == "O" and seq[2] in _FINAL_KEYS:
        return _FINAL_KEYS[seq[2]]
    if len(seq) >= 3 and seq[1] == "[":
        final, params = seq[-1], seq[2:-1]
        if final in _FINAL_KEYS and all(c.isdigit() or c == ";" for c in params):
            return _FINAL_KEYS[final]
        if final == "~":
            return _TILDE_KEYS.get(params.split(";")[0], seq)
    return seq


class KeyReader:
    """One key at a time from ``stream`` (standard input by default)."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self._fd: int | None = None
        try:
            self._fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            self._fd = None
        self.is_tty = self._fd is not None and os.isatty(self._fd)
        self._saved: list | None = None  # termios attributes to restore
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._ahead: list[str] = []  # characters read while looking for an escape sequence

    def __enter__(self) -> KeyReader:
        if self.is_tty and self._fd is not None:
            import termios
            import tty

            try:
                self._saved = termios.tcgetattr(self._fd)
                tty.setcbreak(self._fd)
            except termios.error:
                self._saved = None
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.restore()

    def restore(self) -> None:
        """Give the terminal back as it was."""
        if self._saved is not None and self._fd is not None:
            import termios

            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def discard_typeahead(self) -> None:
        """Forget keys pressed before now (a terminal only: a pipe's keys are a script)."""
        if not self.is_tty or self._fd is None:
            return
        import termios

        self._ahead.clear()
        try:
            termios.tcflush(self._fd, termios.TCIFLUSH)
        except termios.error:
            pass

    def _read_char(self) -> str | None:
        if self._ahead:
            return self._ahead.pop(0)
        if self._fd is None:
            ch = self.stream.read(1)
            return ch or None
        while True:
            data = os.read(self._fd, 1)
            if not data:
                tail = self._decoder.decode(b"", final=True)
                return tail or None
            ch = self._decoder.decode(data)
            if ch:
                return ch

    def read_key(self) -> str | None:
        """The next key (see the module docstring); None at the end of input."""
        ch = self._read_char()
        if ch is None:
            return None
        if ch == CTRL_C:
            raise KeyboardInterrupt
        if ch == CTRL_D and self.is_tty:
            return None
        if ch == ESCAPE_CHAR:
            return parse_escape(self._escape_sequence())
        return _PLAIN_KEYS.get(ch, ch)

    def _more(self) -> str | None:
        """The next character if it belongs to the sequence being read, else None.

        On a terminal the rest of a sequence arrives at once (within ``ESCAPE_WAIT``); a key
        typed later is a key of its own. A pipe has no timing: what follows is read, and
        pushed back if it cannot continue the sequence."""
        if self.is_tty and self._fd is not None:
            if not select.select([self._fd], [], [], ESCAPE_WAIT)[0]:
                return None
        return self._read_char()

    def _escape_sequence(self) -> str:
        """Esc alone, or one whole sequence: CSI (Esc [ ... final), SS3 (Esc O x)."""
        ch = self._more()
        if ch is None:
            return ESCAPE_CHAR
        if ch not in "[O":
            self._ahead.insert(0, ch)  # Esc, then an ordinary key
            return ESCAPE_CHAR
        seq = ESCAPE_CHAR + ch
        if ch == "O":
            nxt = self._more()
            return seq + (nxt or "")
        while True:
            nxt = self._more()
            if nxt is None:
                return seq
            seq += nxt
            if "@" <= nxt <= "~":  # the final byte of a CSI sequence
                return seq
            if len(seq) > 16:  # not a key: give up rather than swallow the input
                return seq
