"""A series of hands: dealer rotation, seat and round winds, the carry pool, running totals."""

from __future__ import annotations

from typing import Any

from ..quote import quote
from ..rules.options import options_to_json
from ..rulesets import Ruleset, as_ruleset
from ..tiles import parse_tile, tile_str
from .actions import Action
from .errors import IllegalAction
from .events import Event
from .result import HandResult
from .round import WINDS, Round
from .views import View


class Match:
    """Hands played one after another at one table; players are the absolute seats 0-3."""

    def __init__(
        self,
        ruleset: str | Ruleset,
        options: Any = None,
        *,
        base: int = 1,
        first_dealer: int = 0,
        hands: int | None = None,
        rounds: int | None = None,
    ) -> None:
        self.rules = as_ruleset(ruleset)
        self.ruleset = self.rules.name
        self.options = self.rules.resolve_options(options)
        if first_dealer not in (0, 1, 2, 3):
            raise ValueError(f"first_dealer is a seat 0-3, got {quote(first_dealer)}")
        if hands is not None and hands < 1:
            raise ValueError("a match has at least one hand")
        if rounds is not None and rounds < 1:
            raise ValueError("a match has at least one round")
        if hands is None and rounds is None:
            rounds = self.rules.default_rounds(self.options)
        self.max_hands = hands
        self.max_rounds = rounds
        self.base = base
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.round_wind = 0
        self.rounds_done = 0
        self.carry_pool = 0
        self.previous_wild: int | None = None
        self.totals = [0, 0, 0, 0]
        self.history: list[HandResult] = []
        self.records: list[dict[str, Any]] = []  # one game record per finished hand
        self.hand_number = 0
        self.current: Round | None = None
        self._finished = True

    # -------------------------------------------------------------- hands

    @property
    def over(self) -> bool:
        """The configured number of hands or rounds has been played."""
        if self.max_hands is not None and self.hand_number >= self.max_hands:
            return True
        return self.max_rounds is not None and self.rounds_done >= self.max_rounds

    def _setup(self) -> dict[str, Any]:
        if not self._finished and self.current is not None and self.current.ended:
            self.finish_hand()  # the hand was played on the Round directly
        if self.over:
            raise IllegalAction("the match is over")
        if not self._finished:
            raise IllegalAction("the current hand is not finished")
        return {
            "options": self.options,
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "base": self.base,
            "carry_pool": self.carry_pool,
            "previous_wild": self.previous_wild,
        }

    def start_hand(self, seed: bytes) -> Round:
        """Deal the next hand from ``seed`` (the hall's CSPRNG seed, or a test's fixed one)."""
        self.current = Round.from_seed(self.rules, seed, **self._setup())
        self._finished = False
        return self.current

    def start_hand_from_wall(self, wall: list[int], dice: tuple[int, int]) -> Round:
        """Deal the next hand from an explicit wall (scripted hands)."""
        self.current = Round.from_wall(self.rules, wall, dice, **self._setup())
        self._finished = False
        return self.current

    def apply(self, action: Action | dict[str, Any]) -> list[Event]:
        """Apply to the current hand; when it ends, settle it into the match."""
        if self.current is None or self._finished:
            raise IllegalAction("no hand in play: start the next hand")
        events = self.current.apply(action)
        if self.current.ended:
            self.finish_hand()
        return events

    def legal_actions(self, seat: int) -> list[Action]:
        if self.current is None or self._finished:
            return []
        return self.current.legal_actions(seat)

    def view(self, seat: int | None) -> View:
        if self.current is None:
            raise IllegalAction("no hand has been dealt yet")
        return self.current.view(seat)

    def resume_hand(self, rnd: Round) -> Round:
        """Make ``rnd`` (rebuilt from its seed and stored actions) the hand in play.

        The match must be between hands, with ``rnd`` dealt from this match's setup.
        """
        setup = self._setup()
        if rnd.ruleset != self.ruleset or rnd.dealer != setup["dealer"]:
            raise IllegalAction("that hand was not dealt at this table's next deal")
        self.current = rnd
        self._finished = False
        if rnd.ended:
            self.finish_hand()
        return rnd

    def state(self) -> dict[str, Any]:
        """Everything needed to go on with this match between hands (``from_state``)."""
        return {
            "ruleset": self.ruleset,
            "options": options_to_json(self.options),
            "base": self.base,
            "first_dealer": self.first_dealer,
            "hands": self.max_hands,
            "rounds": self.max_rounds,
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "rounds_done": self.rounds_done,
            "carry_pool": self.carry_pool,
            "previous_wild": None if self.previous_wild is None else tile_str(self.previous_wild),
            "totals": list(self.totals),
            "hand_number": self.hand_number,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Match:
        """A match between hands, as ``state()`` saved it (history and records not kept)."""
        match = cls(
            state["ruleset"],
            state["options"],
            base=state["base"],
            first_dealer=state["first_dealer"],
            hands=state["hands"],
            rounds=state["rounds"],
        )
        match.dealer = state["dealer"]
        match.round_wind = state["round_wind"]
        match.rounds_done = state["rounds_done"]
        match.carry_pool = state["carry_pool"]
        wild = state["previous_wild"]
        match.previous_wild = None if wild is None else parse_tile(wild)
        match.totals = list(state["totals"])
        match.hand_number = state["hand_number"]
        return match

    def finish_hand(self) -> HandResult:
        """Settle the ended current hand: totals, carry pool, dealer and winds."""
        rnd = self.current
        if rnd is None or not rnd.ended or rnd.result is None:
            raise IllegalAction("the current hand has not ended")
        if self._finished:
            return self.history[-1]
        result = rnd.result
        for seat in range(4):
            self.totals[seat] += result.payments[seat]
        if result.carry_pool_after is not None:
            self.carry_pool = result.carry_pool_after
        self.previous_wild = rnd.indicator
        self.history.append(result)
        self.records.append(rnd.record())
        self.hand_number += 1
        self._finished = True
        if self._dealer_passes(result):
            self.dealer = (self.dealer + 1) % 4
            if self.dealer == self.first_dealer:
                self.rounds_done += 1
                if self.rules.round_wind:
                    self.round_wind = (self.round_wind + 1) % 4
        return result

    def _dealer_passes(self, result: HandResult) -> bool:
        if result.outcome == "win":
            return result.winner != self.dealer
        return self.rules.dealer_passes_on_draw(self.options)  # Wenling 黄牌: 下庄

    def seat_wind(self, seat: int) -> str:
        """A player's seat wind in the next (or current, if unfinished) hand."""
        dealer = self.current.dealer if (self.current and not self._finished) else self.dealer
        return WINDS[(seat - dealer) % 4]

    def to_json(self) -> dict[str, Any]:
        """The match state a table shows between hands."""
        return {
            "ruleset": self.ruleset,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "round_wind": WINDS[self.round_wind] if self.rules.round_wind else None,
            "rounds_done": self.rounds_done,
            "carry_pool": self.carry_pool if self.rules.carry_pool else None,
            "totals": list(self.totals),
            "over": self.over,
        }
