"""The exact values of Wenling ready hands (``baida.bots.exact_value``) against the engine's own
scoring of the wins that actually happen, and their weighing."""

from __future__ import annotations

import hashlib

import pytest

from baida.bots.exact_value import LIMIT, ReadyValuer
from baida.bots.features import read_view
from baida.bots.planner import EXACT_READY_SCALE, RON_FACTOR, Planner
from baida.bots.policy import make_bot
from baida.engine import Round
from baida.tiles import WILD, parse_tiles


def _flat(kind: int) -> float:
    return RON_FACTOR - 1


def _wins(hands: int, seed_tag: bytes) -> list[tuple[object, dict]]:
    """(the winner's view when it chose to win, the result) of every win by a draw or a
    discard in ``hands`` hands of four ``efficient`` bots (a kong's replacement aside)."""
    out = []
    for s in range(hands):
        rnd = Round.from_seed("wenling", seed=hashlib.sha256(seed_tag + b"%d" % s).digest())
        bots = [make_bot("efficient", seed=s * 4 + i) for i in range(4)]
        chose_win: dict[int, object] = {}
        while not rnd.ended:
            seat = rnd.to_act[0]
            view = rnd.view(seat)
            action = bots[seat].choose(view, rnd.legal_actions(seat))
            if action.type == "win":
                chose_win[seat] = view
            rnd.apply(action)
        result = rnd.result.to_json()
        if result["outcome"] != "win" or result["win_by"] not in ("self_draw", "discard"):
            continue
        if any(f["name"] == "杠上开花" for f in result["score"]["fan"]):
            continue  # the valuer does not know which draw is a kong's replacement
        out.append((chose_win[result["winner"]], result))
    return out


def test_every_win_scores_what_the_valuer_said_the_ready_hand_would() -> None:
    wins = _wins(60, b"exact-value-")
    assert len(wins) >= 50
    for view, result in wins:
        seen = read_view(view)
        counts, wilds = list(seen.counts), seen.wilds
        if result["win_by"] == "self_draw":
            tile = seen.drawn
            assert tile is not None
            if tile in seen.wild_faces:
                wilds -= 1
                key = (WILD, False)
            else:
                counts[tile] -= 1
                key = (tile, False)
        else:
            assert seen.last_discard is not None
            key = (seen.last_discard[1], True)
        totals = ReadyValuer(seen, _flat).totals(counts, wilds, seen.melds)
        assert totals[key] == result["score"]["points"], (result["seed"], key)


def _seen_at_deal(kinds: list[int]) -> object:
    """Seat 0's knowledge at the deal of the first seed whose 得 and specials are none of
    ``kinds``."""
    for seed in range(100):
        seen = read_view(Round.from_seed("wenling", seed=seed.to_bytes(32, "big")).view(0))
        if not (set(kinds) & (seen.wild_faces | seen.special_faces)):
            return seen
    raise AssertionError("no such deal")


def _counts(notation: str) -> list[int]:
    counts = [0] * 34
    for k in parse_tiles(notation):
        counts[k] += 1
    return counts


def test_a_hand_that_is_not_ready_has_no_value() -> None:
    counts = _counts("1m4m7m1p4p7p1s4s7sESWNCF2m")  # 16 tiles, no two together
    valuer = ReadyValuer(_seen_at_deal(parse_tiles("1m4m7m1p4p7p1s4s7sESWNCF2m")), _flat)
    assert valuer.totals(counts, 0, []) == {}
    assert valuer.value(counts, 0, []) is None


def test_the_weights_follow_the_live_tiles_and_a_third_de_is_a_lazi() -> None:
    # a ready hand: 123m 456m 789m 123p 456p and 9s, waiting on 9s (单吊) or a drawn 得
    counts = _counts("123m456m789m123p456p9s")
    seen = _seen_at_deal(parse_tiles("123m456m789m123p456p9s"))
    valuer = ReadyValuer(seen, _flat)
    nine_s = parse_tiles("9s")[0]
    totals = valuer.totals(counts, 0, [])
    assert set(totals) == {(nine_s, False), (nine_s, True), (WILD, False)}
    # 单吊 2 (+ 自摸 2), 无得 1 番: (2 + 20) x 2 = 44 -> 50 on a discard, (4 + 20) x 2 -> 50
    assert totals[(nine_s, True)] == 50 and totals[(nine_s, False)] == 50
    live, wild_live = seen.live[nine_s], seen.live_wilds
    weights = {(nine_s, False): live, (nine_s, True): live * (RON_FACTOR - 1),
               (WILD, False): wild_live}
    expected = sum(weights[k] * totals[k] for k in totals) / sum(weights.values()) / 10
    assert valuer.value(counts, 0, []) == pytest.approx(expected)
    # two 得 in place of 56p: the same hand is ready, and drawing the third is a 腊子
    two_de = _counts("123m456m789m123p4p9s")
    assert ReadyValuer(seen, _flat).totals(two_de, 2, [])[(WILD, False)] == LIMIT


def test_the_planner_values_ready_hands_exactly_only_when_asked() -> None:
    """``Planner(exact_ready=True)`` (``expert`` in Wenling): a ready plan is worth the
    valuer's value at the planner's scale, weighing discards as the planner does; plans
    further from ready, and the planner without the option (``strong``), keep
    ``targets.wenling_value``."""
    counts = _counts("123m456m789m123p456p9s")
    seen = _seen_at_deal(parse_tiles("123m456m789m123p456p9s1s"))
    exact = Planner(seen, exact_ready=True)
    approximate = Planner(seen)
    draws = exact.draws_left()
    ready = [p for p in exact.waiting_plans(list(counts), 0, [], draws) if p.distance == 0]
    assert ready
    expected = ReadyValuer(seen, exact.ron_weight).value(counts, 0, []) * EXACT_READY_SCALE
    assert all(p.value == pytest.approx(expected) for p in ready)
    plain = [p for p in approximate.waiting_plans(list(counts), 0, [], draws) if p.distance == 0]
    assert [p.value for p in plain] == [approximate.value(p.target, counts, 0, []) for p in plain]
    assert plain[0].value != pytest.approx(expected)
    # one step from ready (45p and two lone tiles): the approximation either way
    one_off = _counts("123m456m789m123p45p1s9s")
    further = exact.waiting_plans(list(one_off), 0, [], draws)
    assert further
    for p in further:
        assert p.distance > 0
        assert p.value == approximate.value(p.target, one_off, 0, [])
    # weighted waits weigh the discards by the measured ratios
    weighted = Planner(seen, exact_ready=True, weighted_waits=True)
    nine_s = parse_tiles("9s")[0]
    assert weighted.ron_weight(nine_s) != exact.ron_weight(nine_s) == RON_FACTOR - 1


def test_the_cache_holds_nothing_the_garbage_collector_walks() -> None:
    import gc

    from baida.bots import exact_value

    seen = _seen_at_deal(parse_tiles("123m456m789m123p456p9s"))
    ReadyValuer(seen, _flat).value(_counts("123m456m789m123p456p9s"), 0, [])
    ReadyValuer(seen, _flat).value(_counts("123m456m789m123p45p1s9s"), 0, [])
    for _ in range(4):  # a pass stops tracking a tuple whose items are untracked: keys nest 3 deep
        gc.collect()
    table = exact_value._TOTALS.table
    assert table
    assert not any(gc.is_tracked(k) or gc.is_tracked(v) for k, v in table.items())
