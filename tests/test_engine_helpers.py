"""Helpers for the engine tests (scripted walls, passive play), and tests of the wall procedure."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from baida.engine import Round
from baida.engine.wall import RandomStream, check_wall, shuffled_wall, tile_set, wall_from_deal
from baida.tiles import format_tiles, parse_tile, parse_tiles


def tiles(text: str) -> list[int]:
    return parse_tiles(text)


def scripted(
    ruleset: str,
    hands: list[str],
    extra: str,
    draws: str = "",
    tail: str = "",
    indicator: str = "9s",
    dice: tuple[int, int] = (1, 2),
    **kwargs: Any,
) -> Round:
    """A hand dealt from explicit hands (dealer first), draws from the head and tail tiles."""
    wall = wall_from_deal(
        ruleset,
        [tiles(h) for h in hands],
        draws=tiles(draws),
        tail=tiles(tail),
        indicator=parse_tile(indicator),
        dealer_extra=parse_tile(extra),
    )
    return Round.from_wall(ruleset, wall, dice, **kwargs)


def act(rnd: Round, type: str, seat: int, **fields: Any) -> list[Any]:
    return rnd.apply({"type": type, "seat": seat, **fields})


def pass_window(rnd: Round) -> None:
    """Every seat still asked in a claim / rob window passes (三摊 questions: continue)."""
    while rnd.phase in ("claim", "rob", "santan") and rnd.to_act:
        seat = rnd.to_act[0]
        act(rnd, "continue" if rnd.phase == "santan" else "pass", seat)


def discard_drawn(rnd: Round) -> None:
    """The player in turn discards the tile it just drew (or its first legal discard)."""
    seat = rnd.turn
    drawn = rnd.drawn[seat]
    legal = [a for a in rnd.legal_actions(seat) if a.type == "discard"]
    choice = next((a for a in legal if a.tile == drawn), legal[0])
    rnd.apply(choice)


def passive(rnd: Round, steps: int | None = None) -> None:
    """Nobody claims or wins; each player discards its draw (``steps`` turns, or to the end)."""
    done = 0
    while not rnd.ended and (steps is None or done < steps):
        if rnd.phase == "turn":
            discard_drawn(rnd)
            done += 1
        else:
            pass_window(rnd)


def snapshot(rnd: Round) -> Any:
    """Everything observable about a round, to check that a refused action changed nothing."""
    return (
        [rnd.view(s).to_json() for s in (None, 0, 1, 2, 3)],
        [list(rnd.legal_actions(s)) for s in range(4)],
        len(rnd.actions),
        len(rnd.events),
        rnd.tile_census(),
    )


# ---------------------------------------------------------------------- the wall procedure


def test_stream_is_sha256_counter_mode() -> None:
    seed = b"abc"
    block = hashlib.sha256(seed + (0).to_bytes(8, "big")).digest()
    first = int.from_bytes(block[:8], "big")
    stream = RandomStream(seed)
    assert stream.rand(1 << 62) == first % (1 << 62)


def test_rand_is_in_range_and_deterministic() -> None:
    a, b = RandomStream(b"s"), RandomStream(b"s")
    xs = [a.rand(7) for _ in range(500)]
    assert xs == [b.rand(7) for _ in range(500)]
    assert set(xs) == set(range(7))


@pytest.mark.parametrize("ruleset,size", [("jiaxing", 136), ("wenling", 144)])
def test_shuffled_wall_is_a_permutation(ruleset: str, size: int) -> None:
    wall, dice = shuffled_wall(ruleset, b"\x01" * 32)
    assert len(wall) == size and sorted(wall) == tile_set(ruleset)
    assert all(1 <= d <= 6 for d in dice)
    assert shuffled_wall(ruleset, b"\x01" * 32) == (wall, dice)
    assert shuffled_wall(ruleset, b"\x02" * 32)[0] != wall


def test_fixed_seed_gives_a_fixed_wall() -> None:
    """baida-wall-v1 is versioned: this must never change."""
    wall, dice = shuffled_wall("jiaxing", bytes(32))
    digest = hashlib.sha256(bytes(wall) + bytes(dice)).hexdigest()
    assert dice == (5, 4)
    assert format_tiles(wall[:14]) == "2sPW53pP5m1p47mF3s4p4s"
    assert digest == "5e07a68de8885f337a94ba39b7781bd556137dc4826e6424f72667fbe69ebbf2"


def test_check_wall_names_the_problem() -> None:
    wall = tile_set("jiaxing")
    wall[0] = wall[-1]
    with pytest.raises(ValueError, match="too many P.*missing 1m"):
        check_wall("jiaxing", wall)


def test_wall_from_deal_deals_what_it_says() -> None:
    rnd = scripted(
        "jiaxing",
        ["123m456m789m123p E", "123s456s789s123p S", "456p78p EEE CCC WW", "FFFPPP NNN WW 1m1m"],
        extra="N",
        draws="5m",
        tail="6m",
        indicator="9s",
    )
    assert rnd.indicator == parse_tile("9s")
    assert rnd.concealed(0) == sorted(tiles("123m456m789m123p E N"))
    assert rnd.concealed(3) == sorted(tiles("FFFPPP NNN WW 1m1m"))
    assert rnd.wall[rnd.head] == parse_tile("5m")
    assert rnd.wall[rnd.tail - 1] == parse_tile("6m")
