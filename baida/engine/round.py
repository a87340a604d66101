"""One hand of play: the ruleset-independent core, with hooks that the rulesets override.

``Round`` keeps the whole state of a hand and changes it only in ``apply``. The rulesets
(``jiaxing.JiaxingRound``, ``wenling.WenlingRound``) are subclasses overriding a few hooks, in
the way python-chess builds its variants. See ``docs/engine.md`` for the public API.
"""

from __future__ import annotations

from itertools import repeat
from operator import is_
from typing import Any, ClassVar

from ..evaluator import is_complete
from ..hand import Hand, Meld
from ..quote import quote
from ..rules.options import (
    JiaxingOptions,
    OptionError,
    Options,
    WenlingOptions,
    make_options,
)
from ..scoring.request import ScoreRequest
from ..tiles import NUM_KINDS, parse_tile, tile_str
from . import actions as A
from . import explain as reasons
from . import settle
from .actions import Action
from .errors import IllegalAction, MalformedAction
from .events import Event
from .explain import Why, explain
from .phases import CLAIM, ENDED, ROB, SANTAN, TURN, WINDS  # also imported from here by others
from .result import HandResult
from .views import View, build_view, meld_json
from .wall import check_wall, commitment, shuffled_wall, to_kinds

TILE = [tile_str(k) for k in range(42)]  # faces by kind, for the hot path

# Actions are immutable values: the common ones are built once and shared.
_DISCARD = [[Action(A.DISCARD, s, k) for k in range(42)] for s in range(4)]
_AKONG = [[Action(A.AKONG, s, k) for k in range(42)] for s in range(4)]
_BUKONG = [[Action(A.BUKONG, s, k) for k in range(42)] for s in range(4)]
_SIMPLE = {
    kind: [Action(kind, s) for s in range(4)]
    for kind in (A.WIN, A.LAZI, A.PON, A.MKONG, A.PASS, A.CONTINUE, A.GIVE_UP)
}
# The three possible chows of each suit tile: the two other tiles of each sequence.
_CHI_SHAPES = [
    [
        tuple(k for k in (lo, lo + 1, lo + 2) if k != tile)
        for lo in (tile - 2, tile - 1, tile)
        if lo >= tile - tile % 9 and lo + 2 <= tile - tile % 9 + 8
    ]
    if tile < 27
    else []
    for tile in range(34)
]

_REGISTRY: dict[str, type[Round]] = {}


def resolve_options(ruleset: str, options: Any) -> Options:
    """Options given as None, a dict (validated) or an options object of the right ruleset."""
    if options is None or isinstance(options, dict):
        return make_options(ruleset, options)
    expected = JiaxingOptions if ruleset == "jiaxing" else WenlingOptions
    if not isinstance(options, expected):
        raise OptionError(f"options: not {ruleset} options: {type(options).__name__}")
    return options


class Round:
    """One hand. Build it with ``Round.from_seed`` or ``Round.from_wall``."""

    ruleset: ClassVar[str] = ""
    hand_size: ClassVar[int] = 13  # tiles dealt to each seat before the dealer's extra tile

    # ------------------------------------------------------------------ construction

    def __init__(
        self,
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
        self.options = resolve_options(self.ruleset, options)
        self.wall = check_wall(self.ruleset, wall)
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
        # Jiaxing 三摊 state (kept here so views need no ruleset test)
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
        self._floor = self._draw_floor()
        self._start()

    @classmethod
    def _class_for(cls, ruleset: str) -> type[Round]:
        if cls is not Round:
            if ruleset != cls.ruleset:
                raise ValueError(f"{cls.__name__} plays {quote(cls.ruleset)}, not {quote(ruleset)}")
            return cls
        from . import jiaxing, wenling  # noqa: F401  (register the rulesets)

        if ruleset not in _REGISTRY:
            raise ValueError(f"unknown ruleset {quote(ruleset)}; expected 'jiaxing' or 'wenling'")
        return _REGISTRY[ruleset]

    @classmethod
    def from_seed(cls, ruleset: str, seed: bytes, **kwargs: Any) -> Round:
        """A hand whose wall and dice come from ``seed`` by ``baida-wall-v1``."""
        if not isinstance(seed, bytes | bytearray) or not seed:
            raise ValueError("the seed is a non-empty bytes value")
        klass = cls._class_for(ruleset)
        wall, dice = shuffled_wall(ruleset, bytes(seed))
        return klass(kwargs.pop("options", None), wall, dice, seed=bytes(seed), **kwargs)

    @classmethod
    def from_wall(
        cls, ruleset: str, wall: list[int] | list[str], dice: tuple[int, int], **kwargs: Any
    ) -> Round:
        """A hand with an explicit wall (kinds or faces, draw order, head first) and dice."""
        klass = cls._class_for(ruleset)
        if isinstance(wall, str) or not isinstance(wall, list | tuple):
            raise ValueError(f"the wall is a list of tiles, got {type(wall).__name__}")
        kinds = to_kinds(wall, "wall")
        return klass(kwargs.pop("options", None), kinds, tuple(dice), **kwargs)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.ruleset:
            _REGISTRY[cls.ruleset] = cls

    # ------------------------------------------------------------------ hooks

    def _choose_wilds(self, indicator: int) -> tuple[frozenset[int], frozenset[int]]:
        """(wild kinds, special kinds) for this indicator."""
        raise NotImplementedError

    def _start_tokens(self) -> None:
        """Add this hand's carry tokens (Jiaxing)."""

    def _after_deal(self) -> None:
        """Work after the deal and the indicator flip (Wenling: expose specials)."""

    def _after_draw(self, seat: int, tile: int) -> None:
        """Work after a tile is drawn (Wenling: expose a special and replace it)."""

    def _draw_floor(self) -> int:
        """Draws (normal or replacement) stop when this many tiles are left in the wall."""
        raise NotImplementedError

    def _can_draw(self) -> bool:
        """Whether a tile (normal or replacement) may still be drawn."""
        return self.tail - self.head > self._floor

    def _is_last_tile(self) -> bool:
        """Whether the tile just drawn was the last drawable one (海底)."""
        return not self._can_draw()

    def _win_blocked(self, seat: int) -> bool:
        """Ruleset reasons a seat cannot win at all now (discarded 得, unexposed special...)."""
        return seat in self.gave_up and not getattr(self.options, "gaveup_can_win", False)

    def _discard_win_allowed(self) -> bool:
        raise NotImplementedError

    def _chi_allowed(self) -> bool:
        raise NotImplementedError

    def _claims_on_last(self) -> tuple[bool, bool]:
        """(win allowed, melds allowed) on a discard made when no draw is left."""
        return (False, False)

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

    def _explain_rule(self, action: Action) -> str | None:
        """A table-level refusal that holds in every phase (e.g. 'this table forbids 吃')."""
        return None

    def _no_discard_win_reason(self) -> str:
        """Why no win on a discard is ever offered (when ``_discard_win_allowed`` is false)."""
        return "no win on a discard at this table"

    def _no_lazi_reason(self, seat: int) -> str:
        """Why ``lazi`` is not offered on the seat's turn."""
        return "腊子 is not part of this ruleset"

    def _blocked_reason(self, seat: int) -> str:
        """Why ``_win_blocked`` holds, in a player's words."""
        return "you cannot win in this hand"

    # ------------------------------------------------------------------ helpers

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

    # ------------------------------------------------------------------ the deal

    def _start(self) -> None:
        self.tail -= 1
        self.indicator = self.wall[self.tail]
        self.wild_kinds, self.special_kinds = self._choose_wilds(self.indicator)
        n = self.hand_size
        for i in range(4):
            seat = (self.dealer + i) % 4
            for tile in self.wall[self.head : self.head + n]:
                self._add(seat, tile)
            self.head += n
        extra = self.wall[self.head]
        self.head += 1
        self._add(self.dealer, extra)
        self.drawn[self.dealer] = extra
        self.draw_source[self.dealer] = "wall"
        self._start_tokens()
        self._emit(
            "hand_start",
            self.dealer,
            ruleset=self.ruleset,
            dealer=self.dealer,
            round_wind=WINDS[self.round_wind] if self.ruleset == "jiaxing" else None,
            dice=list(self.dice),
            commitment=self.commitment,
            indicator=tile_str(self.indicator),
            wilds=[tile_str(k) for k in self.wilds],
            specials=[tile_str(k) for k in self.specials],
            carry_pool=self.carry_pool if self.ruleset == "jiaxing" else None,
            carry_tokens=list(self.carry_tokens),
        )
        for i in range(4):
            seat = (self.dealer + i) % 4
            tiles = self.concealed(seat)
            drawn = tile_str(extra) if seat == self.dealer else None  # the dealer's extra tile
            self._emit("deal", seat, tiles=[tile_str(t) for t in tiles], count=len(tiles),
                       drawn=drawn)
        self._after_deal()
        self.phase = TURN
        self.turn = self.dealer
        self._out = []

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int) -> list[Action]:
        """Everything ``seat`` may do now (empty when it has nothing to decide)."""
        cached = self._legal.get(seat)
        if cached is not None:
            return list(cached)
        if self.phase == TURN:
            out = self._turn_actions(seat) if seat == self.turn else []
        elif self.phase in (CLAIM, ROB, SANTAN):
            out = self.asked[seat] if seat in self.asked and seat not in self.answers else []
        else:
            out = []
        self._legal[seat] = out
        return list(out)

    def _turn_actions(self, seat: int, why: Why | None = None) -> list[Action]:
        """The own-turn options; with ``why``, also why each other candidate is not one."""
        out: list[Action] = []
        counts = self.cnt[seat]
        gave_up = seat in self.gave_up
        if not self.after_claim:
            if self._can_win_self(seat):
                out.append(_SIMPLE[A.WIN][seat])
            elif why is not None:
                why[A.WIN] = reasons.win_refusal(self, seat, "self_draw")
            extra = self._extra_turn_actions(seat)
            out.extend(extra)
            if why is not None and not extra:
                why[A.LAZI] = self._no_lazi_reason(seat)
            if not gave_up and self._can_draw():
                if 4 in counts:
                    akong = _AKONG[seat]
                    specials = self.special_kinds
                    out.extend(
                        akong[k] for k in range(NUM_KINDS) if counts[k] == 4 and k not in specials
                    )
                for meld in self.melds[seat]:
                    if meld.kind == "pon" and counts[meld.tiles[0]]:
                        out.append(_BUKONG[seat][meld.tiles[0]])
                if why is not None:
                    reasons.kong_refusals(self, seat, out, why)
            elif why is not None:
                why[A.AKONG] = why[A.BUKONG] = reasons.no_kong_reason(gave_up)
        elif why is not None:
            for kind in (A.WIN, A.LAZI, A.AKONG, A.BUKONG):
                why[kind] = reasons.AFTER_CLAIM
        discard = _DISCARD[seat]
        if gave_up:
            drawn = self.drawn[seat]
            assert drawn is not None
            out.append(discard[drawn])
        else:
            if self.special_kinds:
                specials = self.special_kinds
                out += [discard[k] for k in range(42) if counts[k] and k not in specials]
            else:
                out += [discard[k] for k in range(NUM_KINDS) if counts[k]]
            if self.wild[seat]:
                out.extend(discard[face] for face in sorted(set(self.wild[seat])))
        if why is not None:
            reasons.discard_refusals(self, seat, out, why)
        return out

    def _can_win_self(self, seat: int) -> bool:
        if self._win_blocked(seat) or not self._complete_with(seat, None):
            return False
        tile = self.drawn[seat]
        if tile is None:
            return False
        return bool(self._score(seat, "self_draw", tile, None)["legal"])

    def _can_win_on(self, seat: int, tile: int, win_by: str, from_seat: int) -> bool:
        if self._win_blocked(seat) or not self._complete_with(seat, tile):
            return False
        return bool(self._score(seat, win_by, tile, from_seat)["legal"])

    def _claim_options(
        self,
        seat: int,
        discarder: int,
        tile: int,
        last: bool,
        can_draw: bool,
        why: Why | None = None,
    ) -> list[Action]:
        """A seat's claims on a discard (empty: it is not asked); with ``why``, also why each
        claim it does not get is not one."""
        if seat in self.gave_up:
            return []
        have = self.cnt[seat][tile]
        chi_seat = seat == (discarder + 1) % 4 and tile < 27
        win_allowed = self._discard_win_allowed()
        if have < 2 and not chi_seat and not win_allowed and why is None:
            return []  # the common case, decided without building anything
        out: list[Action] = []
        win_ok, meld_ok = (True, True) if not last else self._claims_on_last()
        if win_ok and win_allowed and self._can_win_on(seat, tile, "discard", discarder):
            out.append(_SIMPLE[A.WIN][seat])
        elif why is not None:
            why[A.WIN] = (
                self._no_discard_win_reason() if not win_allowed
                else reasons.LAST_DISCARD if not win_ok
                else reasons.win_refusal(self, seat, "discard")
            )
        if meld_ok:
            if have >= 2 and self._may_pon(seat, tile):
                out.append(_SIMPLE[A.PON][seat])
            elif why is not None:
                why[A.PON] = reasons.pon_refusal(tile, have)
            if have >= 3 and can_draw:
                out.append(_SIMPLE[A.MKONG][seat])
            elif why is not None:
                why[A.MKONG] = reasons.mkong_refusal(tile, have)
            if chi_seat and self._chi_allowed():
                counts = self.cnt[seat]
                for pair in _CHI_SHAPES[tile]:
                    if counts[pair[0]] and counts[pair[1]]:
                        out.append(Action(A.CHI, seat, None, pair))
                if why is not None:
                    why[A.CHI] = reasons.chi_pair_refusal(tile)
            elif why is not None:
                why[A.CHI] = reasons.chi_refusal(seat, discarder, tile, self._chi_allowed())
        elif why is not None:
            reason = reasons.ONLY_WIN_ON_LAST if win_ok else reasons.LAST_DISCARD
            why[A.PON] = why[A.MKONG] = why[A.CHI] = reason
        if out:
            out.insert(0, _SIMPLE[A.PASS][seat])
        return out

    def refusals(self, seat: int) -> Why:
        """Why each action the seat might send now is refused, from the code that builds its
        ``legal_actions``: keys are an action type, or (type, tile) / (chi, tiles) for one
        tile. Only for a seat in ``to_act`` (the others have nothing to decide)."""
        why: Why = {}
        if self.phase == TURN:
            self._turn_actions(seat, why)
        elif self.phase == CLAIM:
            assert self.window_from is not None and self.window_tile is not None
            can_draw = self._can_draw()
            self._claim_options(
                seat, self.window_from, self.window_tile, not can_draw, can_draw, why
            )
        reasons.phase_refusals(self, why)
        return why

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action | dict[str, Any]) -> list[Event]:
        """Play one action; returns the events it caused. Raises ``IllegalAction`` untouched."""
        if isinstance(action, dict):
            action = Action.from_json(action)
        elif not isinstance(action, Action):
            raise MalformedAction(
                f"an action is an Action or a JSON object, not {type(action).__name__}"
            )
        if self.phase == ENDED:
            raise IllegalAction("the hand is over")
        legal = self._legal.get(action.seat)
        if legal is None:
            self.legal_actions(action.seat)
            legal = self._legal.get(action.seat, [])
        # A bot hands back one of the listed objects: test identity (in C) before equality.
        if not any(map(is_, legal, repeat(action))) and action not in legal:
            raise IllegalAction(explain(self, action))
        self.actions.append(action)
        self._out = []
        seat = action.seat
        if self.phase == TURN:
            self._apply_turn(action)
        elif self.phase == CLAIM:
            self.answers[seat] = action
            self._on_answer(seat, action, self.asked[seat])
            if len(self.answers) == len(self.asked):
                self._resolve_claims()
        elif self.phase == ROB:
            self.answers[seat] = action
            if len(self.answers) == len(self.asked):
                self._resolve_rob()
        elif self.phase == SANTAN:
            self.answers[seat] = action
            choice = "give_up" if action.type == A.GIVE_UP else "continue"
            if choice == "give_up":
                self.gave_up.add(seat)
            self._emit("santan_choice", seat, choice=choice)
            if len(self.answers) == len(self.asked):
                self._resume_after_santan()
        self._legal = {}
        out, self._out = self._out, []
        return out

    def _apply_turn(self, action: Action) -> None:
        seat = action.seat
        kind = action.type
        if kind == A.DISCARD:
            assert action.tile is not None
            self._discard(seat, action.tile)
        elif kind == A.WIN:
            tile = self.drawn[seat]
            assert tile is not None
            settle.finish_win(self, seat, "self_draw", tile, None)
        elif kind == A.LAZI:
            settle.finish_win(self, seat, "lazi", None, None)
        elif kind == A.AKONG:
            assert action.tile is not None
            tile = action.tile
            self._remove(seat, tile, 4)
            meld = Meld("akong", (tile,) * 4, None)
            self.melds[seat].append(meld)
            self._emit("akong", seat, tile=TILE[tile])
            self._kong_draw(seat)
        elif kind == A.BUKONG:
            assert action.tile is not None
            self._declare_bukong(seat, action.tile)

    # ------------------------------------------------------------------ flow

    def _draw(self, seat: int, source: str) -> None:
        if source == "wall":
            tile = self.wall[self.head]
            self.head += 1
        else:
            self.tail -= 1
            tile = self.wall[self.tail]
        self._add(seat, tile)
        self.drawn[seat] = tile
        self.draw_source[seat] = source
        self._emit("draw", seat, tile=TILE[tile], source=source, remaining=self.tail - self.head)
        self._after_draw(seat, tile)

    def _advance(self, seat: int) -> None:
        """``seat`` takes its turn: draw from the head, or the hand ends when none is left."""
        if not self._can_draw():
            settle.end_draw(self)
            return
        self.turn = seat
        self.phase = TURN
        self.after_claim = False
        self._draw(seat, "wall")
        self._maybe_auto(seat)

    def _kong_draw(self, seat: int) -> None:
        self.turn = seat
        self.phase = TURN
        self.after_claim = False
        self._draw(seat, "kong")
        self._maybe_auto(seat)

    def _maybe_auto(self, seat: int) -> None:
        """A seat that gave up (三摊 放弃) discards what it draws, unless it may and can win."""
        if seat in self.gave_up and self.phase == TURN and not self._can_win_self(seat):
            tile = self.drawn[seat]
            assert tile is not None
            self._discard(seat, tile)

    def _discard(self, seat: int, tile: int) -> None:
        self._remove(seat, tile)
        self.discards[seat].append(tile)
        self.has_discarded[seat] = True
        self.discard_count += 1
        self.drawn[seat] = None
        self.after_claim = False
        self.last_discard = (seat, tile)
        self._emit("discard", seat, tile=TILE[tile])
        self._on_discard(seat, tile)
        self.asked = {}
        self.answers = {}
        if tile not in self.wild_kinds:
            can_draw = self._can_draw()
            win_allowed = self._discard_win_allowed()
            cnt = self.cnt
            for i in (1, 2, 3):
                other = (seat + i) % 4
                if cnt[other][tile] < 2 and not win_allowed and (i != 1 or tile >= 27):
                    continue  # no 碰/杠, no 吃, no win possible: the common case
                options = self._claim_options(other, seat, tile, not can_draw, can_draw)
                if options:
                    self.asked[other] = options
        if self.asked:
            self.phase = CLAIM
            self.window_from = seat
            self.window_tile = tile
        else:
            self._advance((seat + 1) % 4)

    def _resolve_claims(self) -> None:
        discarder = self.window_from
        tile = self.window_tile
        assert discarder is not None and tile is not None
        order = [(discarder + i) % 4 for i in (1, 2, 3)]
        answers = self.answers
        self.asked = {}
        self.answers = {}
        for wanted in ((A.WIN,), (A.PON, A.MKONG), (A.CHI,)):
            for seat in order:
                action = answers.get(seat)
                if action is not None and action.type in wanted:
                    self._take_discard(action, discarder, tile)
                    return
        self._advance((discarder + 1) % 4)

    def _take_discard(self, action: Action, discarder: int, tile: int) -> None:
        seat = action.seat
        self.claimed[discarder].append(len(self.discards[discarder]) - 1)
        if action.type == A.WIN:
            settle.finish_win(self, seat, "discard", tile, discarder)
            return
        if action.type == A.CHI:
            assert action.tiles is not None
            for own in action.tiles:
                self._remove(seat, own)
            meld = Meld("chi", tuple(sorted((tile, *action.tiles))), discarder)
        elif action.type == A.PON:
            self._remove(seat, tile, 2)
            meld = Meld("pon", (tile,) * 3, discarder)
        else:
            self._remove(seat, tile, 3)
            meld = Meld("mkong", (tile,) * 4, discarder)
        self.melds[seat].append(meld)
        self.turn = seat
        self.phase = TURN
        self.after_claim = meld.kind != "mkong"
        self.drawn[seat] = None
        self._emit(
            meld.kind, seat, tile=tile_str(tile), **{"from": discarder}, meld=meld_json(meld)
        )
        asks = self._on_claim(seat, discarder, meld)
        if asks:
            self.phase = SANTAN
            self.asked = {s: [_SIMPLE[A.CONTINUE][s], _SIMPLE[A.GIVE_UP][s]] for s in asks}
            self.answers = {}
            self.santan_resume_kong = meld.kind == "mkong"
            return
        if meld.kind == "mkong":
            self._kong_draw(seat)

    def _resume_after_santan(self) -> None:
        self.asked = {}
        self.answers = {}
        self.phase = TURN
        if self.santan_resume_kong:
            self.santan_resume_kong = False
            self._kong_draw(self.turn)

    def _declare_bukong(self, seat: int, tile: int) -> None:
        self._emit("bukong", seat, tile=tile_str(tile))
        self._remove(seat, tile)  # the added tile is on the table while others may rob it
        self.asked = {}
        self.answers = {}
        for i in (1, 2, 3):
            other = (seat + i) % 4
            if self._can_rob(other, tile, seat):
                self.asked[other] = [_SIMPLE[A.PASS][other], _SIMPLE[A.WIN][other]]
        if self.asked:
            self.phase = ROB
            self.window_from = seat
            self.window_tile = tile
            return
        self._complete_bukong(seat, tile)

    def _can_rob(self, seat: int, tile: int, kong_seat: int) -> bool:
        if seat in self.gave_up:
            return False
        return self._can_win_on(seat, tile, "rob_kong", kong_seat)

    def _complete_bukong(self, seat: int, tile: int) -> None:
        melds = self.melds[seat]
        for i, meld in enumerate(melds):
            if meld.kind == "pon" and meld.tiles[0] == tile:
                melds[i] = Meld("bukong", (tile,) * 4, meld.from_seat)
                break
        self._version += 1
        self._kong_draw(seat)

    def _resolve_rob(self) -> None:
        kong_seat = self.window_from
        tile = self.window_tile
        assert kong_seat is not None and tile is not None
        answers = self.answers
        self.asked = {}
        self.answers = {}
        for i in (1, 2, 3):
            seat = (kong_seat + i) % 4
            action = answers.get(seat)
            if action is not None and action.type == A.WIN:
                self._emit("kong_robbed", kong_seat, tile=tile_str(tile), by=seat)
                settle.finish_win(self, seat, "rob_kong", tile, kong_seat)
                return
        self._complete_bukong(kong_seat, tile)

    # ------------------------------------------------------------------ scoring (settle.py)

    def _scorer_hand(self, seat: int, exclude: int | None) -> Hand:
        """The seat's hand as the scorer takes it (``settle.scorer_hand``)."""
        return settle.scorer_hand(self, seat, exclude)

    def _score(
        self, seat: int, win_by: str, tile: int | None, from_seat: int | None
    ) -> dict[str, Any]:
        """The scorer's verdict on a win, cached while no tile moves (``settle.score``)."""
        return settle.score(self, seat, win_by, tile, from_seat)

    # ------------------------------------------------------------------ views and records

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (None: a spectator); the wall and an unrevealed seed never."""
        return build_view(self, seat)

    def record(self) -> dict[str, Any]:
        """The game record of this hand (``docs/records.md``)."""
        from .records import make_record

        return make_record(self)

    def tile_census(self) -> int:
        """Every tile accounted for: wall, indicator, hands, melds, flowers, unclaimed discards."""
        total = self.remaining + 1 + (1 if self.phase == ROB else 0)
        for s in range(4):
            total += self.concealed_count(s) + len(self.flowers[s])
            total += sum(len(m.tiles) for m in self.melds[s])
            total += len(self.discards[s]) - len(self.claimed[s])
        return total
