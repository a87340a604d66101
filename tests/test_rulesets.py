"""The ruleset objects: the registry, the facts of Jiaxing and Wenling, and a third ruleset that
is one class and one ``register`` call, played through the engine, the table loop and the bots
without touching any of them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from baida.bots.arena import engine_seed, run_arena
from baida.bots.policy import make_bot
from baida.engine import Action, IllegalAction, Match, Round
from baida.engine.records import replay
from baida.rules.options import JiaxingOptions, OptionError, WenlingOptions
from baida.rulesets import (
    Jiaxing,
    Ruleset,
    RulesetError,
    Wenling,
    names,
    register,
    ruleset,
    unregister,
)
from baida.table import TableDriver, TableTiming, bot_modes, play_bots
from baida.tiles import FLOWERS


class NoChiJiaxing(Jiaxing):
    """A toy relative of Jiaxing: the same game, but no table may allow 吃."""

    name = "jiaxing-nochi"
    title = "Jiaxing without 吃"

    def allows_chi(self, options: Any) -> bool:
        return False


@pytest.fixture
def toy() -> Iterator[Ruleset]:
    register(NoChiJiaxing)
    try:
        yield ruleset("jiaxing-nochi")
    finally:
        unregister("jiaxing-nochi")


def test_the_registry_finds_each_ruleset_by_name() -> None:
    assert names() == ("jiaxing", "wenling")
    assert isinstance(ruleset("jiaxing"), Jiaxing)
    assert isinstance(ruleset("wenling"), Wenling)
    assert ruleset("jiaxing") is ruleset("jiaxing")
    with pytest.raises(RulesetError, match="unknown ruleset 'ningbo'; expected 'jiaxing' or"):
        ruleset("ningbo")
    with pytest.raises(RulesetError):
        ruleset(["jiaxing"])


def test_the_facts_of_the_two_rulesets() -> None:
    jx, wl = ruleset("jiaxing"), ruleset("wenling")
    assert (jx.sets, jx.hand_size, jx.winning_size, len(jx.tiles())) == (4, 13, 14, 136)
    assert (wl.sets, wl.hand_size, wl.winning_size, len(wl.tiles())) == (5, 16, 17, 144)
    assert wl.tiles()[-8:] == list(FLOWERS) and not jx.flowers
    assert (jx.santan, jx.baosanjia, wl.santan, wl.baosanjia) == (True, False, False, True)
    assert (jx.discard_wins, wl.discard_wins) == (False, True)
    assert (jx.least_win, wl.least_win) == (2.0, 3.0)
    assert "quanlaotou" in jx.patterns and "quanlaotou" not in wl.patterns
    assert jx.options_class is JiaxingOptions and wl.options_class is WenlingOptions


def test_the_policies_follow_the_tables_options() -> None:
    jx, wl = ruleset("jiaxing"), ruleset("wenling")
    plain = jx.make_options(None)
    house = jx.make_options({"allow_chi": False, "allow_discard_win": True, "wall_reserve": 14})
    assert (jx.allows_chi(plain), jx.allows_discard_win(plain), jx.draw_floor(plain)) == (
        True, False, 0
    )
    assert (jx.allows_chi(house), jx.allows_discard_win(house), jx.draw_floor(house)) == (
        False, True, 14
    )
    assert jx.choose_wilds(4, plain) == (frozenset({4}), frozenset())
    opts = wl.make_options({"huangpai_pairs": 4})
    assert wl.draw_floor(opts) == 9 and wl.allows_discard_win(opts)
    wilds, specials = wl.choose_wilds(4, opts)
    assert wilds == frozenset({4}) and len(specials) == 9  # 白板 and the eight flowers


def test_options_name_the_ruleset_they_belong_to() -> None:
    with pytest.raises(OptionError, match="not a Jiaxing option \\(it is Wenling's\\)"):
        ruleset("jiaxing").make_options({"flower_flip_specials": True})
    with pytest.raises(OptionError, match="without the 'wl.' prefix"):
        ruleset("jiaxing").make_options({"wl.huangpai_pairs": 3})
    with pytest.raises(OptionError, match="not wenling options"):
        ruleset("wenling").resolve_options(JiaxingOptions())


def test_a_layer_above_keeps_its_parts_per_ruleset_class(toy: Ruleset) -> None:
    table = {Jiaxing: "jx", Wenling: "wl"}
    assert toy.pick(table) == "jx"  # a variant finds its parent's
    assert ruleset("wenling").pick(table) == "wl"
    assert toy.pick({Wenling: 1}, default=0) == 0
    with pytest.raises(RulesetError, match="jiaxing-nochi"):
        toy.pick({Wenling: 1})


# ---------------------------------------------------------------------- a third ruleset


def _play(rules: str, seed: int, bot: str = "greedy") -> Round:
    """One hand of four ``bot``s through the table loop, as the arena plays it."""
    match = Match(rules, None, hands=1)
    driver = TableDriver(match, timing=TableTiming.instant(), modes=bot_modes(None))
    driver.start_hand(engine_seed(seed), 0.0)
    play_bots(driver, [make_bot(bot, seed=seed * 4 + s) for s in range(4)])
    rnd = driver.round
    assert rnd is not None and rnd.ended
    return rnd


def _chis(rnd: Round) -> int:
    return sum(event.type == "chi" for event in rnd.events)


def test_a_third_ruleset_plays_through_the_engine_the_table_and_the_bots(toy: Ruleset) -> None:
    assert names() == ("jiaxing", "wenling", "jiaxing-nochi")
    # a seed on which greedy Jiaxing players make a 吃
    seed = next(s for s in range(40) if _chis(_play("jiaxing", s)))
    rnd = _play("jiaxing-nochi", seed)
    assert rnd.rules is toy and rnd.ruleset == "jiaxing-nochi"
    assert type(rnd).__name__ == "JiaxingRound"  # the engine's Jiaxing hooks, found by class
    assert _chis(rnd) == 0
    assert rnd.view(0).ruleset == "jiaxing-nochi"
    record = rnd.record()
    assert record["ruleset"] == "jiaxing-nochi"
    assert replay(record).matches  # a record names its ruleset; the registry finds it


def test_the_changed_fact_is_the_engines_answer(toy: Ruleset) -> None:
    # a 吃 is refused as the table's rule, whatever the phase
    rnd = Round.from_seed("jiaxing-nochi", b"toy")
    with pytest.raises(IllegalAction, match="this table forbids 吃"):
        rnd.apply(Action("chi", 1, None, (0, 1)))
    same = Round.from_seed("jiaxing", b"toy")
    assert [e.to_json() for e in same.events] == [
        {**e.to_json(), "ruleset": "jiaxing"} if e.type == "hand_start" else e.to_json()
        for e in rnd.events
    ]  # the same deal: the wall and every other fact are Jiaxing's


def test_the_bots_and_the_arena_play_a_third_ruleset(toy: Ruleset) -> None:
    for bot in ("strong", "expert"):
        rnd = _play("jiaxing-nochi", 3, bot)
        assert _chis(rnd) == 0
    result = run_arena("jiaxing-nochi", ["strong", "random"], 2)
    assert result.hands == 4 and result.engine_errors == []
    assert sum(t.illegal for t in result.tallies.values()) == 0


def test_an_unregistered_ruleset_is_refused_at_the_edges() -> None:
    with pytest.raises(ValueError, match="unknown ruleset 'jiaxing-nochi'"):
        Round.from_seed("jiaxing-nochi", b"x")
    with pytest.raises(Exception, match="record.ruleset: expected 'jiaxing' or 'wenling'"):
        replay({"ruleset": "jiaxing-nochi", "seed": "00", "actions": []})
