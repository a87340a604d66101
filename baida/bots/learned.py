"""``learned``: ``expert`` whose choice among its best discards is settled by a learned value.

At an own-turn discard, ``expert`` values every action; its choice and its next best discards
(at most ``top``, one per kind, natural tiles only) are described by ``value_features`` and
valued by a model trained on the outcomes of self-play hands (``bench.value_data`` and
``bench.value_train``). The alternative with the highest learned value is played when it beats
``expert``'s choice by more than ``margin`` points; everything else (claims, kongs, 三摊,
wins) is ``expert``'s.

With ``explore`` the bot instead plays a random one of those candidates that often (the data
that teaches the model what the other candidates are worth), and keeps each decision's rows
in ``last``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .expert import ActionValue, ExpertBot, Table
from .planner import Plan
from .policy import action_tile, action_type
from .value_features import FEATURES, discard_features
from .value_model import ModelError, ValueModel


@dataclass(slots=True)
class LearnedChoice:
    """One discard decision as the model saw it: the candidates' rows (``expert``'s first)."""

    rows: list[list[float]]
    chosen: int
    explored: bool
    values: list[float] = field(default_factory=list)  # the model's, when there is one


class LearnedBot(ExpertBot):
    """``expert`` with a learned value over its best few discards."""

    name = "learned"

    def __init__(self, seed: int | None = None, model: ValueModel | str | Path | None = None,
                 top: int = 3, margin: float = 0.0, explore: float = 0.0) -> None:
        """``model``: a ``ValueModel`` or the path of its file; None plays ``expert``'s
        choices (what ``bench.value_data`` seats, with ``explore``)."""
        super().__init__(seed=seed)
        if top < 2:
            raise ValueError("the model compares at least two candidates (top >= 2)")
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"explore is a probability, got {explore!r}")
        self.top = top
        self.margin = margin
        self.explore = explore
        self.explore_rng = random.Random(None if seed is None else seed + 7919)
        self.model = model if model is None or isinstance(model, ValueModel) else (
            ValueModel.load(model))
        if self.model is not None and self.model.features != FEATURES:
            raise ModelError("the model reads other inputs than value_features.FEATURES")
        self._plans: dict[int, list[Plan]] = {}
        self._seen_table: Table | None = None
        self.last: LearnedChoice | None = None

    def _discard_plans(self, table: Table, naturals: Sequence[int]) -> dict[int, list[Plan]]:
        plans = super()._discard_plans(table, naturals)
        self._plans, self._seen_table = plans, table
        return plans

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        self.last = None
        types = {action_type(a) for a in legal_actions}
        model = self.model
        if (len(legal_actions) == 1 or "discard" not in types
                or types & {"win", "lazi", "continue", "akong", "bukong"}
                or (model is None and self.explore == 0.0)):
            return super().choose(view, legal_actions)
        self._plans, self._seen_table = {}, None
        scored = self.evaluate(view, legal_actions)
        default = self.pick(scored)
        candidates = self._candidates(scored, default)
        if len(candidates) < 2 or self._seen_table is None:
            return default.action
        table, plans = self._seen_table, self._plans
        nearest = min((ps[0].distance for ps in plans.values() if ps), default=99)
        rows = [discard_features(table, action_tile(c.action), plans[action_tile(c.action)], c,
                                 nearest) for c in candidates]
        choice = LearnedChoice(rows, 0, False)
        if self.explore and self.explore_rng.random() < self.explore:
            choice.chosen, choice.explored = self.explore_rng.randrange(len(candidates)), True
        elif model is not None:
            choice.values = [model.predict(r) for r in rows]
            best = max(range(1, len(rows)), key=lambda i: choice.values[i])
            if choice.values[best] - choice.values[0] > self.margin:
                choice.chosen = best
        self.last = choice
        return candidates[choice.chosen].action

    def _candidates(self, scored: Sequence[ActionValue],
                    default: ActionValue) -> list[ActionValue]:
        """``expert``'s choice, then its next best eligible natural discards (one per kind)."""
        if (action_type(default.action) != "discard"
                or action_tile(default.action) not in self._plans):
            return [default]
        out = [default]
        kinds = {action_tile(default.action)}
        for s in sorted((s for s in scored if s.eligible), key=lambda s: -s.value):
            if len(out) >= self.top:
                break
            if action_type(s.action) != "discard":
                continue
            k = action_tile(s.action)
            if k in self._plans and k not in kinds:
                out.append(s)
                kinds.add(k)
        return out
