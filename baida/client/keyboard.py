"""The terminal's keyboard for ``baida client``, read without holding up the event loop."""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import TextIO


class Quit(Exception):
    """The player typed ``q``: leave the table."""


class Keyboard:
    """Lines typed at the terminal, read by a thread of their own: the event loop never waits
    on ``input()``, so the table's messages keep arriving while the player thinks."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream
        self._lines: asyncio.Queue[str | None] | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None:
            return
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._lines = lines
        stream = self.stream if self.stream is not None else sys.stdin

        def read() -> None:
            while True:
                line = stream.readline()
                try:
                    loop.call_soon_threadsafe(lines.put_nowait, line.rstrip("\n") if line
                                              else None)
                except RuntimeError:  # the loop is gone: the client has finished
                    return
                if not line:
                    return

        self._thread = threading.Thread(target=read, name="baida-keyboard", daemon=True)
        self._thread.start()

    def forget(self) -> None:
        """Drop what was typed before now (it answered nothing on the screen)."""
        if self._lines is not None:
            while not self._lines.empty():
                if self._lines.get_nowait() is None:  # keep the end of the input
                    self._lines.put_nowait(None)
                    return

    async def line(self) -> str | None:
        """The next line typed (None at the end of the input)."""
        self.start()
        assert self._lines is not None
        line = await self._lines.get()
        if line is None:
            self._lines.put_nowait(None)  # the end stays the end
        return line
