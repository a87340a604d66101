"""Tile kinds, their notation and their names.

Kinds are small integers:

====== ===================================================
0-8    1m-9m 万 (characters)
9-17   1p-9p 筒 (dots)
18-26  1s-9s 条 (bamboo)
27-30  E S W N 东南西北
31-33  C F P 红中 发财 白板
34-41  f1-f8 春夏秋冬 梅兰竹菊
====== ===================================================

``WILD`` (42) stands for one wild tile written ``*`` (百搭 in Jiaxing, 得 in Wenling).

>>> parse_tiles("123m E*")
[0, 1, 2, 27, 42]
>>> format_tiles([0, 1, 2, 27, 42])
'123mE*'
"""

from __future__ import annotations

from collections.abc import Iterable

from .quote import quote

NUM_KINDS = 34  # suit and honour kinds (what a hand evaluator sees)
NUM_ALL_KINDS = 42  # including the eight flowers
WILD = 42

MAN, PIN, SOU = 0, 9, 18
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33  # 红中 C, 发财 F, 白板 P
FLOWER_FIRST = 34
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
HONOURS = WINDS + DRAGONS
FLOWERS = tuple(range(34, 42))
FLOWER_GROUP_A = (34, 35, 36, 37)  # 春夏秋冬
FLOWER_GROUP_B = (38, 39, 40, 41)  # 梅兰竹菊
SUIT_LETTERS = "mps"
HONOUR_LETTERS = "ESWNCFP"
SEAT_WINDS = "ESWN"

_SUIT_ZH = ("万", "筒", "条")
_NUM_ZH = "一二三四五六七八九"
_HONOUR_ZH = ("东", "南", "西", "北", "红中", "发财", "白板")
_HONOUR_EN = ("East", "South", "West", "North", "Red", "Green", "White")
_FLOWER_ZH = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")
_FLOWER_EN = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum")


class TileError(ValueError):
    """A tile string that is not valid notation."""


def is_suit(kind: int) -> bool:
    return 0 <= kind < 27


def is_honour(kind: int) -> bool:
    return 27 <= kind < 34


def is_wind(kind: int) -> bool:
    return 27 <= kind < 31


def is_dragon(kind: int) -> bool:
    return 31 <= kind < 34


def is_flower(kind: int) -> bool:
    return 34 <= kind < 42


def is_terminal(kind: int) -> bool:
    return kind < 27 and kind % 9 in (0, 8)


def suit_of(kind: int) -> int:
    """0, 1, 2 for 万 筒 条; 3 for honours; 4 for flowers."""
    if kind < 27:
        return kind // 9
    return 3 if kind < 34 else 4


def rank_of(kind: int) -> int:
    """1-9 for a suit tile."""
    return kind % 9 + 1


def seat_wind_kind(seat: str | int) -> int:
    """The wind kind of a seat given as 'E'/'S'/'W'/'N' or 0-3."""
    index = SEAT_WINDS.index(seat) if isinstance(seat, str) else seat
    return EAST + index


def seat_flowers(seat: str | int) -> tuple[int, int]:
    """The two flowers that match a seat: 春/梅 East, 夏/兰 South, 秋/竹 West, 冬/菊 North."""
    index = SEAT_WINDS.index(seat) if isinstance(seat, str) else seat
    return (FLOWER_FIRST + index, FLOWER_FIRST + 4 + index)


def tile_str(kind: int) -> str:
    """The notation of one tile."""
    if kind == WILD:
        return "*"
    if 0 <= kind < 27:
        return f"{kind % 9 + 1}{SUIT_LETTERS[kind // 9]}"
    if 27 <= kind < 34:
        return HONOUR_LETTERS[kind - 27]
    if 34 <= kind < 42:
        return f"f{kind - 33}"
    raise TileError(f"not a tile kind: {quote(kind)}")


def tile_name(kind: int, lang: str = "zh") -> str:
    """A human name: 五万 / 5 Characters, 红中 / Red, 春 / Spring."""
    if kind == WILD:
        return "百搭" if lang == "zh" else "Wild"
    if kind < 27:
        suit, rank = divmod(kind, 9)
        if lang == "zh":
            return _NUM_ZH[rank] + _SUIT_ZH[suit]
        return f"{rank + 1} {('Characters', 'Dots', 'Bamboo')[suit]}"
    if kind < 34:
        return (_HONOUR_ZH if lang == "zh" else _HONOUR_EN)[kind - 27]
    if kind < 42:
        return (_FLOWER_ZH if lang == "zh" else _FLOWER_EN)[kind - 34]
    raise TileError(f"not a tile kind: {quote(kind)}")


def parse_tile(text: str) -> int:
    """Exactly one tile: '5m', 'E', 'f3' or '*'."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise TileError(f"expected one tile, got {quote(text)}")
    return tiles[0]


def parse_tiles(text: str) -> list[int]:
    """Parse notation such as '123m45p EE C f1 *' into kinds, in order (WILD for '*')."""
    if not isinstance(text, str):
        raise TileError(f"tiles must be a string, not {type(text).__name__}")
    out: list[int] = []
    pending: list[int] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "123456789":
            pending.append(int(ch))
            i += 1
            continue
        if ch in SUIT_LETTERS:
            if not pending:
                raise TileError(f"suit letter {quote(ch)} without numbers in {quote(text)}")
            base = SUIT_LETTERS.index(ch) * 9
            out.extend(base + r - 1 for r in pending)
            pending.clear()
            i += 1
            continue
        if ch not in HONOUR_LETTERS and ch not in "f*":
            raise TileError(f"unknown tile character {quote(ch)} in {quote(text)}")
        if pending:
            digits = "".join(map(str, pending))
            raise TileError(f"numbers {quote(digits)} without a suit letter in {quote(text)}")
        if ch == "f":
            if i + 1 < n and text[i + 1] in "12345678":
                out.append(FLOWER_FIRST + int(text[i + 1]) - 1)
                i += 2
                continue
            raise TileError(f"a flower is f1-f8, bad flower in {quote(text)}")
        if ch in HONOUR_LETTERS:
            out.append(27 + HONOUR_LETTERS.index(ch))
        elif ch == "*":
            out.append(WILD)
        else:
            raise TileError(f"unknown tile character {quote(ch)} in {quote(text)}")
        i += 1
    if pending:
        digits = "".join(map(str, pending))
        raise TileError(f"numbers {quote(digits)} without a suit letter in {quote(text)}")
    return out


def format_tiles(tiles: Iterable[int]) -> str:
    """Compact notation, runs of one suit merged: [0, 1, 2, 27] -> '123mE'."""
    parts: list[str] = []
    run: list[str] = []
    run_suit = ""
    for kind in tiles:
        if 0 <= kind < 27:
            suit = SUIT_LETTERS[kind // 9]
            if run and suit != run_suit:
                parts.append("".join(run) + run_suit)
                run = []
            run_suit = suit
            run.append(str(kind % 9 + 1))
            continue
        if run:
            parts.append("".join(run) + run_suit)
            run = []
        parts.append(tile_str(kind))
    if run:
        parts.append("".join(run) + run_suit)
    return "".join(parts)


def counts34(tiles: Iterable[int]) -> list[int]:
    """A 34-count vector of the suit and honour tiles (wilds and flowers are skipped)."""
    counts = [0] * NUM_KINDS
    for kind in tiles:
        if 0 <= kind < NUM_KINDS:
            counts[kind] += 1
    return counts


def sort_key(kind: int) -> int:
    """Sort order for display: wilds first, then suits, honours, flowers."""
    return -1 if kind == WILD else kind
