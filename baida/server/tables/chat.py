"""Table chat: quick phrases, short texts, a per-person rate limit, and what a report of a
person quotes."""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Callable, Hashable
from typing import Protocol

from ...table import Refused
from ..store.reports import CHAT_LINES
from .protocol import CHAT_MAX

# id -> (中文, English); the client shows the phrase in the reader's language
PHRASES: dict[str, tuple[str, str]] = {
    "hello": ("大家好！", "Hello, everyone!"),
    "hurry": ("快点吧，等得花都谢了", "Hurry up, please!"),
    "nice": ("打得好！", "Well played!"),
    "lucky": ("手气真好", "What luck!"),
    "oops": ("哎呀，打错了", "Oops, wrong tile."),
    "again": ("再来一局？", "One more game?"),
    "thanks": ("谢谢", "Thank you."),
    "bye": ("再见", "Goodbye!"),
}

MIN_INTERVAL = 1.0  # seconds between two messages of one person
WINDOW = 30.0
PER_WINDOW = 10


def chat_text(text: str | None, phrase: str | None) -> tuple[str | None, str | None]:
    """A chat message's cleaned text, or its phrase id; ``Refused`` when neither is usable."""
    if (text is None) == (phrase is None):
        raise Refused("malformed", "a chat message has either text or phrase")
    if phrase is not None:
        if phrase not in PHRASES:
            raise Refused("malformed", "unknown phrase")
        return None, phrase
    assert text is not None
    clean = "".join(
        ch for ch in unicodedata.normalize("NFKC", text)
        if unicodedata.category(ch)[0] != "C"
    ).strip()
    if not clean:
        raise Refused("malformed", "an empty chat message")
    return clean[:CHAT_MAX], None


class RateLimit:
    """At most ``most`` times per key (a person, an address) in ``window`` seconds, none
    within ``gap`` seconds of the one before."""

    def __init__(self, now: Callable[[], float], window: float, most: int,
                 gap: float = 0.0) -> None:
        self._now = now
        self.window = window
        self.most = most
        self.gap = gap
        self._times: dict[Hashable, deque[float]] = {}

    def allow(self, user_id: Hashable) -> bool:
        """Whether ``user_id`` may now (if so, it is counted)."""
        now = self._now()
        times = self._times.setdefault(user_id, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if (times and now - times[-1] < self.gap) or len(times) >= self.most:
            return False
        times.append(now)
        if len(self._times) > 10_000:  # forget those with nothing in the window
            self._times = {u: t for u, t in self._times.items()
                           if t and now - t[-1] < self.window}
        return True


class ChatLimiter(RateLimit):
    """At most one message a second and ``PER_WINDOW`` in ``WINDOW`` seconds per person."""

    def __init__(self, now: Callable[[], float]) -> None:
        super().__init__(now, WINDOW, PER_WINDOW, MIN_INTERVAL)


REPORT_LINES = CHAT_LINES  # a person's last messages at the table, quoted in a report of them
REPORT_AGAIN = 600.0  # seconds before one person may report the same person again here
REPORTS_PER_HOUR = 10  # reports one account may file in an hour, at all of a node's tables


class HallCounts(Protocol):
    """Counts kept for every node of a hall (``ContainedDirectory.hit``); None: not now."""

    def hit(self, name: str, window: float) -> int | None: ...


class ReportQuota(RateLimit):
    """Reports one account may file in an hour at any of the hall's tables: a pair's limit is
    per table, so moving between tables, one person's accounts could file reports (rows on
    the operator's page, log lines) without end and bury the real ones. With ``shared`` (the
    directory of a hall of several nodes) the hour's reports are counted at every node."""

    def __init__(self, now: Callable[[], float]) -> None:
        super().__init__(now, 3600.0, REPORTS_PER_HOUR)
        self.shared: HallCounts | None = None

    def take(self, user_id: int) -> bool:
        """Whether ``user_id`` may file a report now (if so, it is counted)."""
        if not self.allow(user_id):
            return False
        if self.shared is None:
            return True
        count = self.shared.hit(f"reports:{user_id}", self.window)
        return count is None or count <= self.most


class ChatRecord:
    """A table's last messages by person (what a report quotes: the operator reads the words,
    not the reporter's account of them) and who reported whom when (one report a pair in
    ``REPORT_AGAIN`` seconds)."""

    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now
        self._lines: dict[int, deque[str]] = {}
        self._reported: dict[tuple[int, int], float] = {}

    def said(self, user_id: int, text: str | None, phrase: str | None) -> None:
        line = text if text is not None else f"[{phrase}]"
        self._lines.setdefault(user_id, deque(maxlen=REPORT_LINES)).append(line)

    def lines(self, user_id: int) -> list[str]:
        return list(self._lines.get(user_id, ()))

    def may_report(self, reporter: int, reported: int) -> bool:
        """Whether this report is taken (and, if so, it is counted from now)."""
        now = self._now()
        last = self._reported.get((reporter, reported))
        if last is not None and now - last < REPORT_AGAIN:
            return False
        self._reported[(reporter, reported)] = now
        return True
