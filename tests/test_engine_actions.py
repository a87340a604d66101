"""Hand-built ``Action`` objects check their own fields (issue 10, fix 6).

Built in Python rather than from JSON, an action with a float tile equal to a legal kind, a bool
or float seat, a tile out of range or missing used to get past the legality check and corrupt
the round. Every wrongly typed field now raises ``MalformedAction`` when the action is built;
a face (``"9p"``) is converted to its kind and plays like the kind.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from test_engine_helpers import scripted, snapshot
from test_engine_random import pick

from baida.engine import Action, IllegalAction, MalformedAction, Round
from baida.engine.actions import ACTION_TYPES
from baida.engine.records import replay
from baida.engine.wall import wall_from_deal
from baida.tiles import parse_tile, tile_str


def _walked(ruleset: str, seed: int, steps: int) -> Round:
    rnd = Round.from_seed(ruleset, seed.to_bytes(8, "big"))
    rng = random.Random(seed)
    for _ in range(steps):
        if rnd.ended:
            break
        rnd.apply(pick(rng, rnd.legal_actions(rnd.to_act[0]), rnd))
    return rnd


def _replays_to_the_same_views(rnd: Round) -> None:
    record = rnd.record()
    record["seed"] = rnd.seed.hex()  # a record written mid-hand keeps its seed back
    again = replay(record).round
    for seat in (None, 0, 1, 2, 3):
        assert again.view(seat).to_json() == rnd.view(seat).to_json()


# ---------------------------------------------------------------------- the cases


def test_a_float_tile_equal_to_a_legal_kind_is_refused_and_changes_nothing() -> None:
    rnd = _walked("jiaxing", 3, 0)
    legal = next(a for a in rnd.legal_actions(rnd.turn) if a.type == "discard")
    before = snapshot(rnd)
    with pytest.raises(MalformedAction, match="tile"):
        rnd.apply(Action("discard", rnd.turn, float(legal.tile)))  # type: ignore[arg-type]
    assert snapshot(rnd) == before
    rnd.apply(Action("discard", rnd.turn, legal.tile))  # the int kind still plays
    _replays_to_the_same_views(rnd)


@pytest.mark.parametrize("seat", [True, False, 1.0, 0.0, -1, 4, None, "0"])
def test_a_seat_that_is_not_an_int_0_to_3_is_refused(seat: object) -> None:
    with pytest.raises(MalformedAction, match="seat"):
        Action("pass", seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("tile", [None, -1, 42, 99, 3.0, True, "*", "x", "5m5m", b"5m", [3]])
def test_a_tile_that_is_not_a_kind_or_a_face_is_refused(tile: object) -> None:
    with pytest.raises(MalformedAction, match="tile"):
        Action("discard", 0, tile)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind,tile,tiles", [
    ("pon", 3, None), ("pass", None, (1, 2)), ("chi", None, None), ("chi", None, (1,)),
    ("chi", None, "3m4m"), ("chi", None, (1, 2.0)), ("nope", None, None), (3, None, None),
])
def test_fields_that_do_not_fit_the_type_are_refused(kind, tile, tiles) -> None:
    with pytest.raises(MalformedAction):
        Action(kind, 0, tile, tiles)


def test_faces_are_kinds() -> None:
    assert Action("discard", 0, "9p") == Action("discard", 0, parse_tile("9p"))
    assert Action("discard", 0, "9p").tile == 17 and Action("discard", 0, 26).face == "9s"
    chi = Action("chi", 1, None, ["4m", "3m"])
    assert chi.tiles == (2, 3) and chi.faces == ["3m", "4m"]
    assert chi == Action("chi", 1, None, (3, 2))
    assert hash(chi) == hash(Action("chi", 1, None, (2, 3)))
    assert Action("pass", 2).face is None and Action("pass", 2).faces is None


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_actions_built_from_faces_play_and_replay(ruleset: str) -> None:
    """A bot that writes its actions with faces plays whole hands; the record replays."""
    rnd = Round.from_seed(ruleset, b"faces")
    rng = random.Random(1)
    while not rnd.ended:
        chosen = pick(rng, rnd.legal_actions(rnd.to_act[0]), rnd)
        rebuilt = Action(chosen.type, chosen.seat, chosen.face, chosen.faces)
        assert rebuilt == chosen
        rnd.apply(rebuilt)
    assert replay(rnd.record()).matches


# ---------------------------------------------------------------------- fuzz

FIELD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 44),
    st.sampled_from([10**30, -(10**30)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(0, 41).map(float),
    st.sampled_from(["5m", "9p", "E", "f1", "*", "", "5", "m", "5m5m", "zz", "1m2m"]),
    st.integers(0, 41).map(tile_str),
    st.binary(max_size=3),
    st.lists(st.integers(0, 41), max_size=3),
)
TILES = st.one_of(
    st.none(),
    st.tuples(FIELD, FIELD),
    st.lists(st.one_of(st.integers(0, 41), st.integers(0, 41).map(tile_str)), max_size=3),
    FIELD,
)


@settings(max_examples=examples(300), deadline=None)
@given(
    ruleset=st.sampled_from(["jiaxing", "wenling"]),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 60),
    kind=st.one_of(st.sampled_from(ACTION_TYPES), FIELD),
    seat=st.one_of(st.integers(0, 3), FIELD),
    tile=FIELD,
    tiles=TILES,
)
def test_hand_built_actions_are_malformed_refused_or_played(
    ruleset, seed, steps, kind, seat, tile, tiles
) -> None:
    rnd = _walked(ruleset, seed, steps)
    before = snapshot(rnd)
    try:
        action = Action(kind, seat, tile, tiles)
    except MalformedAction as exc:
        assert str(exc) and len(str(exc)) < 300
        assert snapshot(rnd) == before
        return
    # what gets built is well typed, whatever it was built from
    assert action.type in ACTION_TYPES and type(action.seat) is int and 0 <= action.seat <= 3
    assert action.tile is None or (type(action.tile) is int and 0 <= action.tile < 42)
    assert action.tiles is None or all(type(t) is int and 0 <= t < 42 for t in action.tiles)
    assert Action.from_json(action.to_json()) == action
    legal = action in rnd.legal_actions(action.seat)
    try:
        rnd.apply(action)
    except IllegalAction as exc:
        assert not legal and str(exc)
        assert snapshot(rnd) == before
        return
    assert legal
    _replays_to_the_same_views(rnd)


def test_wall_from_deal_takes_faces_like_from_wall() -> None:
    hands = ["123m456m789m EEE S", "123p456p789p SSS W", "123s456s789s WWW N",
             "11m 22p 33s NNN CCC 4p"]
    by_face = wall_from_deal("jiaxing", [_faces(h) for h in hands],
                             draws=["5p"], tail=["9s"], indicator="P", dealer_extra="F")
    by_kind = wall_from_deal("jiaxing", [[parse_tile(f) for f in _faces(h)] for h in hands],
                             draws=[parse_tile("5p")], tail=[parse_tile("9s")],
                             indicator=parse_tile("P"), dealer_extra=parse_tile("F"))
    by_text = wall_from_deal("jiaxing", hands, draws="5p", tail="9s", indicator="P",
                             dealer_extra="F")
    assert by_face == by_kind == by_text
    rnd = scripted("jiaxing", hands, extra="F", draws="5p", tail="9s", indicator="P")
    assert rnd.wall == by_face
    with pytest.raises(ValueError, match="indicator"):
        wall_from_deal("jiaxing", hands, indicator=3.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="hand 1: expected a list of tiles"):
        wall_from_deal("jiaxing", [hands[0], None, *hands[2:]])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="wall"):
        Round.from_wall("jiaxing", [float(k) for k in by_face], (1, 2))


def _faces(text: str) -> list[str]:
    from baida.tiles import parse_tiles

    return [tile_str(k) for k in parse_tiles(text)]
