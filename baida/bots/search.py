"""``search``: ``expert``'s candidates played forward in sampled hands (determinized Monte Carlo).

At an own-turn decision (a discard or a kong; claims and 三摊 are ``expert``'s) with more
than one sensible action, the few best of ``expert``'s candidates
(its own choice always among them) are each played to the end of the hand in the same
sampled worlds: hands that agree with everything this seat sees, the hidden tiles dealt at
random (``engine.determinize``), every seat then played by the fast policy of
``rollout``. A candidate's worth is its mean settlement to this seat, in points.

The comparison is paired (every candidate meets the same worlds) and in two stages: the
first ``worlds`` worlds play every candidate and name the leading alternative, if one leads
``expert``'s choice at all; fresh worlds, up to ``max_worlds``, then play only the two, and
the alternative is played only when its lead in those fresh worlds is ``z`` standard errors
clear. So the bot is ``expert`` wherever the samples do not say otherwise, it spends its work
where they might, and no world is looked at twice (a first version stopped at the first
clear look, and paid for it: benchmarks-history.md, "The search bot").

The budget is counted in rollouts (work units), never in wall time: a decision is a pure
function of the view, the legal actions and the seed, and an arena run can be repeated.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.determinize import DeterminizeError, Determinizer
from ..engine.views import View
from ..rulesets import Jiaxing, Ruleset, Wenling, as_ruleset
from .expert import ActionValue, ExpertBot
from .features import read_view, view_dict
from .opponents import read_opponents
from .policy import action_type
from .rollout import play_out

# (worlds, max_worlds) by ruleset, sized to the hall's limit of a median decision under 100 ms
# on one core: at (8, 24) the median decision took 116 ms of CPU in Jiaxing and 152 ms in
# Wenling, whose rollouts are longer (16-tile hands, the seats fold) (benchmarks-history.md,
# "The search bot, third version").
DEFAULT_SIZES: dict[type[Ruleset], tuple[int, int]] = {Jiaxing: (6, 18), Wenling: (5, 15)}
DEFAULT_TOP = 3
DEFAULT_Z = 2.0
# The opponent model of the sampled hands: a seat whose suited melds share one suit holds more
# of that suit (and of the honours, without a 吃 shown) and less of the others; a kind a seat
# threw away is a little less likely to be in its hand.
FLUSH_SUIT_WEIGHT = 2.0
FLUSH_HONOUR_WEIGHT = 1.5
FLUSH_OTHER_WEIGHT = 0.5
DISCARDED_WEIGHT = 0.7
# Only the own turn is searched: the claims and 三摊 answers the rollouts judged were worse
# than ``expert``'s (benchmarks-history.md, "The search bot"), so ``expert`` keeps them.
SEARCHED = ("discard", "akong", "bukong")


@dataclass(slots=True)
class SearchResult:
    """What one search found: each candidate's rollout payoffs (same worlds, same order)."""

    candidates: list[Any]
    payoffs: list[list[float]] = field(default_factory=list)  # per candidate
    chosen: int = 0  # index into candidates
    values: list[float] = field(default_factory=list)  # ``expert``'s value of each candidate
    confirmed: tuple[float, float] | None = None  # the leader's lead and its standard error
    # in the fresh worlds of the second stage, when there was one

    @property
    def worlds(self) -> int:
        return len(self.payoffs[0]) if self.payoffs else 0

    def gap(self, i: int) -> float:
        """How much less ``expert`` values candidate ``i`` than its own choice (never below 0)."""
        if not self.values:
            return 0.0
        return max(0.0, self.values[0] - self.values[i])

    def lead(self, i: int, j: int) -> tuple[float, float]:
        """Mean and standard error of candidate ``i``'s payoff minus ``j``'s."""
        diffs = [a - b for a, b in zip(self.payoffs[i], self.payoffs[j], strict=True)]
        n = len(diffs)
        if n == 0:
            return 0.0, math.inf
        mean = sum(diffs) / n
        if n < 2:
            return mean, math.inf
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, math.sqrt(var / n)


class SearchBot:
    """``expert`` whose close calls are settled by playing them out in sampled hands."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        worlds: int | None = None,
        max_worlds: int | None = None,
        top: int = DEFAULT_TOP,
        z: float = DEFAULT_Z,
        horizon: int | None = None,
    ) -> None:
        """``worlds`` and ``max_worlds`` default by ruleset (``DEFAULT_SIZES``); given, they
        hold for every ruleset. With ``horizon``, a rollout stops at the seat's
        ``horizon``-th own turn and is worth ``expert``'s value of the hand there (the best of
        its actions), unless the hand ended before."""
        if horizon is not None and horizon < 1:
            raise ValueError("a horizon counts own turns: at least 1, or None (to the end)")
        if (worlds is None) != (max_worlds is None):
            raise ValueError("give both worlds and max_worlds, or neither (the ruleset's)")
        for w, m in DEFAULT_SIZES.values() if worlds is None else [(worlds, max_worlds)]:
            assert m is not None
            if w < 2 or m < w or m - w == 1:
                raise ValueError("a search needs worlds >= 2 and max_worlds = worlds or at "
                                 "least worlds + 2")
        if top < 2:
            raise ValueError("a search compares at least two candidates (top >= 2)")
        self.expert = ExpertBot(seed=seed)
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.max_worlds = max_worlds
        self.top = top
        self.z = z
        self.horizon = horizon
        # values the hands where a rollout stops (with a horizon)
        self.leaf = ExpertBot(seed=seed) if horizon is not None else None
        self.last: SearchResult | None = None  # the last decision's search, for reports

    def sizes(self, ruleset: str) -> tuple[int, int]:
        """``(worlds, max_worlds)`` of a search in ``ruleset``."""
        if self.worlds is not None and self.max_worlds is not None:
            return self.worlds, self.max_worlds
        return DEFAULT_SIZES[type(as_ruleset(ruleset))]

    def budget(self, ruleset: str) -> int:
        """The most rollouts one decision in ``ruleset`` may play (its work units)."""
        worlds, max_worlds = self.sizes(ruleset)
        return worlds * self.top + (max_worlds - worlds) * 2

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        self.last = None
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        default = self.expert.choose(view, legal_actions)
        if len(legal_actions) == 1 or action_type(default) in ("win", "lazi"):
            return default
        if not any(action_type(a) in SEARCHED for a in legal_actions):
            return default
        candidates, values = self._candidates(view, legal_actions, default)
        if len(candidates) < 2:
            return default
        seed = self.rng.getrandbits(64)
        try:
            result = self.search(view, legal_actions, candidates, seed, values)
        except DeterminizeError:
            return default
        self.last = result
        return result.candidates[result.chosen]

    def _candidates(self, view: Any, legal_actions: Sequence[Any],
                    default: Any) -> tuple[list[Any], list[float]]:
        """``expert``'s choice first, then its next best eligible actions (one per discard
        kind), at most ``top``; and ``expert``'s value of each."""
        scored: list[ActionValue] = self.expert.evaluate(view, legal_actions)
        eligible = [s for s in scored if s.eligible] or scored
        eligible.sort(key=lambda s: -s.value)
        best = eligible[0].value if eligible else 0.0
        out = [default]
        values = [next((s.value for s in scored if s.action == default), best)]
        for s in eligible:
            if len(out) >= self.top:
                break
            if s.action != default and s.action not in out:
                out.append(s.action)
                values.append(s.value)
        return out, values

    def search(self, view: Any, legal_actions: Sequence[Any], candidates: list[Any],
               seed: int, values: Sequence[float] | None = None) -> SearchResult:
        """Play the candidates out in sampled worlds; ``chosen`` is the index of the one to
        play (0, ``expert``'s, unless an alternative leads it clearly).

        Two stages, so that no sample is looked at twice: the first ``worlds`` worlds play
        every candidate and name the leader (the alternative with the largest mean lead); the
        next ``max_worlds - worlds`` worlds, fresh ones, play only the leader and ``expert``'s
        choice, and the leader is played when its lead in those worlds alone is ``z``
        standard errors clear. (Testing the leader on the worlds that chose it would favour
        it; stopping at the first clear look would too.)"""
        v = view if isinstance(view, View) else View.from_json(view_dict(view))
        worlds, max_worlds = self.sizes(v.ruleset)
        seat = v.seat
        assert seat is not None
        sampler = self.sampler(v)
        weights = hand_weights(view)
        options = [_as_engine_action(a) for a in legal_actions]
        result = SearchResult(list(candidates), [[] for _ in candidates],
                              values=list(values) if values is not None else [])

        def play(world: int, indices: Sequence[int], into: list[list[float]]) -> None:
            for i in indices:
                rnd = sampler.sample(random.Random(seed + world), weights)
                if rnd.phase != "turn":
                    rnd.asked[seat] = list(options)  # this seat's options as they are
                    rnd._legal = {}
                payments = play_out(rnd, _as_engine_action(candidates[i]), seat=seat,
                                    turns=self.horizon)
                into[i].append(float(payments[seat]) if payments is not None
                               else self._leaf_value(rnd, seat))

        everyone = range(len(candidates))
        for world in range(worlds):
            play(world, everyone, result.payoffs)
        leader = self._leader(result)
        if leader == 0 or max_worlds == worlds:
            return result
        confirm = SearchResult([candidates[0], candidates[leader]], [[], []])
        fresh: list[list[float]] = [[] for _ in candidates]
        for world in range(worlds, max_worlds):
            play(world, (0, leader), fresh)
        confirm.payoffs = [fresh[0], fresh[leader]]
        result.payoffs[0] += fresh[0]
        result.payoffs[leader] += fresh[leader]
        mean, se = confirm.lead(1, 0)
        result.confirmed = (mean, se)
        if mean > self.z * se:
            result.chosen = leader
        return result

    def sampler(self, view: View) -> Determinizer:
        """What deals this search's worlds: hands agreeing with ``view`` (a bench that measures
        what the search could do with more knowledge swaps in one that knows more)."""
        return Determinizer(view)

    def _leaf_value(self, rnd: Any, seat: int) -> float:
        """``expert``'s value of ``seat``'s hand at its own turn: its best eligible action's."""
        assert self.leaf is not None
        scored = self.leaf.evaluate(rnd.view(seat), rnd.legal_actions(seat))
        eligible = [s.value for s in scored if s.eligible] or [s.value for s in scored]
        return max(eligible)

    @staticmethod
    def _leader(result: SearchResult) -> int:
        """The alternative whose mean lead over ``expert``'s choice is largest and positive
        (0: none leads)."""
        best, best_mean = 0, 0.0
        for i in range(1, len(result.candidates)):
            mean, _ = result.lead(i, 0)
            if mean > best_mean:
                best, best_mean = i, mean
        return best


def hand_weights(view: Any) -> Any:
    """How likely each kind is in each other seat's hidden hand (relative weights), from
    what its melds and discards show; a function ``(seat, kind) -> weight``."""
    v = view_dict(view)
    table: dict[int, list[float]] = {}
    for o in read_opponents(read_view(v), v):
        row = [1.0] * 42
        if o.melds_count and o.suit is not None:
            for k in range(27):
                row[k] = FLUSH_SUIT_WEIGHT if k // 9 == o.suit else FLUSH_OTHER_WEIGHT
            for k in range(27, 34):
                row[k] = FLUSH_HONOUR_WEIGHT if not o.chi else 1.0
        for k in set(o.discards):
            if k < 42:
                row[k] *= DISCARDED_WEIGHT
        table[o.seat] = row
    return lambda seat, kind: table[seat][kind] if seat in table else 1.0


def _as_engine_action(action: Any) -> Any:
    """An engine ``Action`` for ``action`` (the object itself, or one made from its JSON)."""
    if isinstance(action, dict):
        from ..engine.actions import Action

        return Action.from_json(action)
    return action
