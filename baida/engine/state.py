"""The state of one hand and the hooks a ruleset's round overrides (``HandState``).

``HandState`` holds what a hand is made of (the wall, the hands, melds, discards, the claim
windows, the events so far) with the few primitives that change it, and declares the hooks in
which the rulesets' rounds differ (``jiaxing.JiaxingRound``, ``wenling.WenlingRound``). It does
not play: ``round.Round`` adds the flow (the deal, legal actions, ``apply``). The helpers that
read a hand (``views``, ``settle``, ``explain``, ``recording``) take a ``HandState``, so they
need not know ``Round`` and no import runs in a circle.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..evaluator import is_complete
from ..hand import Meld
from ..quote import quote
from ..rulesets import Ruleset
from ..scoring.request import ScoreRequest
from ..tiles import NUM_KINDS, parse_tile
from .actions import Action
from .events import Event
from .phases import CLAIM, ENDED, ROB, SANTAN, TURN, WINDS
from .result import HandResult
from .wall import check_wall, commitment

Why = dict[Hashable, str]  # action type, (type, tile) or (chi, tiles) -> reason


class HandState:
    """One hand's state; ``Round`` plays it."""

    def __init__(
        self,
        rules: Ruleset,
        options: Any,
        wall: list[int],
        dice: tuple[int, int],
        *,
        seed: bytes | None = None,
        dealer: int = 0,
        round_wind: int = 0,
        base: int = 1,
        carry_pool: int = 0,
        previous_wild: int | str | None = None,
    ) -> None:
        self.rules = rules
        self.ruleset = rules.name
        self.options = rules.resolve_options(options)
        self.wall = check_wall(rules, wall)
        if len(dice) != 2 or not all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice
        ):
            raise ValueError(f"dice are two numbers 1-6, got {quote(dice)}")
        if dealer not in (0, 1, 2, 3) or round_wind not in (0, 1, 2, 3):
            raise ValueError("dealer and round_wind are 0-3")
        self.dice = (dice[0], dice[1])
        self.seed = seed
        self.commitment = commitment(seed) if seed is not None else None
        self.dealer = dealer
        self.round_wind = round_wind
        self.base = base
        self.carry_pool_before = carry_pool
        if isinstance(previous_wild, str):
            previous_wild = parse_tile(previous_wild)
        self.previous_wild = previous_wild
        self.carry_pool = carry_pool
        self.carry_tokens: list[str] = []
        # the table's policies, asked once (the hot paths read attributes)
        self.discard_win = rules.allows_discard_win(self.options)
        self.chi_allowed = rules.allows_chi(self.options)
        self.claims_on_last = (rules.last_discard_wins, False)  # (win, melds) with no draw left

        self.head = 0
        self.tail = len(self.wall)
        self.cnt: list[list[int]] = [[0] * 42 for _ in range(4)]  # non-wild tiles in hand
        self.wild: list[list[int]] = [[] for _ in range(4)]  # faces of wild tiles in hand
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.discards: list[list[int]] = [[] for _ in range(4)]
        self.claimed: list[list[int]] = [[] for _ in range(4)]
        self.drawn: list[int | None] = [None] * 4
        self.draw_source: list[str | None] = [None] * 4
        self.has_discarded = [False] * 4
        self.discard_count = 0
        self.phase = TURN
        self.turn = dealer
        self.after_claim = False
        self.last_discard: tuple[int, int] | None = None
        # claim / rob / santan windows
        self.asked: dict[int, list[Action]] = {}
        self.answers: dict[int, Action] = {}
        self.window_from: int | None = None
        self.window_tile: int | None = None
        self.santan_resume_kong = False
        # 三摊 and 生牌 state (kept here so views need no ruleset test)
        self.claim_counts = [[0] * 4 for _ in range(4)]
        self.santan_pairs: list[tuple[int, int]] = []
        self.gave_up: set[int] = set()
        self.sheng_phase = False

        self.events: list[Event] = []
        self.actions: list[Action] = []
        self.result: HandResult | None = None
        self._out: list[Event] = []
        self._legal: dict[int, list[Action]] = {}
        self._scores: dict[tuple, dict[str, Any]] = {}
        self._version = 0
        self._scores_version = 0

        self.indicator = -1
        self.wild_kinds: frozenset[int] = frozenset()
        self.special_kinds: frozenset[int] = frozenset()
        self._floor = rules.draw_floor(self.options)

    # ------------------------------------------------------------------ hooks

    def _rebuild_derived(self) -> None:
        """Recompute what a ruleset derives from the public piles (a determinized hand)."""

    def _start_tokens(self) -> None:
        """Add this hand's carry tokens (Jiaxing)."""

    def _after_deal(self) -> None:
        """Work after the deal and the indicator flip (Wenling: expose specials)."""

    def _after_draw(self, seat: int, tile: int) -> None:
        """Work after a tile is drawn (Wenling: expose a special and replace it)."""

    def _win_blocked(self, seat: int) -> bool:
        """Ruleset reasons a seat cannot win at all now (discarded 得, unexposed special...)."""
        return seat in self.gave_up and not getattr(self.options, "gaveup_can_win", False)

    def _may_pon(self, seat: int, tile: int) -> bool:
        return True

    def _on_answer(self, seat: int, action: Action, options: list[Action]) -> None:
        """A seat answered a claim window (Wenling: the 碰-pass restriction)."""

    def _on_discard(self, seat: int, tile: int) -> None:
        """A tile was discarded (Wenling: 生牌 and discarded 得)."""

    def _on_claim(self, claimer: int, discarder: int, meld: Meld) -> list[int]:
        """A 吃/碰/明杠 was made; return the seats to ask about 三摊 (Jiaxing), else []."""
        return []

    def _extra_turn_actions(self, seat: int) -> list[Action]:
        """More own-turn actions (Wenling: 腊子)."""
        return []

    def _request_extras(
        self, req: ScoreRequest, seat: int, win_by: str, from_seat: int | None
    ) -> None:
        """Fill the ruleset-specific fields of a score request."""

    def _draw_outcome(self) -> tuple[int | None, list[str]]:
        """(carry pool after a drawn hand, notes)."""
        return (None, [])

    def _liable_for(self, winner: int, win_by: str, from_seat: int | None) -> int | None:
        return None

    def _transfers(
        self, seat: int, win_by: str, tile: int | None, from_seat: int | None,
        verdict: dict[str, Any],
    ) -> list[dict[str, Any]] | None:
        """Who pays whom, pair by pair, where the ruleset settles between every pair
        (Wenling); None where each payer pays the winner only."""
        return None

    def _no_discard_win_reason(self) -> str:
        """Why no win on a discard is ever offered (when ``discard_win`` is false)."""
        return "no win on a discard at this table"

    def _no_lazi_reason(self, seat: int) -> str:
        """Why ``lazi`` is not offered on the seat's turn."""
        return "腊子 is not part of this ruleset"

    def _blocked_reason(self, seat: int) -> str:
        """Why ``_win_blocked`` holds, in a player's words."""
        return "you cannot win in this hand"

    def refusals(self, seat: int) -> Why:
        """Why each action the seat might send now is refused (``Round`` answers)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ helpers

    def _can_draw(self) -> bool:
        """Whether a tile (normal or replacement) may still be drawn."""
        return self.tail - self.head > self._floor

    def seat_wind(self, seat: int) -> str:
        return WINDS[(seat - self.dealer) % 4]

    def _wind_index(self, seat: int) -> int:
        return (seat - self.dealer) % 4

    @property
    def remaining(self) -> int:
        """Tiles left in the live wall (the indicator excluded)."""
        return self.tail - self.head

    @property
    def ended(self) -> bool:
        return self.phase == ENDED

    @property
    def wilds(self) -> list[int]:
        return sorted(self.wild_kinds)

    @property
    def specials(self) -> list[int]:
        return sorted(self.special_kinds)

    @property
    def to_act(self) -> tuple[int, ...]:
        if self.phase == TURN:
            return (self.turn,)
        if self.phase in (CLAIM, ROB, SANTAN):
            return tuple(s for s in self.asked if s not in self.answers)
        return ()

    def _emit(self, etype: str, seat: int | None = None, **data: Any) -> None:
        event = Event(etype, seat, data)
        self.events.append(event)
        self._out.append(event)

    def _add(self, seat: int, tile: int) -> None:
        if tile in self.wild_kinds:
            self.wild[seat].append(tile)
        else:
            self.cnt[seat][tile] += 1
        self._version += 1

    def _remove(self, seat: int, tile: int, n: int = 1) -> None:
        for _ in range(n):
            if tile in self.wild_kinds:
                self.wild[seat].remove(tile)
            else:
                self.cnt[seat][tile] -= 1
        self._version += 1

    def concealed(self, seat: int) -> list[int]:
        """The seat's concealed tiles, sorted (wilds first)."""
        out = sorted(self.wild[seat])
        counts = self.cnt[seat]
        for kind in range(42):
            if counts[kind]:
                out.extend([kind] * counts[kind])
        return out

    def concealed_count(self, seat: int) -> int:
        return sum(self.cnt[seat]) + len(self.wild[seat])

    def _complete_with(self, seat: int, tile: int | None) -> bool:
        """Fast shape test of the seat's concealed tiles plus ``tile`` (None: as they are)."""
        counts = self.cnt[seat]
        if tile is None:
            return is_complete(counts[:NUM_KINDS], len(self.wild[seat]))
        if tile in self.wild_kinds:
            return is_complete(counts[:NUM_KINDS], len(self.wild[seat]) + 1)
        counts[tile] += 1
        try:
            return is_complete(counts[:NUM_KINDS], len(self.wild[seat]))
        finally:
            counts[tile] -= 1

    def tile_census(self) -> int:
        """Every tile accounted for: wall, indicator, hands, melds, flowers, unclaimed discards."""
        total = self.remaining + 1 + (1 if self.phase == ROB else 0)
        for s in range(4):
            total += self.concealed_count(s) + len(self.flowers[s])
            total += sum(len(m.tiles) for m in self.melds[s])
            total += len(self.discards[s]) - len(self.claimed[s])
        return total
