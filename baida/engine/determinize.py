"""A hand consistent with one seat's view: the hidden tiles dealt at random (a determinization).

A search that sees only ``view(seat)`` cannot play the real hand forward, but it can play
hands that agree with everything the seat sees: its own tiles, every meld, flower and
discard, the indicator, how many tiles each other seat hides and how many are left in the
wall. ``determinize`` deals the unseen tiles (the full tile set less everything visible) to
the other seats' concealed hands, to concealed kongs whose faces are hidden, and to the live
wall, and returns a ``Round`` in the view's phase, ready for ``legal_actions``/``apply``.

A claim window is rebuilt by dealing the state just before the discard and playing the
discard again, so every seat's claim options follow from its (sampled) hand, as in the real
hand. What a view cannot tell is taken at its most common value: the viewer's last draw came
from the wall; the Wenling 碰-pass blocks are clear; a seat's 生牌 liability is recomputed by
the engine from the sampled hands. ``weights`` lets a caller make a kind more or less likely
in one seat's hand (an opponent model); without it every deal of the unseen tiles is equally
likely.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..hand import Meld
from ..rulesets import as_ruleset
from ..tiles import parse_tile, tile_str
from . import actions as A
from .actions import Action
from .phases import CLAIM, SANTAN, TURN, WINDS
from .round import Round
from .state import HandState
from .views import View

# (seat, kind) -> relative likelihood of the kind in that seat's concealed hand
Weights = Callable[[int, int], float]


class DeterminizeError(ValueError):
    """A view that no hand can agree with (tile counts that do not add up)."""


_KIND = {tile_str(k): k for k in range(42)}


def _kind(face: str) -> int:
    kind = _KIND.get(face)
    return parse_tile(face) if kind is None else kind


def unseen_tiles(view: View) -> list[int]:
    """The tiles the viewer cannot see, one entry per tile (kinds), in kind order."""
    return list(Determinizer(view).unseen)


class Determinizer:
    """One view read once; ``sample`` deals its hidden tiles as often as a search asks."""

    def __init__(self, view: View | dict[str, Any]) -> None:
        if isinstance(view, dict):
            view = View.from_json(view)
        if view.phase not in (TURN, CLAIM, SANTAN):
            raise DeterminizeError(f"no determinization in the {view.phase} phase")
        me = view.me
        if me is None or me.concealed is None:
            raise DeterminizeError("a determinization needs a seat's view, not a spectator's")
        self.view = view
        self.seat = me.seat
        self.rules = as_ruleset(view.ruleset)
        self.klass = Round._class_for(self.rules)
        self.options = self.rules.resolve_options(view.options)
        self.indicator = _kind(view.indicator)
        self.wild_kinds = frozenset(_kind(t) for t in view.wilds)
        self.special_kinds = frozenset(_kind(t) for t in view.specials)
        self.own = [_kind(t) for t in me.concealed]
        self.melds: list[list[Meld | None]] = []  # None: a concealed kong's hidden face
        self.flowers = [[_kind(t) for t in p.flowers] for p in view.players]
        self.discards = [[_kind(t) for t in p.discards] for p in view.players]
        left = [0] * 42
        for t in self.rules.tiles():
            left[t] += 1
        seen = [self.indicator, *self.own]
        for p in view.players:
            row: list[Meld | None] = []
            for m in p.melds:
                if m["tiles"] is None:
                    row.append(None)
                    continue
                tiles = tuple(_kind(t) for t in m["tiles"])
                row.append(Meld(m["type"], tiles, m["from"]))
                seen += tiles
            self.melds.append(row)
            seen += self.flowers[p.seat]
            claimed = set(p.claimed)
            seen += [t for i, t in enumerate(self.discards[p.seat]) if i not in claimed]
        for t in seen:
            left[t] -= 1
            if left[t] < 0:
                raise DeterminizeError(
                    f"the view shows more copies of {tile_str(t)} than the set holds")
        self.unseen = [k for k in range(42) for _ in range(left[k])]
        self.hidden = [p.concealed_count if p.seat != self.seat else 0 for p in view.players]
        hidden_kongs = sum(row.count(None) for row in self.melds)
        if sum(self.hidden) + 4 * hidden_kongs + view.wall_remaining != len(self.unseen):
            raise DeterminizeError(
                f"the view hides {sum(self.hidden)} tiles in hands, {hidden_kongs} concealed "
                f"kong(s) and {view.wall_remaining} in the wall, but {len(self.unseen)} tiles "
                "are unseen"
            )
        last = view.last_discard
        self.last_discard = None if last is None else (last["seat"], _kind(last["tile"]))
        self.discarder = self.last_discard[0] if view.phase == CLAIM and last else None
        drawn = view.players[view.turn].drawn
        self.drawn = None if drawn is None else _kind(drawn)

    def sample(self, rng: random.Random, weights: Weights | None = None) -> Round:
        """A ``Round`` agreeing with the view, its hidden tiles dealt from ``rng``."""
        view = self.view
        rnd: Round = self.klass.__new__(self.klass)
        HandState.__init__(
            rnd, self.rules, self.options, self.rules.tiles(), (view.dice[0], view.dice[1]),
            dealer=view.dealer, carry_pool=view.carry_pool or 0,
            round_wind=_round_wind(view.round_wind),
        )
        rnd.indicator = self.indicator
        rnd.wild_kinds = self.wild_kinds
        rnd.special_kinds = specials = self.special_kinds
        pool = list(self.unseen)
        rng.shuffle(pool)
        for s in range(4):
            rnd.melds[s] = [
                m if m is not None else _hidden_kong(pool, rng, specials) for m in self.melds[s]
            ]
            rnd.flowers[s] = list(self.flowers[s])
            rnd.discards[s] = list(self.discards[s])
            p = view.players[s]
            rnd.claimed[s] = list(p.claimed)
            rnd.has_discarded[s] = bool(p.discards)
            if p.gave_up:
                rnd.gave_up.add(s)
        hands = _deal(pool, self.hidden, specials, rng, weights)
        hands[self.seat] = self.own
        for s in range(4):
            for t in hands[s]:
                rnd._add(s, t)
        rnd.wall = pool + [rnd.indicator]  # the live wall: the rest, in the shuffled order
        rnd.head = 0
        rnd.tail = len(pool)
        rnd.discard_count = sum(len(d) for d in self.discards)
        rnd.claim_counts = [list(row) for row in view.claim_counts]
        rnd.santan_pairs = [(a, b) for a, b in view.santan_pairs]
        rnd.sheng_phase = view.sheng_phase
        rnd.turn = view.turn
        rnd.last_discard = self.last_discard
        discarder = self.discarder
        tile = _take_back_discard(rnd, discarder) if discarder is not None else None
        rnd._rebuild_derived()
        if discarder is not None and tile is not None:
            rnd.turn = discarder
            rnd.phase = TURN
            rnd._discard(discarder, tile)
        elif view.phase == TURN:
            rnd.phase = TURN
            rnd.after_claim = self.drawn is None
            if self.drawn is not None:
                rnd.drawn[view.turn] = self.drawn
                rnd.draw_source[view.turn] = "wall"
        else:  # 三摊: the seats still to choose
            rnd.phase = SANTAN
            rnd.asked = {s: _santan_options(s) for s in view.to_act}
            turn_melds = rnd.melds[view.turn]
            rnd.santan_resume_kong = bool(turn_melds) and turn_melds[-1].kind == "mkong"
        rnd._out = []
        rnd._legal = {}
        return rnd


def determinize(
    view: View | dict[str, Any],
    rng: random.Random,
    weights: Weights | None = None,
) -> Round:
    """A ``Round`` agreeing with ``view`` (a seat's) with the hidden tiles dealt from ``rng``."""
    return Determinizer(view).sample(rng, weights)


def _round_wind(name: str | None) -> int:
    return WINDS.index(name) if name is not None and name in WINDS else 0


def _santan_options(seat: int) -> list[Any]:
    return [Action(A.CONTINUE, seat), Action(A.GIVE_UP, seat)]


def _hidden_kong(pool: list[int], rng: random.Random, specials: frozenset[int]) -> Meld:
    """A concealed kong whose face the viewer cannot see: four unseen copies of a kind,
    taken out of ``pool``."""
    counts: dict[int, int] = {}
    for t in pool:
        counts[t] = counts.get(t, 0) + 1
    kinds = sorted(k for k, n in counts.items() if n >= 4 and k < 34 and k not in specials)
    if not kinds:
        raise DeterminizeError("a hidden concealed kong, but no kind has four unseen copies")
    kind = rng.choice(kinds)
    for _ in range(4):
        pool.remove(kind)
    return Meld("akong", (kind,) * 4, None)


def _deal(
    pool: list[int],
    sizes: Sequence[int],
    specials: frozenset[int],
    rng: random.Random,
    weights: Weights | None,
) -> list[list[int]]:
    """Deal ``sizes[s]`` tiles of ``pool`` (removed from it) to each seat; no special."""
    hands: list[list[int]] = [[] for _ in range(4)]
    for s in range(4):
        need = sizes[s]
        if not need:
            continue
        candidates = [i for i, t in enumerate(pool) if t not in specials]
        if len(candidates) < need:
            raise DeterminizeError("not enough ordinary unseen tiles for the hidden hands")
        if weights is None:
            chosen = candidates[:need]  # the pool is shuffled: its first tiles are a sample
        else:
            chosen = _weighted_sample(candidates, [weights(s, pool[i]) for i in candidates],
                                      need, rng)
        chosen_set = set(chosen)
        hands[s] = [pool[i] for i in chosen]
        pool[:] = [t for i, t in enumerate(pool) if i not in chosen_set]
    return hands


def _weighted_sample(items: list[int], weights: list[float], k: int,
                     rng: random.Random) -> list[int]:
    """``k`` distinct items, each drawn with probability proportional to its weight
    (Efraimidis-Spirakis keys)."""
    keyed = []
    for item, w in zip(items, weights, strict=True):
        w = max(w, 1e-9)
        keyed.append((rng.random() ** (1.0 / w), item))
    keyed.sort(reverse=True)
    return [item for _, item in keyed[:k]]


def _take_back_discard(rnd: Round, discarder: int) -> int:
    """Before a claim window is rebuilt: the discarder holds its last discard again."""
    tile = rnd.discards[discarder].pop()
    rnd.discard_count -= 1
    rnd.has_discarded[discarder] = bool(rnd.discards[discarder])
    rnd.last_discard = None
    rnd._add(discarder, tile)
    return tile
