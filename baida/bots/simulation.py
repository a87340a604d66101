"""Single-player simulation of a hand's own future: how often it finishes a target in time.

The planner's staged estimate (``planner.Planner.probability``) reads a hand's distance and its
live improving tiles, then assumes typical acceptances for the later steps. A simulation asks
the hand itself: sample the tiles still unseen in the order they might come (this seat's draws
and, between them, the three others' discards), play them with a fast greedy policy (keep a
tile only when it brings the target closer, 碰 or 吃 a discard on the same condition, always
throw away tiles that cannot belong to the target) and count the futures that finish.

Every candidate of one decision is played against the same sampled futures (common random
numbers), so the differences between candidates are far less noisy than each estimate. The
opponents are not simulated: the race against them is the caller's business (``expert``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .efficiency import Target, distance
from .features import Seen
from .opponents import win_chance_table
from .planner import Plan, combined_ev

WILD = -1
NUM = 34


@dataclass(frozen=True, slots=True)
class Futures:
    """Sampled orders of the unseen tiles, one per rollout, each ``4 * draws`` long (this
    seat's draw, then the discards of the three seats after it), shared by every candidate."""

    orders: tuple[tuple[int, ...], ...]
    draws: int
    allow_chi: bool

    @classmethod
    def sample(
        cls,
        live: Sequence[int],
        live_wilds: int,
        draws: int,
        rollouts: int,
        rng: random.Random,
        allow_chi: bool = True,
    ) -> Futures:
        pool = [k for k in range(NUM) for _ in range(max(0, live[k]))]
        pool += [WILD] * max(0, live_wilds)
        length = min(len(pool), 4 * max(0, draws))
        orders = tuple(tuple(rng.sample(pool, length)) for _ in range(rollouts))
        return cls(orders, draws, allow_chi)


def finish_chance(
    futures: Futures,
    counts: Sequence[int],
    wilds: int,
    sets: int,
    target: Target,
    claims: bool = True,
    ron: bool = False,
    hazard: float = 0.0,
) -> float:
    """Share of ``futures`` in which the hand (``counts`` of 34 kinds plus ``wilds``, one tile
    short: 3n+1 with ``sets`` sets to form) finishes ``target``: with its own draw, or with
    ``ron`` (Wenling) also on another seat's discard. With ``hazard``, the chance per turn
    that another seat finishes first, a future that finishes on turn ``t`` counts
    ``(1 - hazard) ** t``: the race against the others, which punishes a slow plan."""
    if not futures.orders:
        return 0.0
    kinds = target.kinds()
    in_target = [False] * NUM
    for k in kinds:
        in_target[k] = True
    pons = claims
    chis = claims and futures.allow_chi and not target.triplets and target.kind != "duiduihe"
    alive = [(1.0 - hazard) ** t for t in range(futures.draws + 1)]
    finished = 0.0
    for order in futures.orders:
        turn = _play(order, list(counts), wilds, sets, target, in_target, pons, chis, ron)
        if turn >= 0:
            finished += alive[min(turn, futures.draws)]
    return finished / len(futures.orders)


def _play(
    order: Sequence[int],
    c: list[int],
    w: int,
    sets: int,
    target: Target,
    in_target: list[bool],
    pons: bool,
    chis: bool,
    ron: bool,
) -> int:
    """One future: the turn on which the hand finishes (0 = this seat's next draw), or -1."""
    d = distance(c, w, sets, target)
    for i, tile in enumerate(order):
        own = i % 4 == 0
        if own:
            if tile == WILD:
                w += 1
                if d <= 0:
                    return i // 4
                d = _discard(c, w, sets, target, in_target, d - 1)
                continue
            if not in_target[tile]:
                continue
            c[tile] += 1
            after = distance(c, w, sets, target)
            if after < 0:
                return i // 4
            if after < d:
                d = _discard(c, w, sets, target, in_target, after)
            else:
                c[tile] -= 1
            continue
        if tile == WILD or not in_target[tile]:
            continue  # a discarded wild is dead
        if ron and d == 0:
            c[tile] += 1
            won = distance(c, w, sets, target) < 0
            c[tile] -= 1
            if won:
                return i // 4
        if pons and c[tile] >= 2:
            c[tile] -= 2
            after = distance(c, w, sets - 1, target)
            if after < d:
                sets -= 1
                d = _discard(c, w, sets, target, in_target, after)
                continue
            c[tile] += 2
        if chis and i % 4 == 3 and tile < 27:
            claimed = _chi(c, w, sets, target, in_target, tile, d)
            if claimed is not None:
                sets -= 1
                d = claimed
    return -1


def _chi(
    c: list[int], w: int, sets: int, target: Target, in_target: list[bool], tile: int, d: int
) -> int | None:
    """吃 ``tile`` (from the seat on the left) when a sequence with it brings the target
    closer; returns the new distance, or None (``c`` unchanged)."""
    pos = tile % 9
    for lo in (pos - 2, pos - 1, pos):
        if lo < 0 or lo > 6:
            continue
        others = [tile - pos + j for j in range(lo, lo + 3) if j != pos]
        if any(c[k] == 0 for k in others):
            continue
        for k in others:
            c[k] -= 1
        after = distance(c, w, sets - 1, target)
        if after < d:
            return _discard(c, w, sets - 1, target, in_target, after)
        for k in others:
            c[k] += 1
    return None


def _discard(
    c: list[int], w: int, sets: int, target: Target, in_target: list[bool], whole: int
) -> int:
    """Throw away one tile of a full hand whose distance is ``whole``: a tile that cannot
    belong to the target if there is one, else the one that keeps the hand nearest (among
    equals, the most isolated). Returns the distance of what is kept."""
    for k in range(NUM):
        if c[k] and not in_target[k]:
            c[k] -= 1
            return whole
    best_k = -1
    best = (99, 99)
    for k in range(NUM):
        if not c[k]:
            continue
        c[k] -= 1
        d = distance(c, w, sets, target)
        c[k] += 1
        key = (d, _neighbours(c, k))
        if key < best:
            best, best_k = key, k
    if best_k < 0:  # only wilds held: keep them all but one
        return whole
    c[best_k] -= 1
    return best[0]


def _neighbours(c: list[int], k: int) -> int:
    """How connected kind ``k`` is to the rest of the hand (copies of itself and of the
    kinds within two in its suit)."""
    n = c[k] - 1
    if k >= 27:
        return 2 * n
    pos = k % 9
    for j in (-2, -1, 1, 2):
        if 0 <= pos + j <= 8:
            n += c[k + j]
    return 2 * (c[k] - 1) + n


def simulate_offense(
    seen: Seen,
    plans: dict[int, list[Plan]],
    offense: dict[int, float],
    candidates: Sequence[int],
    draws: int,
    rng: random.Random,
    rollouts: int,
    top: int,
    targets: int = 2,
    per_planned: float = 1.0,
    hazard: float = 0.0,
) -> None:
    """Replace the ``top`` best ``candidates`` discards' estimates (``offense``, in place) by
    simulated ones: each one's ``targets`` best plans played against the same futures, a
    chance divided by ``per_planned``. The other discards keep the planner's estimate at the
    most cautious simulated ratio, so that a simulated discard is never outranked by an
    unsimulated one only because the planner's chances run lower."""
    ranked = sorted(candidates, key=lambda k: -offense[k])[:top]
    if not ranked or draws <= 0:
        return
    futures = Futures.sample(
        seen.live, seen.live_wilds, draws, rollouts, rng,
        allow_chi=bool(seen.options.get("allow_chi", True)),
    )
    ron = seen.rules.discard_wins
    counts = seen.counts
    ratios = []
    for k in ranked:
        counts[k] -= 1
        simulated = [
            replace(p, probability=finish_chance(
                futures, counts, seen.wilds, seen.sets_needed, p.target, ron=ron,
                hazard=hazard,
            ) / per_planned)
            for p in plans[k][:targets]
        ]
        counts[k] += 1
        before = offense[k]
        offense[k] = combined_ev(simulated)
        if before > 0:
            ratios.append(offense[k] / before)
    scale = min(ratios) if ratios else 1.0
    for k in offense:
        if k not in ranked:
            offense[k] *= scale * 0.98


def race_hazard(seen: Seen, draws: int) -> float:
    """The chance per turn that another seat finishes first: the opponents' measured win
    chances (``opponents.win_chance_table``: melds shown, wall left) spread evenly over the
    draws left."""
    if draws <= 0:
        return 0.0
    others = 0.0
    for p in seen.players:
        if p.seat == seen.seat or p.discarded_wild:
            continue
        if p.gave_up and not seen.options.get("gaveup_can_win"):
            continue
        others += win_chance_table(seen.rules, len(p.melds) + p.hidden_kongs, seen.wall_remaining)
    others = min(others, 0.95)
    return 1.0 - (1.0 - others) ** (1.0 / draws)
