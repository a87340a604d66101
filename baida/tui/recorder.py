"""``baida play --record DIR``: every finished hand's game record as a JSON file.

Each file is one ``baida-record-v1`` record (docs/records.md), named after the match seed and
the hand number (``<seed>-hand03.json``), so ``baida replay DIR/<file>`` re-runs the hand.
An existing file is never overwritten: a second match with the same seed gets ``-2``, ``-3``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

MAX_STEM = 40


class RecordDirError(OSError):
    """The record directory cannot be used; the message names it."""


def file_stem(seed: str, number: int) -> str:
    """A safe file name for hand ``number`` of the match with ``seed`` (any text).

    >>> file_stem("abc", 3), file_stem("my seed/1", 12)
    ('abc-hand03', 'my_seed_1-hand12')
    """
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", seed).strip("._") or "match"
    return f"{safe[:MAX_STEM]}-hand{number:02d}"


class RecordWriter:
    """Writes the records of one match into ``directory`` (created if missing)."""

    def __init__(self, directory: str | Path, seed: str) -> None:
        self.directory = Path(directory)
        self.seed = seed
        self.saved: list[Path] = []
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RecordDirError(f"--record {directory}: {exc.strerror or exc}") from None
        if not self.directory.is_dir():
            raise RecordDirError(f"--record {directory}: not a directory")

    def save(self, number: int, record: dict[str, Any]) -> Path:
        """Write hand ``number``'s record; returns the file (``OSError`` if it cannot)."""
        stem = file_stem(self.seed, number)
        for attempt in range(1, 1000):
            name = f"{stem}.json" if attempt == 1 else f"{stem}-{attempt}.json"
            path = self.directory / name
            try:
                with path.open("x", encoding="utf-8") as handle:
                    json.dump(record, handle, ensure_ascii=False, indent=1)
                    handle.write("\n")
            except FileExistsError:
                continue
            self.saved.append(path)
            return path
        raise OSError(f"{self.directory}: too many records named {stem}")
