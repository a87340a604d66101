"""Running a table in one thread with bots that answer at once: the arena and the terminal game.

``play_bots`` answers every bot decision the driver hands out, on an instant table, until
the hand ends or a person must decide. A bot that raises or answers something not offered
is reported through ``on_decision`` and the driver plays the safe fallback instead, so a
broken policy never stops a table.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ..engine import Action
from .driver import BotTurn, Refused, SeatMode, TableDriver

DecisionHook = Callable[[BotTurn, float, str], None]  # (turn, seconds, problem or "")
MAX_DECISIONS = 5000


def choose(policy: Any, turn: BotTurn) -> tuple[Any, str]:
    """The policy's answer to ``turn`` and a problem description ("" when fine)."""
    try:
        return policy.choose(turn.view, turn.legal), ""
    except Exception as exc:  # a bot bug must not stop the table; it is reported
        return None, f"{type(exc).__name__}: {exc}"


def play_bots(
    driver: TableDriver,
    policies: Sequence[Any | None],
    *,
    now: float = 0.0,
    on_decision: DecisionHook | None = None,
    on_cpu: Callable[[BotTurn, float], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> None:
    """Answer bot decisions until the hand is over or only a person's prompt is open.

    ``policies[seat]`` decides for that seat when it is a bot or on 托管 (``None``: the
    seat's person, whom 托管 never replaces on an instant table). ``on_decision`` hears of
    every bot decision (its wall-clock seconds, and a problem or ""), ``on_cpu`` of the
    thread CPU time it took.
    """
    for _ in range(MAX_DECISIONS):
        driver.advance(now)
        turns = driver.bot_turns(now)
        if not turns:
            return
        for turn in turns:
            policy = policies[turn.seat]
            if policy is None:
                raise RuntimeError(f"seat {turn.seat} is a bot seat without a policy")
            start, cpu_start = clock(), time.thread_time()
            action, problem = choose(policy, turn)
            seconds = clock() - start
            if on_cpu is not None:
                on_cpu(turn, time.thread_time() - cpu_start)
            if not problem:
                try:
                    driver.submit(turn.seat, turn.seq, _as_action(action, turn), now)
                except Refused as exc:
                    problem = f"illegal answer {action!r}: {exc.message}"
            if problem:
                driver.bot_failed(turn.seat, turn.seq, now)
            if on_decision is not None:
                on_decision(turn, seconds, problem)
    rnd = driver.round
    raise RuntimeError(f"the hand did not end after {MAX_DECISIONS} decisions ({rnd!r})")


def _as_action(answer: Any, turn: BotTurn) -> Any:
    """A bot may hand back the offered object, an equal ``Action`` or its JSON."""
    if isinstance(answer, Action | dict):
        return answer
    raise Refused("malformed", f"a policy answers an Action, not {type(answer).__name__}")


def bot_modes(person: int | None) -> list[SeatMode]:
    """Seat modes for a table of bots with at most one person at ``person``."""
    return [SeatMode.PLAYER if s == person else SeatMode.BOT for s in range(4)]
