"""bench.oracle_search: the search given the real round, to see what limits it."""

from __future__ import annotations

import random

import pytest

from baida.bots.arena import engine_seed
from baida.bots.expert import ExpertBot
from baida.bots.search import SearchBot
from baida.engine import Round
from bench.oracle_search import OracleSearch, TrueWorlds, main, play_set


def _a_turn_in_play(ruleset: str = "jiaxing", seed: int = 12, turns: int = 6) -> Round:
    """A round some turns in, at a seat's own turn with a choice of discards."""
    rnd = Round.from_seed(ruleset, engine_seed(seed))
    bot = ExpertBot(seed=seed)
    seen = 0
    while True:
        seat = rnd.to_act[0]
        legal = rnd.legal_actions(seat)
        if rnd.phase == "turn" and len(legal) > 2:
            seen += 1
            if seen > turns:
                return rnd
        rnd.apply(bot.choose(rnd.view(seat), legal))
        assert not rnd.ended


def _live(rnd: Round) -> list[int]:
    return rnd.wall[rnd.head:rnd.tail]


def test_a_world_that_knows_all_is_the_round_itself_and_leaves_it_untouched() -> None:
    truth = _a_turn_in_play()
    events, live = list(truth.events), _live(truth)
    world = TrueWorlds(truth, shuffle_wall=False).sample(random.Random(1))
    assert world is not truth
    assert _live(world) == _live(truth)
    assert world.cnt == truth.cnt and world.melds == truth.melds
    assert truth.events == events  # the history is put back
    discard = next(a for a in world.legal_actions(world.to_act[0]) if a.type == "discard")
    world.apply(discard)
    assert sum(map(len, world.discards)) == sum(map(len, truth.discards)) + 1
    assert truth.events == events and _live(truth) == live


def test_a_world_that_knows_the_hands_keeps_them_and_reshuffles_only_the_live_wall() -> None:
    truth = _a_turn_in_play()
    worlds = TrueWorlds(truth, shuffle_wall=True)
    a, b = worlds.sample(random.Random(1)), worlds.sample(random.Random(2))
    for world in (a, b):
        assert world.cnt == truth.cnt
        assert (world.head, world.tail) == (truth.head, truth.tail)
        assert sorted(_live(world)) == sorted(_live(truth))
        assert world.wall[:truth.head] == truth.wall[:truth.head]
        assert world.wall[truth.tail:] == truth.wall[truth.tail:]
    assert _live(a) != _live(b)


def test_a_search_that_knows_all_sees_the_same_future_in_every_world() -> None:
    truth = _a_turn_in_play()
    seat = truth.to_act[0]
    bot = OracleSearch(seed=5, knows="all")
    bot.truth = truth
    action = bot.choose(truth.view(seat), truth.legal_actions(seat))
    assert action in truth.legal_actions(seat)
    assert bot.last is not None
    for payoffs in bot.last.payoffs:
        assert len(set(payoffs)) == 1  # one real wall, one fast policy: one outcome


def test_a_search_that_knows_nothing_is_the_shipped_one() -> None:
    truth = _a_turn_in_play()
    seat = truth.to_act[0]
    honest = OracleSearch(seed=5, knows="nothing")
    honest.truth = truth
    shipped = SearchBot(seed=5)
    view, legal = truth.view(seat), truth.legal_actions(seat)
    assert honest.choose(view, legal) == shipped.choose(view, legal)
    assert honest.last is not None and shipped.last is not None
    assert honest.last.payoffs == shipped.last.payoffs


def test_refuses_an_unknown_knowledge() -> None:
    with pytest.raises(ValueError, match="knows is one of"):
        OracleSearch(seed=1, knows="everything")


def test_a_set_is_the_deal_in_both_seatings(capsys) -> None:
    result = play_set("jiaxing", 9_300_999, "all")
    assert result.oracle_wins + result.expert_wins <= 2
    assert result.decisions_ms and result.overrides >= 0
    main(["--ruleset", "jiaxing", "--knows", "all", "--sets", "1", "--seed-start", "9300998",
          "--workers", "1"])
    out = capsys.readouterr().out
    assert "oracle − expert" in out and "per seat-hand" in out
