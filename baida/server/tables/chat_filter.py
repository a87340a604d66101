"""The operator's list of words the table chat does not show: each one found in a message is
masked with ``*`` for everyone, whatever the case, the width (ｆｕ, ＦＵ) or the spaces and
punctuation put between its characters (f.u, f u); a report still quotes what was written.
``ChatWordList`` reads the list's file again when it changes."""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path

from ..ops.logs import fields

log = logging.getLogger(__name__)

MASK = "*"
WORDS_MAX = 20_000  # words in one list
WORD_MAX = 40  # characters of one word


class ChatFilterError(ValueError):
    """A word list that cannot be used, and why."""


def _fold(ch: str) -> str:
    """One character as the filter compares it: width and case folded."""
    return unicodedata.normalize("NFKC", ch).casefold()


def _between(ch: str) -> bool:
    """A character put between or over a word's letters to hide it: spaces, punctuation,
    symbols, invisible ones (zero-width), combining marks (f̶u̶)."""
    return ch.isspace() or unicodedata.category(ch)[0] in "PSZCM"


def _folded(text: str) -> tuple[str, list[int]]:
    """``text`` folded with what stands between letters left out, and for each character of
    the result the index of the character of ``text`` it came from."""
    out: list[str] = []
    owner: list[int] = []
    for i, ch in enumerate(text):
        if _between(ch):
            continue
        for piece in _fold(ch):
            out.append(piece)
            owner.append(i)
    return "".join(out), owner


class ChatFilter:
    """Masks the listed words in chat messages."""

    def __init__(self, words: Iterable[str]) -> None:
        folded = set()
        for word in words:
            key = _folded(word)[0]
            if key:
                folded.add(key)
        if len(folded) > WORDS_MAX:
            raise ChatFilterError(f"at most {WORDS_MAX} words, got {len(folded)}")
        self.words = frozenset(folded)
        alternatives = "|".join(re.escape(w) for w in sorted(folded, key=lambda w: (-len(w), w)))
        # at every position, the longest listed word that starts there (a lookahead, so that
        # words overlapping one another are all found)
        self._pattern = re.compile(f"(?=({alternatives}))") if folded else None

    @classmethod
    def from_file(cls, path: Path) -> ChatFilter:
        """The list in ``path``: UTF-8, a word or phrase a line; blank lines and lines starting
        with ``#`` are left out."""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ChatFilterError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ChatFilterError(f"{path} is not UTF-8 text") from None
        words = []
        for number, line in enumerate(text.splitlines(), start=1):
            word = line.strip()
            if not word or word.startswith("#"):
                continue
            if len(word) > WORD_MAX:
                raise ChatFilterError(f"{path}, line {number}: a word of at most {WORD_MAX} "
                                      "characters")
            words.append(word)
        return cls(words)

    def mask(self, text: str) -> str:
        """``text`` with every listed word found in it masked, character for character (the
        spaces, punctuation and marks inside a hidden word too, and the marks over its last
        letter)."""
        if self._pattern is None:
            return text
        folded, owner = _folded(text)
        hidden = bytearray(len(text))
        for found in self._pattern.finditer(folded):
            first, last = owner[found.start(1)], owner[found.end(1) - 1]
            while last + 1 < len(text) and unicodedata.category(text[last + 1])[0] == "M":
                last += 1  # the marks over its last letter go with it
            for i in range(first, last + 1):
                hidden[i] = 1
        if not any(hidden):
            return text
        return "".join(MASK if hidden[i] else ch for i, ch in enumerate(text))


class ChatWordList:
    """The list in a file, read again when the file changes (looked at, at most every
    ``every`` seconds of ``now``, when a message is masked): the operator adds a word without
    a restart. A changed file that cannot be used is logged and the list in use is kept."""

    def __init__(self, path: Path, now: Callable[[], float], every: float = 10.0) -> None:
        self.path = path
        self._now = now
        self._every = every
        self._seen = self._stamp()
        self.current = ChatFilter.from_file(path)  # ``ChatFilterError`` at start
        self._checked: float | None = None  # (the clock may need the hall's loop: not yet)

    def _stamp(self) -> tuple[int, int] | None:
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return stat.st_mtime_ns, stat.st_size

    @property
    def words(self) -> frozenset[str]:
        return self.current.words

    def refresh(self) -> None:
        """Read the file again if it changed since it was last read."""
        now = self._now()
        if self._checked is None:
            self._checked = now
        if now - self._checked < self._every:
            return
        self._checked = now
        stamp = self._stamp()
        if stamp == self._seen:
            return
        self._seen = stamp
        try:
            self.current = ChatFilter.from_file(self.path)
        except ChatFilterError as exc:
            log.warning("the chat's word list was not read again: %s; the %d words read before "
                        "stay", exc, len(self.current.words), extra=fields(
                            "chat_filter_refused", path=str(self.path), error=str(exc)))
            return
        log.info("the chat masks %d words of %s (read again)", len(self.current.words),
                 self.path, extra=fields("chat_filter", words=len(self.current.words),
                                         path=str(self.path)))

    def mask(self, text: str) -> str:
        self.refresh()
        return self.current.mask(text)
