"""Deterministic random hands for the benchmarks (the same inputs for every library)."""

from __future__ import annotations

import random

SEQUENCES = [("seq", s * 9 + r) for s in range(3) for r in range(7)]
SETS = SEQUENCES + [("triplet", k) for k in range(34)]


def winning_tiles(rng: random.Random, sets: int = 4) -> list[int]:
    """A complete hand of ``sets`` sets and a pair, at most four copies of a kind."""
    while True:
        tiles: list[int] = []
        for _ in range(sets):
            shape, tile = rng.choice(SETS)
            tiles += [tile, tile + 1, tile + 2] if shape == "seq" else [tile] * 3
        pair = rng.randrange(34)
        tiles += [pair, pair]
        if all(tiles.count(k) <= 4 for k in set(tiles)):
            return tiles


def random_tiles(rng: random.Random, size: int) -> list[int]:
    wall = [k for k in range(34) for _ in range(4)]
    rng.shuffle(wall)
    return wall[:size]


def counts(tiles: list[int]) -> list[int]:
    out = [0] * 34
    for t in tiles:
        out[t] += 1
    return out


def win_test_hands(n: int, seed: int = 1) -> list[list[int]]:
    """Half complete hands, half random 14-tile hands, as tile lists."""
    rng = random.Random(seed)
    return [winning_tiles(rng) if i % 2 == 0 else random_tiles(rng, 14) for i in range(n)]


def wild_win_hands(n: int, wilds: int = 3, seed: int = 2) -> list[tuple[list[int], int]]:
    """14-tile hands with ``wilds`` wilds: half complete, half random; (34-counts, wilds)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        tiles = winning_tiles(rng) if i % 2 == 0 else random_tiles(rng, 14)
        rng.shuffle(tiles)
        out.append((counts(tiles[wilds:]), wilds))
    return out


def tiles136(tiles: list[int]) -> list[int]:
    """136-format ids (kind * 4 + copy) for libraries that take them."""
    seen = [0] * 34
    out = []
    for t in sorted(tiles):
        out.append(t * 4 + seen[t])
        seen[t] += 1
    return out


def tenhou_string(tiles: list[int]) -> str:
    """'m123p456s789z1234567' notation (z: E S W N P F C as 1-7)."""
    parts = {"m": [], "p": [], "s": [], "z": []}
    honour_order = {27: 1, 28: 2, 29: 3, 30: 4, 33: 5, 32: 6, 31: 7}
    for t in sorted(tiles):
        if t < 27:
            parts["mps"[t // 9]].append(str(t % 9 + 1))
        else:
            parts["z"].append(str(honour_order[t]))
    return "".join(k + "".join(v) for k, v in parts.items() if v)


def ready_tiles(rng: random.Random, sets: int = 4) -> list[int]:
    """A complete hand with one tile taken away: ``3 * sets + 1`` tiles, one tile from a win."""
    tiles = winning_tiles(rng, sets)
    tiles.pop(rng.randrange(len(tiles)))
    return tiles


def quad_tiles(rng: random.Random, quads: int, size: int = 13) -> list[int]:
    """``size`` tiles holding ``quads`` kinds four times, the rest drawn from what is left."""
    held = rng.sample(range(34), quads)
    wall = [k for k in range(34) if k not in held for _ in range(4)]
    rng.shuffle(wall)
    return [k for k in held for _ in range(4)] + wall[: size - 4 * quads]


def ready_quad_tiles(rng: random.Random, sets: int = 4) -> list[int]:
    """A complete hand with one tile taken away that still holds a kind four times: the hands
    whose every wait the evaluator checks for a dead (fifth) copy."""
    while True:
        tiles = ready_tiles(rng, sets)
        fours = [k for k in set(tiles) if tiles.count(k) == 4]
        if fours:
            return tiles
