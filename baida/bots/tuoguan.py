"""托管: the policy the server plays for a stalled or dropped player.

It is the ``expert`` bot at its cheaper budget (``TUOGUAN_BUDGET_MS``; well inside the
decision-time limits, see docs/bots.md), guarded: an exception or an answer that is not one of
the legal actions falls back to ``efficient``, then to a safe rule (win if possible, else pass,
else discard the tile just drawn, else the first legal action). If ``expert`` ever takes longer
than ``slow_seconds`` on a decision, the instance keeps to ``efficient`` from then on, so a
table is never held up twice.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from .efficient import EfficientBot
from .expert import CHEAP_BUDGET_MS, ExpertBot
from .features import view_dict
from .policy import action_tile, action_type

log = logging.getLogger(__name__)

TUOGUAN_BUDGET_MS = CHEAP_BUDGET_MS


def safe_action(view: Any, legal_actions: Sequence[Any]) -> Any:
    """A legal action chosen by fixed rules, needing no evaluation."""
    by_type: dict[str, list[Any]] = {}
    for a in legal_actions:
        by_type.setdefault(action_type(a), []).append(a)
    for kind in ("lazi", "win", "pass", "continue"):
        if kind in by_type:
            return by_type[kind][0]
    discards = by_type.get("discard")
    if discards:
        try:
            me = view_dict(view)
            drawn = me["players"][me["seat"]].get("drawn")
        except Exception:  # the view is only a hint here
            drawn = None
        if drawn is not None:
            for a in discards:
                if _same_tile(a, drawn):
                    return a
        return discards[-1]
    return legal_actions[0]


def _same_tile(action: Any, face: str) -> bool:
    from ..tiles import parse_tile

    try:
        return action_tile(action) == parse_tile(face)
    except Exception:
        return False


class TuoguanBot:
    """Expert play with a safe fallback for hall seats on auto-play."""

    name = "tuoguan"

    def __init__(
        self,
        seed: int | None = None,
        slow_seconds: float = 0.5,
        budget_ms: float = TUOGUAN_BUDGET_MS,
    ) -> None:
        self.primary = ExpertBot(seed=seed, budget_ms=budget_ms)
        self.backup = EfficientBot(seed=seed)
        self.slow_seconds = slow_seconds
        self.degraded = False

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        chain = (self.backup,) if self.degraded else (self.primary, self.backup)
        for bot in chain:
            start = time.perf_counter()
            try:
                action = bot.choose(view, legal_actions)
            except Exception:
                log.exception("托管: %s failed; falling back", bot.name)
                continue
            if bot is self.primary and time.perf_counter() - start > self.slow_seconds:
                self.degraded = True
            if action in legal_actions:
                return action
            log.error("托管: %s answered an illegal action %r; falling back", bot.name, action)
        return safe_action(view, legal_actions)
