"""The hand evaluator: one table-driven module for wins, readings, waits and shanten with wilds."""

from .core import (
    PATTERNS,
    held_copies,
    is_complete,
    pattern_shanten,
    shanten,
    shanten_after_each,
    triplet_shanten,
    waits,
)
from .readings import ALL_FACES, PAIR, SEQ, TRIPLET, Group, Reading, readings, wild_faces_of

__all__ = [
    "ALL_FACES",
    "PAIR",
    "PATTERNS",
    "SEQ",
    "TRIPLET",
    "Group",
    "Reading",
    "held_copies",
    "is_complete",
    "pattern_shanten",
    "readings",
    "shanten",
    "shanten_after_each",
    "triplet_shanten",
    "waits",
    "wild_faces_of",
]
