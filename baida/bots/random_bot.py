"""The simplest policy: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class RandomBot:
    """Picks uniformly among the legal actions; deterministic for a given seed."""

    name = "random"

    def __init__(self, seed: int | str | bytes = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: Any, legal_actions: Sequence[T]) -> T:
        """One of ``legal_actions`` (Action objects or their JSON); the view is not consulted."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[self._rng.randrange(len(legal_actions))]


def choose(view: Any, legal_actions: Sequence[T], rng: random.Random | None = None) -> T:
    """A random legal action using ``rng`` (a fresh seed-0 generator when omitted)."""
    if not legal_actions:
        raise ValueError("no legal action to choose from")
    return legal_actions[(rng or random.Random(0)).randrange(len(legal_actions))]
