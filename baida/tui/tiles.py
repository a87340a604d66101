"""Tiles as rich text: colours by suit, wilds marked, compact runs for melds.

Pure functions from tile faces (the engine's notation, docs/engine.md) to ``rich.text.Text``.
A wild tile is shown with a leading ``*`` and a highlight, so it stays marked without colour.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from ..tiles import TileError, parse_tile
from .i18n import tile_label

WILD_MARK = "*"
WILD_STYLE = "bold black on yellow"
_SUIT_STYLES = ("red", "blue", "green")
_HONOUR_STYLE = "bold"
_DRAGON_STYLES = {"C": "bold red", "F": "bold green", "P": "bold"}
_FLOWER_STYLE = "magenta"
_SUIT_ZH = "万筒条"


def face_kind(face: str) -> int:
    """The kind of a face, for sorting; unknown faces sort last."""
    try:
        return parse_tile(face)
    except TileError:
        return 99


def sort_faces(faces: Iterable[str], wilds: Iterable[str] = ()) -> list[str]:
    """Faces in display order: wilds leftmost, then 万 筒 条, winds, dragons, flowers."""
    wild_set = set(wilds)
    return sorted(faces, key=lambda f: (f not in wild_set, face_kind(f)))


def tile_style(face: str | None, wild: bool = False) -> str:
    if face is None:
        return "dim"
    if wild:
        return WILD_STYLE
    if face in _DRAGON_STYLES:
        return _DRAGON_STYLES[face]
    if face[0] == "f":
        return _FLOWER_STYLE
    if face[0].isdigit() and len(face) == 2 and face[1] in "mps":
        return _SUIT_STYLES["mps".index(face[1])]
    return _HONOUR_STYLE


def tile_text(
    face: str | None,
    lang: str = "zh",
    *,
    wilds: Iterable[str] = (),
    extra_style: str = "",
) -> Text:
    """One tile: its short label, coloured, a wild marked with ``*``."""
    wild = face is not None and face in set(wilds)
    label = tile_label(face, lang)
    if wild:
        label = WILD_MARK + label
    style = tile_style(face, wild)
    if extra_style:
        style = f"{style} {extra_style}"
    return Text(label, style=style)


def tiles_text(
    faces: Sequence[str | None],
    lang: str = "zh",
    *,
    wilds: Iterable[str] = (),
    sep: str = " ",
) -> Text:
    """Several tiles side by side."""
    wild_list = list(wilds)
    out = Text()
    for i, face in enumerate(faces):
        if i:
            out.append(sep)
        out.append_text(tile_text(face, lang, wilds=wild_list))
    return out


def compact_label(faces: Sequence[str], lang: str = "zh") -> str:
    """Runs of one suit merged, as in the notation: 345万 / 345m, 中中中 / CCC."""
    out: list[str] = []
    run: list[str] = []
    run_suit = ""

    def flush() -> None:
        if run:
            suit = _SUIT_ZH["mps".index(run_suit)] if lang == "zh" else run_suit
            out.append("".join(run) + suit)
            run.clear()

    for face in faces:
        if len(face) == 2 and face[0].isdigit() and face[1] in "mps":
            if run and face[1] != run_suit:
                flush()
            run_suit = face[1]
            run.append(face[0])
            continue
        flush()
        out.append(tile_label(face, lang))
    flush()
    return "".join(out)


def compact_text(faces: Sequence[str], lang: str = "zh") -> Text:
    """``compact_label`` coloured by the first tile (a meld is one suit or one honour)."""
    if not faces:
        return Text("")
    return Text(compact_label(faces, lang), style=tile_style(faces[0]))


def grouped_text(faces: Sequence[str], lang: str = "zh", *, wilds: Iterable[str] = ()) -> Text:
    """A hand written as players write it: wilds first (marked), then each run of one suit
    with its suit once (3357万 678筒 / 3357m 678p), honours and flowers one by one.

    >>> grouped_text(["5m", "3m", "3m", "7p", "6p", "E", "E"], "en", wilds=["5m"]).plain
    '*5m 33m 67p E E'
    """
    wild_set = set(wilds)
    ordered = sort_faces(faces, wild_set)
    groups: list[Text] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            groups.append(compact_text(list(run), lang))
            run.clear()

    for face in ordered:
        suited = len(face) == 2 and face[0].isdigit() and face[1] in "mps"
        if face in wild_set or not suited:
            flush()
            groups.append(tile_text(face, lang, wilds=wild_set))
        else:
            if run and run[-1][1] != face[1]:
                flush()
            run.append(face)
    flush()
    return Text(" ").join(groups)

