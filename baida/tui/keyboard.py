"""Reading single key presses from a terminal or from a pipe.

On a terminal the reader switches to cbreak mode (keys arrive without Enter, no echo; Ctrl-C
still interrupts) and restores the terminal on exit. From a pipe or a file it reads one
character at a time, so ``printf '1 w' | baida play`` presses ``1``, Space and ``w``.
``read_key()`` returns ``None`` at the end of input.
"""

from __future__ import annotations

import codecs
import os
import select
import sys
from types import TracebackType
from typing import IO

ESCAPE = "\x1b"
CTRL_C = "\x03"
CTRL_D = "\x04"


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

    def _read_char(self) -> str | None:
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
        """The next key: one character, or a whole escape sequence (arrows); None at EOF."""
        ch = self._read_char()
        if ch is None:
            return None
        if ch == CTRL_C:
            raise KeyboardInterrupt
        if ch == CTRL_D and self.is_tty:
            return None
        if ch == ESCAPE and self.is_tty:
            return self._escape_sequence()
        return ch

    def _pending(self) -> bool:
        """Whether another byte arrives at once (the rest of an escape sequence)."""
        if self._fd is None:
            return False
        return bool(select.select([self._fd], [], [], 0.02)[0])

    def _escape_sequence(self) -> str:
        """Esc alone, or one whole sequence: CSI (Esc [ ... final), SS3 (Esc O x), Alt+key."""
        seq = ESCAPE
        if not self._pending():
            return seq
        ch = self._read_char() or ""
        seq += ch
        if ch == "O":
            return seq + (self._read_char() or "")
        if ch != "[":
            return seq
        while self._pending():
            ch = self._read_char()
            if ch is None:
                break
            seq += ch
            if "@" <= ch <= "~":  # the final byte of a CSI sequence
                break
        return seq
