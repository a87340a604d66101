"""How long a table waits: claim windows, the uniform pause, turn timers, bots' pace."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

# prompt kinds (the engine's phases in which a seat decides)
TURN, CLAIM, ROB, SANTAN = "turn", "claim", "rob", "santan"
# with the uniform window, answers close this long before the window ends (at most a quarter
# of it): every answer, and the pass of a seat that did not answer, is then stored before the
# window's end, so a late answer's write never delays what follows (which would show)
ANSWER_GUARD = 0.25


class TimingError(ValueError):
    """A timing setting out of range; the message names it."""


@dataclass(frozen=True, slots=True)
class TableTiming:
    """Seconds. ``None`` for a limit means no limit (the terminal game, the arena).

    * ``pause``: after every discard and every 补杠 each seat sees the same pause before
      anything else happens, whether or not anyone may claim (a window that opens only when
      someone can claim would tell the table that someone holds a pair, a run or a win).
      A person who takes longer than the pause to answer a window stretches it: the pause
      hides a window only from tables whose windows are answered within it.
    * ``uniform_window``: instead of ``pause``, wait the whole claim window (``claim``)
      after every discard and every 补杠, whoever may claim and whenever they answer:
      answers are taken at once, their effects come at the window's end, so the pace tells
      nothing even when people answer slowly. A window's prompt then has ``claim`` less
      ``ANSWER_GUARD`` to answer. Needs a ``claim`` limit.
    * ``claim``: the time a seat has to answer a claim or 抢杠 window; a timeout passes.
    * ``turn`` + ``bank``: the time to discard, then the seat's bank for this hand; a timeout
      hands the seat to 托管 until the player takes it back.
    * ``santan``: the time to answer the 三摊 question; a timeout lets 托管 answer.
    * ``bot_turn`` / ``bot_claim`` / ``auto``: how long a bot (or 托管) takes to answer a
      turn, a window; ``bot_claim`` stays below ``pause`` so a bot never shows by its pace
      that it had something to decide.
    """

    pause: float = 1.0
    claim: float | None = 5.0
    turn: float | None = 12.0
    bank: float = 20.0
    santan: float | None = 10.0
    bot_turn: float = 0.9
    bot_claim: float = 0.5
    between_hands: float | None = 20.0
    uniform_window: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.uniform_window, bool):
            raise TimingError(
                f"timing.uniform_window: true or false, got {_short(self.uniform_window)}")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "uniform_window":
                continue
            if value is None and f.name in ("claim", "turn", "santan", "between_hands"):
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise TimingError(f"timing.{f.name}: a number of seconds >= 0, got {_short(value)}")
            if value > 3600:
                raise TimingError(f"timing.{f.name}: at most 3600 seconds, got {_short(value)}")
        if self.uniform_window and self.claim is None:
            raise TimingError("timing.uniform_window: needs a claim window (timing.claim)")

    @classmethod
    def instant(cls) -> TableTiming:
        """No pauses, no limits, bots answer at once: the arena and the terminal game."""
        return cls(
            pause=0.0, claim=None, turn=None, bank=0.0, santan=None,
            bot_turn=0.0, bot_claim=0.0, between_hands=None,
        )

    def limit(self, kind: str) -> float | None:
        """The free time of a prompt of ``kind`` (the bank comes on top for a turn)."""
        if kind == TURN:
            return self.turn
        if kind == SANTAN:
            return self.santan
        if self.uniform_window and self.claim is not None:
            return self.claim - min(ANSWER_GUARD, self.claim / 4)
        return self.claim

    @property
    def after_discard(self) -> float:
        """How long every seat waits after a discard or a 补杠 before anything else happens."""
        if self.uniform_window and self.claim is not None:
            return self.claim
        return self.pause

    def bot_delay(self, kind: str) -> float:
        return self.bot_turn if kind in (TURN, SANTAN) else min(self.bot_claim, self.pause)

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"
