"""``random``: a uniformly random legal action, the bottom rung of the ladder.

The engine's author provides ``baida.bots.random_bot``; when it offers a policy class it is
used as is, so the hall and the arena share one random player. Otherwise this module's
own uniform choice stands in (the behaviour is the same: any legal action, equally likely).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


class UniformRandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return self.rng.choice(list(legal_actions))


def _engine_random_bot() -> type | None:
    try:
        from . import random_bot
    except ImportError:
        return None
    for attr in ("RandomBot", "RandomPolicy", "Random"):
        cls = getattr(random_bot, attr, None)
        if isinstance(cls, type) and hasattr(cls, "choose"):
            return cls
    return None


def RandomBot(seed: int | None = None) -> Any:  # noqa: N802 - a factory standing for a class
    """The random-legal policy (``random_bot``'s when available)."""
    cls = _engine_random_bot()
    if cls is not None:
        try:
            bot = cls(seed=seed)
        except TypeError:
            bot = cls(random.Random(seed))
        if not hasattr(bot, "name"):
            bot.name = "random"
        return bot
    return UniformRandomBot(seed=seed)
