"""Random legal play over both rulesets: invariants at every step, and records that replay."""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_helpers import snapshot

from baida.engine import Action, EngineError, IllegalAction, Round
from baida.engine.records import replay
from baida.evaluator import shanten
from baida.tiles import tile_str

OPTION_SETS = {
    "jiaxing": [
        {},
        {"allow_discard_win": True, "require_pattern": False, "santan_threshold": 2},
        {"allow_chi": False, "wall_reserve": 14, "dealer_keeps_on_draw": False},
        {"require_pattern": False, "gaveup_can_win": True, "santan_threshold": 1},
    ],
    "wenling": [{}, {"huangpai_pairs": 4, "flower_flip_specials": False}],
}
TOTAL = {"jiaxing": 136, "wenling": 144}


def pick(rng: random.Random, legal: list[Action], rnd: Round | None = None) -> Action:
    """Random legal play that never turns down a win and, given the round, mostly discards
    the tile that keeps the hand closest to a win (so that wins happen often enough)."""
    wins = [a for a in legal if a.type in ("win", "lazi")]
    if wins:
        return wins[0]
    discards = [a for a in legal if a.type == "discard"]
    if rnd is not None and discards and rng.random() < 0.8:
        seat = discards[0].seat
        counts = rnd.cnt[seat][:34]
        wilds = len(rnd.wild[seat])
        sets = (5 if rnd.ruleset == "wenling" else 4) - len(rnd.melds[seat])
        best, best_value = discards[0], 99
        for action in discards:
            tile = action.tile
            if tile in rnd.wild_kinds:
                value = shanten(counts, wilds - 1, sets) + 1
            else:
                counts[tile] -= 1
                value = shanten(counts, wilds, sets)
                counts[tile] += 1
            if value < best_value:
                best, best_value = action, value
        return best
    return legal[rng.randrange(len(legal))]


def _containers(value: object) -> list[object]:
    out: list[object] = []
    if isinstance(value, dict):
        out.append(value)
        for v in value.values():
            out += _containers(v)
    elif isinstance(value, list):
        out.append(value)
        for v in value:
            out += _containers(v)
    return out


def _no_shared_containers(view: dict, reference: dict, built: object) -> bool:
    """The JSON form holds fresh lists and dicts, none of the view object's own."""
    mine = {id(c) for c in _containers(view)}
    theirs = set()
    for name in ("options", "last_discard", "robbable", "result", "seat_winds", "wilds"):
        theirs |= {id(c) for c in _containers(getattr(built, name))}
    for player in built.players:  # type: ignore[attr-defined]
        theirs |= {id(c) for c in _containers(player.melds) + _containers(player.discards)}
    return not (mine & theirs) and len(_containers(view)) == len(_containers(reference))


def check_views(rnd: Round) -> None:
    for seat in (None, 0, 1, 2, 3):
        built = rnd.view(seat)
        view = built.to_json()
        assert view == dataclasses.asdict(built)  # the fast JSON form is asdict's
        assert _no_shared_containers(view, dataclasses.asdict(built), built)
        text = json.dumps(view)
        assert "wall" not in {k for k in view if k != "wall_remaining"}
        if not rnd.ended:
            assert view["seed"] is None
            for other in range(4):
                player = view["players"][other]
                if other != seat:
                    assert player["concealed"] is None and player["drawn"] is None
                    assert all(
                        m["tiles"] is not None or m["type"] == "akong" for m in player["melds"]
                    )
                    if any(m.kind == "akong" for m in rnd.melds[other]):
                        assert any(m["tiles"] is None for m in player["melds"])
                else:
                    assert sorted(player["concealed"]) == sorted(
                        tile_str(t) for t in rnd.concealed(other)
                    )
            if rnd.seed is not None:
                assert rnd.seed.hex() not in text


def play(ruleset: str, seed: int, options: dict, check: bool = True) -> Round:
    rnd = Round.from_seed(ruleset, seed.to_bytes(8, "big"), options=options)
    rng = random.Random(seed)
    steps = 0
    while not rnd.ended:
        steps += 1
        assert steps < 2000, "the hand does not end"
        if check:
            assert rnd.tile_census() == TOTAL[ruleset]
            check_views(rnd)
        seat = rnd.to_act[rng.randrange(len(rnd.to_act))]
        legal = rnd.legal_actions(seat)
        assert legal
        events = rnd.apply(pick(rng, legal, rnd))
        for event in events:
            for viewer in (None, 0, 1, 2, 3):
                shown = event.for_seat(viewer)
                if event.type in ("draw", "deal", "akong") and viewer != event.seat:
                    assert shown.get("tile") is None and shown.get("tiles") is None
                    assert shown.get("drawn") is None
    assert rnd.tile_census() == TOTAL[ruleset]
    check_views(rnd)
    return rnd


def check_result(rnd: Round) -> None:
    result = rnd.result
    assert result is not None
    bonus = getattr(rnd.options, "winner_bonus_points", 0) if result.outcome == "win" else 0
    assert sum(result.payments) == bonus
    if result.outcome == "win":
        assert result.score["legal"]
        assert result.payments[result.winner] > 0
    else:
        assert result.payments == [0, 0, 0, 0]


def check_replay(rnd: Round) -> None:
    record = json.loads(json.dumps(rnd.record(), ensure_ascii=False))
    again = replay(record)
    assert again.matches and again.settlement == rnd.result.settlement()
    assert [e.to_json() for e in again.events] == [e.to_json() for e in rnd.events]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), which=st.integers(0, 3))
def test_jiaxing_random_play(seed: int, which: int) -> None:
    rnd = play("jiaxing", seed, OPTION_SETS["jiaxing"][which])
    check_result(rnd)
    check_replay(rnd)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), which=st.integers(0, 1))
def test_wenling_random_play(seed: int, which: int) -> None:
    rnd = play("wenling", seed, OPTION_SETS["wenling"][which])
    check_result(rnd)
    check_replay(rnd)


def test_random_play_reaches_wins_and_santan() -> None:
    """The random tests above do exercise wins, 三摊 and gave-up players (not only draws)."""
    outcomes = set()
    santan = gave_up = False
    for seed in range(60):
        rnd = play("jiaxing", seed, OPTION_SETS["jiaxing"][1], check=False)
        check_result(rnd)
        outcomes.add(rnd.result.win_by)
        santan |= bool(rnd.santan_pairs)
        gave_up |= bool(rnd.gave_up)
    for seed in range(60):
        rnd = play("wenling", seed, {}, check=False)
        check_result(rnd)
        outcomes.add(rnd.result.win_by)
    assert {"self_draw", "discard", None} <= outcomes
    assert santan and gave_up


ACTION_TYPES = [
    "discard",
    "win",
    "akong",
    "bukong",
    "lazi",
    "chi",
    "pon",
    "mkong",
    "pass",
    "continue",
    "give_up",
]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    ruleset=st.sampled_from(["jiaxing", "wenling"]),
    stop=st.integers(0, 150),
    attempts=st.lists(
        st.tuples(st.sampled_from(ACTION_TYPES), st.integers(0, 3), st.integers(0, 41)),
        min_size=1,
        max_size=8,
    ),
)
def test_illegal_actions_change_nothing(seed: int, ruleset: str, stop: int, attempts) -> None:
    rnd = Round.from_seed(ruleset, seed.to_bytes(8, "big"))
    rng = random.Random(seed)
    for _ in range(stop):
        if rnd.ended:
            break
        seat = rnd.to_act[0]
        rnd.apply(pick(rng, rnd.legal_actions(seat)))
    for kind, seat, tile in attempts:
        action = Action(
            kind,
            seat,
            tile if kind in ("discard", "akong", "bukong") else None,
            (tile, min(tile + 1, 41)) if kind == "chi" else None,
        )
        if action in rnd.legal_actions(seat):
            continue
        before = snapshot(rnd)
        try:
            rnd.apply(action)
        except IllegalAction as exc:
            assert str(exc) and "Traceback" not in str(exc)
        else:
            raise AssertionError(f"{action} was accepted")
        assert snapshot(rnd) == before


@settings(max_examples=80, deadline=None)
@given(
    obj=st.one_of(
        st.none(),
        st.integers(),
        st.text(max_size=5),
        st.dictionaries(
            st.sampled_from(["type", "seat", "tile", "tiles", "x"]),
            st.one_of(
                st.none(),
                st.integers(-2, 5),
                st.text(max_size=3),
                st.sampled_from(ACTION_TYPES + ["5m", "*", "f9"]),
                st.lists(st.sampled_from(["1m", "2m", "x", "*"]), max_size=3),
            ),
            max_size=5,
        ),
    )
)
def test_malformed_actions_are_refused_cleanly(obj) -> None:
    rnd = Round.from_seed("jiaxing", b"malformed")
    before = snapshot(rnd)
    try:
        rnd.apply(obj)
    except EngineError as exc:
        assert str(exc)
    else:
        assert isinstance(obj, dict)  # only a real, legal action may pass
    if len(rnd.actions) == 0:
        assert snapshot(rnd) == before
