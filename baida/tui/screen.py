"""Where the terminal game is shown: a terminal redrawn whole, or a stream written line by line.

On a terminal every page (the table, a settlement, a help page, the list of hands) replaces the
previous one, and a change (a status line, the cursor) redraws the page in place: nothing
scrolls the table away. Written to a pipe or a file, a page is printed once and a change
prints only its note (the status line), so a transcript stays readable.

A page is a function of the number of rows its event log may take (``Page``); on a terminal
the log gets the rows the rest of the page leaves over.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console, RenderableType
from rich.text import Text

from .render import size_warning

Page = Callable[[int], RenderableType]  # log rows -> the page
STREAM_LOG_ROWS = 6  # the log of a page printed to a stream
MAX_LOG_ROWS = 12


class Screen:
    """Draws pages on ``console``."""

    def __init__(self, console: Console, lang: str = "zh") -> None:
        self.console = console
        self.lang = lang
        self.live = console.is_terminal

    def size(self) -> tuple[int, int]:
        size = self.console.size
        return size.width, size.height

    def warning(self) -> Text | None:
        """A line saying the terminal is too small for the table (None when it fits)."""
        return size_warning(*self.size(), self.lang) if self.live else None

    def show(self, page: Page) -> None:
        """Show ``page`` (a new one, or the current one changed)."""
        if not self.live:
            self.console.print(page(STREAM_LOG_ROWS))
            return
        height = self.size()[1]
        used = len(self.console.render_lines(page(0), pad=False))
        # the last row stays empty: the newline after the page must not scroll its top away
        rows = max(0, min(MAX_LOG_ROWS, height - 1 - used))
        self.console.clear()
        self.console.print(page(rows))

    def update(self, page: Page, note: RenderableType | None) -> None:
        """The current page changed: a terminal redraws it; a stream prints ``note`` alone."""
        if self.live:
            self.show(page)
        elif note is not None:
            self.console.print(note)

    def bell(self) -> None:
        if self.live:
            self.console.bell()
