"""Confusable skeletons of display names (Unicode TR 39, section 4): two names with the same
skeleton look alike ("аdmin" with a Cyrillic а and "admin"), and the hall keeps one of them.

The confusable pairs are Unicode's ``confusables.txt`` as the ``confusable-homoglyphs``
package ships it (each pair in both directions). The pairs are joined into classes; every
character of a class is replaced by one member of it (a sequence such as ``rn`` for the class
of ``m`` when it has one, else the lowest code point), as TR 39 replaces each character by
its prototype. ``names.name_skeleton`` takes it of a name and again of that case-folded, so
case and width never make two names differ either.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs.confusables import confusables_data

_MARKS = "\u200e\u200f"  # the package wraps right-to-left glyphs in direction marks


def _clean(glyph: str) -> str:
    return glyph.strip(_MARKS)


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> the member of its class that stands for the class."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for key, glyphs in confusables_data.items():
        source = _clean(key)
        for entry in glyphs:
            target = _clean(entry["c"])
            if source and target:
                a, b = find(source), find(target)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    members: dict[str, list[str]] = {}
    for glyph in parent:
        members.setdefault(find(glyph), []).append(glyph)
    prototypes: dict[str, str] = {}
    for group in members.values():
        sequences = [g for g in group if len(g) > 1 and g.isascii()]
        prototype = min(sequences or group, key=lambda g: (len(g) if g.isascii() else 99, g))
        for glyph in group:
            if len(glyph) == 1:
                prototypes[glyph] = prototype
    return prototypes


def warm() -> None:
    """Build the table of prototypes now (a fraction of a second) rather than at the first
    name a player chooses, in the hall's writer thread."""
    _prototypes()


def skeleton(key: str) -> str:
    """The TR 39 skeleton of ``key``: NFD, each character by its class's prototype, NFD."""
    table = _prototypes()
    out: list[str] = []
    for char in unicodedata.normalize("NFD", key):
        prototype = table.get(char, char)
        if len(prototype) == 1:
            out.append(prototype)
        else:  # a sequence: its own characters by their prototypes, one level
            out.extend(table.get(c, c) if len(table.get(c, c)) == 1 else c for c in prototype)
    return unicodedata.normalize("NFD", "".join(out))
