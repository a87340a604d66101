"""The ``search`` bot: legal and repeatable play, and a search that does what it says (the
same worlds for every candidate, ``expert``'s choice unless an alternative leads it clearly,
never more rollouts than its budget)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from baida.bots.arena import BotTally, engine_seed, play_hand
from baida.bots.expert import ExpertBot
from baida.bots.policy import LADDER, make_bot
from baida.bots.rollout import RolloutPolicy, play_out
from baida.bots.search import SearchBot, SearchResult, hand_weights
from baida.engine import Round
from baida.engine.determinize import Determinizer


def _play(ruleset: str, seed: int, bot_seed: int, json_seats: bool = False) -> list[Any]:
    rnd = Round.from_seed(ruleset, engine_seed(seed))
    bots = [SearchBot(seed=bot_seed + s, worlds=3, max_worlds=6) for s in range(4)]
    while not rnd.ended:
        seat = rnd.to_act[0]
        view = rnd.view(seat)
        legal = rnd.legal_actions(seat)
        if json_seats and seat % 2:
            choice = bots[seat].choose(view.to_json(), [a.to_json() for a in legal])
            rnd.apply(choice)
        else:
            choice = bots[seat].choose(view, legal)
            assert choice in legal
            rnd.apply(choice)
    return [a.to_json() for a in rnd.actions]


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_plays_legally_and_repeatably_from_views_or_their_json(ruleset: str) -> None:
    assert _play(ruleset, 31, 5) == _play(ruleset, 31, 5, json_seats=True)


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_sits_at_a_table_with_the_ladder(ruleset: str) -> None:
    seating = ["search", "expert", "strong", "efficient"]
    tallies = {name: BotTally() for name in seating}
    result = play_hand(ruleset, 12, seating, 0, None, tallies)
    assert sum(result["payments"]) == 0
    assert all(t.illegal == 0 for t in tallies.values()), {n: t.errors for n, t in tallies.items()}
    assert "search" in LADDER and make_bot("search", seed=1).name == "search"


def _a_discard_decision(ruleset: str) -> tuple[Round, int]:
    rnd = Round.from_seed(ruleset, engine_seed(44))
    policy = RolloutPolicy(rnd)
    while True:
        seat = rnd.to_act[0]
        legal = rnd.legal_actions(seat)
        if rnd.phase == "turn" and len({a.tile for a in legal if a.type == "discard"}) > 4 \
                and rnd.discard_count > 8:
            return rnd, seat
        rnd.apply(policy.choose(rnd, seat, legal))


def test_every_candidate_meets_the_same_worlds() -> None:
    rnd, seat = _a_discard_decision("jiaxing")
    bot = SearchBot(seed=3, worlds=6, max_worlds=6)
    view, legal = rnd.view(seat), rnd.legal_actions(seat)
    candidates, values = bot._candidates(view, legal, ExpertBot(seed=3).choose(view, legal))
    assert len(candidates) == len(values) == 3
    result = bot.search(view, legal, candidates, seed=99)
    assert result.worlds == 6
    assert all(len(p) == 6 for p in result.payoffs)
    # replaying each candidate in each world by hand gives the recorded payoffs
    for world in range(6):
        for i, action in enumerate(candidates):
            sample = Determinizer(view).sample(random.Random(99 + world), hand_weights(view))
            assert play_out(sample, action)[seat] == result.payoffs[i][world]


def test_the_leader_is_named_by_the_first_worlds_and_confirmed_on_fresh_ones() -> None:
    assert SearchBot._leader(SearchResult(["a", "b", "c"], [[0.0, 0.0], [1.0, 1.0],
                                                              [3.0, -1.0]])) == 1
    assert SearchBot._leader(SearchResult(["a", "b"], [[1.0, 1.0], [0.0, 2.0]])) == 0
    rnd, seat = _a_discard_decision("jiaxing")
    view, legal = rnd.view(seat), rnd.legal_actions(seat)
    bot = SearchBot(seed=4, worlds=4, max_worlds=10)
    candidates, _ = bot._candidates(view, legal, ExpertBot(seed=4).choose(view, legal))
    result = bot.search(view, legal, candidates, seed=7)
    lengths = sorted(len(p) for p in result.payoffs)
    if bot._leader(SearchResult(candidates, [p[:4] for p in result.payoffs])) == 0:
        assert lengths == [4] * len(candidates) and result.chosen == 0
        assert result.confirmed is None
    else:  # the two confirmed on six fresh worlds, the others left at four
        assert lengths[-2:] == [10, 10] and all(n == 4 for n in lengths[:-2])
        leader = next(i for i, p in enumerate(result.payoffs) if i and len(p) == 10)
        fresh = SearchResult(["own", "leader"], [result.payoffs[0][4:], result.payoffs[leader][4:]])
        assert result.confirmed == fresh.lead(1, 0)
        assert (result.chosen == leader) == (fresh.lead(1, 0)[0] > 2.0 * fresh.lead(1, 0)[1])


def test_never_plays_more_rollouts_than_its_budget() -> None:
    rnd, seat = _a_discard_decision("wenling")
    bot = SearchBot(seed=2, worlds=2, max_worlds=6, top=3)
    view, legal = rnd.view(seat), rnd.legal_actions(seat)
    bot.choose(view, legal)
    assert bot.last is not None
    assert bot.budget("wenling") == bot.budget("jiaxing") == 2 * 3 + 4 * 2
    assert sum(len(p) for p in bot.last.payoffs) <= bot.budget("wenling")
    assert bot.last.worlds <= 6 and len(bot.last.candidates) <= 3
    with pytest.raises(ValueError, match="worlds"):
        SearchBot(worlds=5, max_worlds=4)
    with pytest.raises(ValueError, match="both"):
        SearchBot(worlds=5)


def test_the_default_sizes_follow_the_ruleset() -> None:
    """Wenling's rollouts are longer: its default search plays fewer of them than Jiaxing's."""
    bot = SearchBot(seed=2)
    assert bot.budget("jiaxing") == 6 * 3 + 12 * 2
    assert bot.budget("wenling") == 5 * 3 + 10 * 2
    rnd, seat = _a_discard_decision("wenling")
    bot.choose(rnd.view(seat), rnd.legal_actions(seat))
    assert bot.last is not None
    assert bot.last.worlds <= 15 and sum(len(p) for p in bot.last.payoffs) <= 35


def test_a_seat_showing_a_flush_is_dealt_more_of_its_suit() -> None:
    """The opponent model: melds all in one suit make that suit likelier in the hidden hand."""
    rnd = Round.from_seed("jiaxing", engine_seed(5))
    policy = RolloutPolicy(rnd)
    target = None
    while target is None and not rnd.ended:
        seat = rnd.to_act[0]
        legal = rnd.legal_actions(seat)
        rnd.apply(next((a for a in legal if a.type == "pon"), None)
                  or policy.choose(rnd, seat, legal))
        suited = [s for s in range(4) if rnd.melds[s] and all(m.tile < 27 for m in rnd.melds[s])]
        if suited and rnd.phase == "turn" and rnd.turn != suited[0]:
            target = suited[0]
    assert target is not None
    view = rnd.view(rnd.turn)
    suit = rnd.melds[target][0].tile // 9
    weights = hand_weights(view)
    assert weights(target, 9 * suit + 4) > weights(target, 9 * ((suit + 1) % 3) + 4)
    sampler = Determinizer(view)

    def in_suit(tiles: list[int]) -> int:
        return sum(1 for t in tiles if t < 27 and t // 9 == suit)

    plain = sum(in_suit(sampler.sample(random.Random(i)).concealed(target)) for i in range(200))
    flushed = sum(in_suit(sampler.sample(random.Random(i), weights).concealed(target))
                  for i in range(200))
    assert flushed > plain * 1.2


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_claims_and_santan_are_expert_s(ruleset: str) -> None:
    """Only the own turn is searched: a claim window or a 三摊 ask is answered as ``expert``."""
    rnd = Round.from_seed(ruleset, engine_seed(9))
    policy = RolloutPolicy(rnd)
    asked = 0
    while not rnd.ended and asked < 6:
        seat = rnd.to_act[0]
        legal = rnd.legal_actions(seat)
        if rnd.phase != "turn" and len(legal) > 1:
            view = rnd.view(seat)
            bot, expert = SearchBot(seed=3), ExpertBot(seed=3)
            assert bot.choose(view, legal) == expert.choose(view, legal)
            assert bot.last is None  # no rollout was played
            asked += 1
        rnd.apply(policy.choose(rnd, seat, legal))
    assert asked


def test_a_rollout_seat_far_from_ready_folds_where_discards_win() -> None:
    """Wenling: a seat that would not be ready throws no tile completing another hand while it
    holds a safe one; a ready seat (or one in Jiaxing, with no discard wins) plays on."""
    folds = plays = 0
    for seed in range(40):
        rnd = Round.from_seed("wenling", engine_seed(seed))
        policy = RolloutPolicy(rnd)
        while not rnd.ended:
            seat = rnd.to_act[0]
            legal = rnd.legal_actions(seat)
            choice = policy.choose(rnd, seat, legal)
            if choice.type == "discard" and choice.tile < 34:
                kinds = {a.tile for a in legal if a.type == "discard" and a.tile < 34
                         and a.tile not in rnd.wild_kinds}
                unsafe = {k for k in kinds if any(rnd._complete_with(o, k) for o in range(4)
                                                  if o != seat and o not in rnd.gave_up)}
                if unsafe and kinds - unsafe:
                    c = rnd.cnt[seat][:34]
                    c[choice.tile] -= 1
                    ready = min(distance_to_any(c, len(rnd.wild[seat]), rnd), 99) <= 0
                    if choice.tile in unsafe:
                        assert ready, f"seed {seed}: a seat far from ready fed {choice.tile}"
                        plays += 1
                    else:
                        folds += 1
            rnd.apply(choice)
    assert folds > 0 and plays > 0, (folds, plays)
    assert not RolloutPolicy(Round.from_seed("jiaxing", engine_seed(1))).fold


def distance_to_any(counts: list[int], wilds: int, rnd: Round) -> int:
    from baida.evaluator import shanten

    return shanten(counts, wilds, rnd.rules.sets - len(rnd.melds[rnd.turn]))


def test_expert_rates_its_own_choice_first_among_the_candidates() -> None:
    rnd, seat = _a_discard_decision("wenling")
    view, legal = rnd.view(seat), rnd.legal_actions(seat)
    bot = SearchBot(seed=6)
    candidates, values = bot._candidates(view, legal, ExpertBot(seed=6).choose(view, legal))
    rated = ExpertBot(seed=6).evaluate(view, legal)
    assert len(candidates) == len(values) >= 2
    for action, value in zip(candidates, values, strict=True):
        assert value == next(s.value for s in rated if s.action == action)
    assert values[1:] == sorted(values[1:], reverse=True)
    result = SearchResult(candidates, [[] for _ in candidates], values=values)
    assert [result.gap(i) for i in range(len(values))] == [
        max(0.0, values[0] - v) for v in values]


def test_a_rollout_stops_at_the_seats_own_turn_when_given_a_horizon() -> None:
    rnd, seat = _a_discard_decision("jiaxing")
    first = next(a for a in rnd.legal_actions(seat) if a.type == "discard")
    for turns in (1, 3):
        sample = Determinizer(rnd.view(seat)).sample(random.Random(5))
        before = len(sample.actions)
        got = play_out(sample, first, seat=seat, turns=turns)
        assert got is None, "this deal's hand goes on past the seat's third turn"
        # stopped before the seat acts: its own turn, a tile drawn, the hand not over
        assert sample.phase == "turn" and sample.to_act[0] == seat and not sample.ended
        own = [a.type for a in sample.actions[before:] if a.seat == seat]
        assert own.count("discard") == turns  # the first discard, then one a turn between
    whole = Determinizer(rnd.view(seat)).sample(random.Random(5))
    assert play_out(whole, first) is not None and whole.ended
    with pytest.raises(ValueError, match="horizon"):
        SearchBot(horizon=0)


def test_a_search_with_a_horizon_values_the_stopped_hands_by_expert() -> None:
    rnd, seat = _a_discard_decision("jiaxing")
    view, legal = rnd.view(seat), rnd.legal_actions(seat)
    bot = SearchBot(seed=8, worlds=3, max_worlds=3, horizon=1)
    candidates, values = bot._candidates(view, legal, ExpertBot(seed=8).choose(view, legal))
    result = bot.search(view, legal, candidates, seed=11, values=values)
    for world in range(3):
        sample = Determinizer(view).sample(random.Random(11 + world), hand_weights(view))
        ended = play_out(sample, candidates[0], seat=seat, turns=1)
        expected = float(ended[seat]) if ended is not None else max(
            s.value for s in ExpertBot(seed=8).evaluate(sample.view(seat),
                                                         sample.legal_actions(seat))
            if s.eligible)
        assert result.payoffs[0][world] == pytest.approx(expected)
