"""One hand of play: the flow (the deal, legal actions, ``apply``) over a ``HandState``.

``Round`` keeps the whole state of a hand and changes it only in ``apply``. What differs between
rulesets is asked of the ruleset object (``self.rules``: its facts and policies) or left to a
subclass overriding the hooks of ``HandState`` (``jiaxing.JiaxingRound``,
``wenling.WenlingRound``), in the way python-chess builds its variants. Each subclass says which
ruleset class it plays (``plays``); ``Round.from_seed`` and ``Round.from_wall`` are the one
factory that picks it. See ``docs/engine.md`` for the public API.
"""

from __future__ import annotations

from itertools import repeat
from operator import is_
from typing import Any, ClassVar

from ..hand import Hand, Meld
from ..quote import quote
from ..rulesets import Ruleset, as_ruleset
from ..tiles import NUM_KINDS, tile_str
from . import actions as A
from . import explain as reasons
from . import settle
from .actions import Action
from .errors import IllegalAction, MalformedAction
from .events import Event
from .explain import explain
from .phases import CLAIM, ENDED, ROB, SANTAN, TURN, WINDS  # also imported from here by others
from .recording import make_record
from .state import HandState, Why
from .views import View, build_view, meld_json
from .wall import shuffled_wall, to_kinds

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

# the round class that plays each ruleset class (filled as subclasses are defined)
_PLAYERS: dict[type[Ruleset], type[Round]] = {}


class Round(HandState):
    """One hand. Build it with ``Round.from_seed`` or ``Round.from_wall``."""

    plays: ClassVar[type[Ruleset] | None] = None  # a subclass: the ruleset class it plays

    def __init__(self, rules: Ruleset, options: Any, wall: list[int], dice: tuple[int, int],
                 **kwargs: Any) -> None:
        super().__init__(rules, options, wall, dice, **kwargs)
        self._start()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        plays = cls.__dict__.get("plays")
        if plays is not None:
            _PLAYERS[plays] = cls

    # ------------------------------------------------------------------ construction

    @classmethod
    def _class_for(cls, rules: Ruleset) -> type[Round]:
        """The round class that plays ``rules``: its own class's, or its nearest ancestor's."""
        if cls is not Round:
            if cls.plays is None or not isinstance(rules, cls.plays):
                plays = cls.plays.name if cls.plays is not None else None
                raise ValueError(f"{cls.__name__} plays {quote(plays)}, not {quote(rules.name)}")
            return cls
        return rules.pick(_PLAYERS)

    @classmethod
    def from_seed(cls, ruleset: str | Ruleset, seed: bytes, **kwargs: Any) -> Round:
        """A hand whose wall and dice come from ``seed`` by ``baida-wall-v1``; ``ruleset`` is
        a name (``"jiaxing"``) or a ruleset object."""
        if not isinstance(seed, bytes | bytearray) or not seed:
            raise ValueError("the seed is a non-empty bytes value")
        rules = as_ruleset(ruleset)
        klass = cls._class_for(rules)
        wall, dice = shuffled_wall(rules, bytes(seed))
        return klass(rules, kwargs.pop("options", None), wall, dice, seed=bytes(seed), **kwargs)

    @classmethod
    def from_wall(
        cls,
        ruleset: str | Ruleset,
        wall: list[int] | list[str],
        dice: tuple[int, int],
        **kwargs: Any,
    ) -> Round:
        """A hand with an explicit wall (kinds or faces, draw order, head first) and dice."""
        rules = as_ruleset(ruleset)
        klass = cls._class_for(rules)
        if isinstance(wall, str) or not isinstance(wall, list | tuple):
            raise ValueError(f"the wall is a list of tiles, got {type(wall).__name__}")
        kinds = to_kinds(wall, "wall")
        return klass(rules, kwargs.pop("options", None), kinds, tuple(dice), **kwargs)

    # ------------------------------------------------------------------ the deal

    def _start(self) -> None:
        self.tail -= 1
        self.indicator = self.wall[self.tail]
        self.wild_kinds, self.special_kinds = self.rules.choose_wilds(self.indicator, self.options)
        n = self.rules.hand_size
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
            round_wind=WINDS[self.round_wind] if self.rules.round_wind else None,
            dice=list(self.dice),
            commitment=self.commitment,
            indicator=tile_str(self.indicator),
            wilds=[tile_str(k) for k in self.wilds],
            specials=[tile_str(k) for k in self.specials],
            carry_pool=self.carry_pool if self.rules.carry_pool else None,
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
        win_allowed = self.discard_win
        if have < 2 and not chi_seat and not win_allowed and why is None:
            return []  # the common case, decided without building anything
        out: list[Action] = []
        win_ok, meld_ok = (True, True) if not last else self.claims_on_last
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
            if chi_seat and self.chi_allowed:
                counts = self.cnt[seat]
                for pair in _CHI_SHAPES[tile]:
                    if counts[pair[0]] and counts[pair[1]]:
                        out.append(Action(A.CHI, seat, None, pair))
                if why is not None:
                    why[A.CHI] = reasons.chi_pair_refusal(tile)
            elif why is not None:
                why[A.CHI] = reasons.chi_refusal(seat, discarder, tile, self.chi_allowed)
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
            win_allowed = self.discard_win
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
        return make_record(self)
