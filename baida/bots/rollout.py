"""The fast policy a search plays hands out with, reading a ``Round`` directly.

A rollout must be cheap (a search plays hundreds of hands per decision), so this policy asks
the engine's state, not a view: each seat aims at the open target nearest to finishing (a
Jiaxing pattern, or in Wenling any shape), throws away first the tiles that cannot belong to
it (the most isolated of them), then the tile that leaves the hand nearest; it claims and
declares kongs when that brings the target closer, always wins and always 坚持 (三摊). Where
discards may be won on (Wenling), a seat that would not be ready after its discard folds: it
throws no tile that completes another seat's hand while it holds a tile that does not. It sees
every hand of the (determinized) round it plays, which is what a rollout is; so its folding is
surer than a real player's, as its targets are.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.round import Round
from .efficiency import Target, distance
from .targets import jiaxing_tai, open_targets

NUM = 34
MAX_ACTIONS = 2_000  # a hand never takes this many actions: a guard, not a rule


def nearest(targets: Sequence[Target], counts: Sequence[int], wilds: int,
            sets: int) -> Target | None:
    """Of ``targets``, the one nearest to finishing (ties: the one worth more 台)."""
    best: Target | None = None
    best_key = (99, 0)
    for target in targets:
        key = (distance(counts, wilds, sets, target), -jiaxing_tai(target))
        if key < best_key:
            best, best_key = target, key
    return best


def _target_mask(target: Target | None) -> list[bool]:
    mask = [target is None] * NUM
    if target is not None:
        for k in target.kinds():
            mask[k] = True
    return mask


def _isolation(c: Sequence[int], k: int) -> int:
    """How connected kind ``k`` is to the rest (lower: throw it first)."""
    n = 2 * (c[k] - 1)
    if k < 27:
        pos = k % 9
        for j in (-2, -1, 1, 2):
            if 0 <= pos + j <= 8:
                n += c[k + j]
    return n


class RolloutPolicy:
    """Chooses for every seat of a round being played out; keeps each seat's open targets."""

    __slots__ = ("rules", "sets", "fold", "_targets")

    def __init__(self, rnd: Round) -> None:
        self.rules = rnd.rules
        self.sets = rnd.rules.sets
        self.fold = bool(rnd.discard_win)
        self._targets: dict[int, tuple[int, list[Target]]] = {}

    def target(self, rnd: Round, seat: int, counts: Sequence[int], wilds: int,
               sets: int) -> Target | None:
        """The seat's open target nearest to finishing (the open ones change only with its
        melds, so they are kept per seat)."""
        melds = rnd.melds[seat]
        kept = self._targets.get(seat)
        if kept is None or kept[0] != len(melds):
            kept = (len(melds), open_targets(melds, self.rules))
            self._targets[seat] = kept
        return nearest(kept[1], counts, wilds, sets)

    def choose(self, rnd: Round, seat: int, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        types = {}
        for a in legal:
            types.setdefault(a.type, []).append(a)
        for decisive in (A.LAZI, A.WIN):
            if decisive in types:
                return types[decisive][0]
        if A.CONTINUE in types:
            return types[A.CONTINUE][0]
        if A.DISCARD in types or A.AKONG in types or A.BUKONG in types:
            return self._turn(rnd, seat, types)
        return self._claim(rnd, seat, types)

    # -- own turn ---------------------------------------------------------------------------
    def _turn(self, rnd: Round, seat: int, types: dict[str, list[Action]]) -> Action:
        c = rnd.cnt[seat][:NUM]
        w = len(rnd.wild[seat])
        sets = self.sets - len(rnd.melds[seat])
        target = self.target(rnd, seat, c, w, sets)
        discards = types.get(A.DISCARD, [])
        kinds = [a.tile for a in discards if a.tile is not None and a.tile < NUM
                 and a.tile not in rnd.wild_kinds]
        keep, choice = self._best_discard(c, w, sets, target, kinds)
        if self.fold and choice is not None and keep >= 1 and _feeds(rnd, seat, choice):
            safe = [k for k in kinds if not _feeds(rnd, seat, k)]
            if safe:
                choice = min(safe, key=lambda k: (self._after(c, w, sets, target, k),
                                                  _isolation(c, k), -k))
        for a in types.get(A.BUKONG, []):
            return a
        for a in types.get(A.AKONG, []):
            k = a.tile
            assert k is not None
            c[k] -= 4
            after = self._distance(c, w, sets - 1, target)
            c[k] += 4
            if after <= keep:
                return a
        if choice is None:
            return discards[0] if discards else next(iter(types.values()))[0]
        for a in discards:
            if a.tile == choice:
                return a
        return discards[0]

    def _best_discard(self, c: list[int], w: int, sets: int, target: Target | None,
                      kinds: Sequence[int]) -> tuple[int, int | None]:
        """The distance kept and the kind to throw from a full hand ``c``."""
        mask = _target_mask(target)
        outside = [k for k in kinds if not mask[k]]
        if outside:
            k = min(outside, key=lambda k: (_isolation(c, k), -k))
            return self._after(c, w, sets, target, k), k
        best, choice = (99, 99), None
        for k in dict.fromkeys(kinds):
            key = (self._after(c, w, sets, target, k), _isolation(c, k))
            if key < best:
                best, choice = key, k
        return best[0], choice

    def _after(self, c: list[int], w: int, sets: int, target: Target | None, k: int) -> int:
        """The distance left after throwing kind ``k`` from the full hand ``c``."""
        c[k] -= 1
        d = self._distance(c, w, sets, target)
        c[k] += 1
        return d

    @staticmethod
    def _distance(c: Sequence[int], w: int, sets: int, target: Target | None) -> int:
        if target is None:
            return 99
        return distance(c, w, sets, target)

    # -- claims -----------------------------------------------------------------------------
    def _claim(self, rnd: Round, seat: int, types: dict[str, list[Action]]) -> Action:
        passing = types.get(A.PASS, [None])[0]
        tile = rnd.window_tile
        offers = types.get(A.PON, []) + types.get(A.MKONG, []) + types.get(A.CHI, [])
        if tile is None or not offers:
            return passing if passing is not None else next(iter(types.values()))[0]
        c = rnd.cnt[seat][:NUM]
        w = len(rnd.wild[seat])
        sets = self.sets - len(rnd.melds[seat])
        target = self.target(rnd, seat, c, w, sets)
        if target is None or not _target_mask(target)[tile]:
            return passing if passing is not None else offers[0]
        now = self._distance(c, w, sets, target)
        chosen, best = passing, now
        for a in offers:
            if a.type == A.CHI and (target.triplets or target.kind == "duiduihe"):
                continue
            uses = list(a.tiles) if a.type == A.CHI and a.tiles else [tile] * (
                2 if a.type == A.PON else 3)
            for k in uses:
                c[k] -= 1
            if a.type == A.MKONG:
                after = self._distance(c, w, sets - 1, target)
            else:
                kinds = [k for k in range(NUM) if c[k]]
                after = self._best_discard(c, w, sets - 1, target, kinds)[0] if kinds else 99
            for k in uses:
                c[k] += 1
            if after < best:
                chosen, best = a, after
        return chosen if chosen is not None else offers[0]


def _feeds(rnd: Round, seat: int, kind: int) -> bool:
    """Whether another seat's concealed hand is complete with ``kind`` (its shape only: the
    rules' other conditions of a discard win are not asked, a rollout need not be exact)."""
    for other in range(4):
        if other != seat and other not in rnd.gave_up and rnd._complete_with(other, kind):
            return True
    return False


def play_out(rnd: Round, first: Action | None = None, *, seat: int | None = None,
             turns: int | None = None) -> list[int] | None:
    """Play ``rnd`` to its end (``first`` applied before) with the fast policy; the payments.

    With ``seat`` and ``turns``, stop earlier, at ``seat``'s ``turns``-th own turn from here
    (before it acts): None then, and ``rnd`` is left at that turn."""
    if first is not None:
        rnd.apply(first)
    policy = RolloutPolicy(rnd)
    left = turns
    for _ in range(MAX_ACTIONS):
        if rnd.ended:
            break
        actor = rnd.to_act[0]
        if left is not None and actor == seat and rnd.phase == "turn":
            left -= 1
            if left <= 0:
                return None
        rnd.apply(policy.choose(rnd, actor, rnd.legal_actions(actor)))
    else:
        raise RuntimeError("a rollout did not end")
    assert rnd.result is not None
    return list(rnd.result.payments)
