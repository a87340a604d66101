"""The evaluator's golden corpus: hands and every answer the evaluator gave them on commit
4b83938, before the evaluator was rewritten for speed (issue 33).

``tests/data/evaluator_golden.txt.gz`` holds one hand per line: the hand, then its answers
(``answers``). ``tests/test_evaluator_golden.py`` asks the evaluator again and compares line by
line. The hands (``corpus``) are drawn from a fixed seed: random hands of every concealed size
the two rulesets meet (two to five sets to form, one tile short or a tile over), hands one tile
from a win, hands holding one to three kinds four times, some of their tiles made wild, and
half of them with a ``visible`` vector as the engine builds it (melds, a kong among them, and
the wild's face out of reach).

    .venv/bin/python tests/evaluator_golden.py --write   # only to record a deliberate change
"""

from __future__ import annotations

import gzip
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "evaluator_golden.txt.gz"
SIZE = 6000
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
SEQUENCES = [("seq", s * 9 + r) for s in range(3) for r in range(7)]
SETS = SEQUENCES + [("triplet", k) for k in range(34)]

Hand = tuple[list[int], int, int, list[int] | None]


def _counts(tiles: list[int]) -> list[int]:
    out = [0] * 34
    for t in tiles:
        out[t] += 1
    return out


def _winning(rng: random.Random, sets: int) -> list[int]:
    while True:
        tiles: list[int] = []
        for _ in range(sets):
            shape, tile = rng.choice(SETS)
            tiles += [tile, tile + 1, tile + 2] if shape == "seq" else [tile] * 3
        pair = rng.randrange(34)
        tiles += [pair, pair]
        if max(_counts(tiles)) <= 4:
            return tiles


def _tiles(rng: random.Random, sets: int, over: int) -> list[int]:
    """``3 * sets + 1 + over`` tiles of one of the corpus's kinds of hand."""
    size = 3 * sets + 1 + over
    kind = rng.randrange(4)
    wall = [k for k in range(34) for _ in range(4)]
    if kind == 0:  # random
        rng.shuffle(wall)
        return wall[:size]
    if kind == 1:  # one tile from a win (and, with ``over``, a tile over)
        tiles = _winning(rng, sets)
        tiles.pop(rng.randrange(len(tiles)))
        if over:
            rest = [k for k in range(34) if tiles.count(k) < 4]
            tiles.append(rng.choice(rest))
        return tiles
    quads = min(rng.randint(1, 3), size // 4)
    held = rng.sample(range(34), quads)
    tiles = [k for k in held for _ in range(4)]
    if kind == 2:  # quads, then random tiles
        rest = [k for k in wall if k not in held]
        rng.shuffle(rest)
        return tiles + rest[: size - len(tiles)]
    # quads, then sets around them
    while len(tiles) < size:
        shape, tile = rng.choice(SETS)
        group = [tile, tile + 1, tile + 2] if shape == "seq" else [tile] * 3
        if len(tiles) + 3 > size:
            group = [rng.randrange(34)]
        if max(_counts(tiles + group)) <= 4:
            tiles += group
    return tiles


def _visible(rng: random.Random, counts: list[int]) -> list[int]:
    """The engine's ``visible``: the hand, some melds (a kong among them), a face out of reach."""
    out = list(counts)
    for _ in range(rng.randint(0, 3)):
        kind = rng.randrange(34)
        out[kind] = min(4, out[kind] + rng.choice((3, 4)))
    if rng.random() < 0.5:
        out[rng.randrange(34)] = 4
    return out


def corpus(size: int = SIZE, seed: int = 33) -> list[Hand]:
    """The corpus's hands: (counts, wilds, sets, visible or None)."""
    rng = random.Random(seed)
    out: list[Hand] = []
    for _ in range(size):
        sets = rng.choice((2, 3, 4, 4, 4, 5, 5))
        tiles = _tiles(rng, sets, rng.randrange(2))
        rng.shuffle(tiles)
        wilds = rng.choice((0, 0, 0, 1, 1, 2, 3))
        counts = _counts(tiles[wilds:])
        visible = _visible(rng, counts) if rng.random() < 0.5 else None
        out.append((counts, wilds, sets, visible))
    return out


def _bits(kinds: list[int]) -> str:
    return format(sum(1 << k for k in kinds), "x")


def _digits(values: list[int]) -> str:
    return "".join(DIGITS[v + 1] for v in values)


def answers(hand: Hand) -> str:
    """Every answer of the evaluator about one hand, as one line of text."""
    from baida.evaluator import (
        PATTERNS,
        is_complete,
        pattern_shanten,
        shanten,
        shanten_after_each,
        triplet_shanten,
        waits,
    )

    counts, wilds, sets, visible = hand
    held = [k for k in range(34) if counts[k]]
    fields = [
        "".join(DIGITS[c] for c in counts),
        f"{wilds}{sets}",
        "-" if visible is None else "".join(DIGITS[c] for c in visible),
        str(int(is_complete(counts, wilds))),
        _digits([shanten(counts, wilds, sets), shanten(counts, wilds, sets, visible),
                 triplet_shanten(counts, wilds, sets)]),
        _bits(waits(counts, wilds)),
        _bits(waits(counts, wilds, visible)),
        _digits([pattern_shanten(counts, wilds, sets, p, s) for p in PATTERNS
                 for s in ((None, 0, 1, 2) if p in ("qingyise", "hunyise") else (None,))]),
        _digits(shanten_after_each(counts, wilds, sets, range(34), 1)),
        _digits(shanten_after_each(counts, wilds, sets, held, -1)),
    ]
    return " ".join(fields)


def parse(line: str) -> Hand:
    """The hand of one corpus line."""
    fields = line.split()
    counts = [DIGITS.index(c) for c in fields[0]]
    visible = None if fields[2] == "-" else [DIGITS.index(c) for c in fields[2]]
    return counts, int(fields[1][0]), int(fields[1][1:]), visible


def read() -> list[str]:
    with gzip.open(DATA, "rt", encoding="ascii") as f:
        return f.read().splitlines()


def write() -> None:
    DATA.parent.mkdir(exist_ok=True)
    lines = [answers(hand) for hand in corpus()]
    with gzip.GzipFile(DATA, "wb", mtime=0) as f:
        f.write(("\n".join(lines) + "\n").encode("ascii"))


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    sys.path.insert(0, str(HERE.parent))
    write()
