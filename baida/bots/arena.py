"""Duplicate matches between bots, over parallel worker processes.

A *duplicate set* is one seed (one wall and dice) played once per seating rotation: with
``k`` bots, rotation ``r`` seats ``bots[(seat + r) % k]`` at each seat, so over the set every
bot sits in every seat and meets exactly the same tiles. A bot's result in a set is its mean
points per hand over the seats it held; comparing bots set by set (paired) and averaging over
sets gives confidence intervals that the luck of the deal barely widens.

Seeds are integers; seed ``i`` becomes the 32-byte engine seed ``SHA-256("baida-arena:i")``.
The range ``[seed_start, seed_start + hands)`` is cut into disjoint chunks that worker
processes play; results are merged in the parent. Every bot instance is seeded from
(seed, rotation, seat), so a run is reproducible whatever the number of workers.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .liability_stats import LiabilityTally, hand_liability
from .policy import Policy, make_bot
from .stats import TimingSample

DECISION_LIMIT_MEDIAN = 0.100
DECISION_LIMIT_WORST = 1.0


def engine_seed(index: int) -> bytes:
    """The engine seed of arena seed ``index``."""
    return hashlib.sha256(f"baida-arena:{index}".encode()).digest()


def seatings(bots: Sequence[str]) -> list[list[str]]:
    """The rotations of a duplicate set: ``k`` seatings that put every bot in every seat."""
    k = len(bots)
    if k == 0:
        raise ValueError("no bots")
    return [[bots[(seat + r) % k] for seat in range(4)] for r in range(k)]


@dataclass(slots=True)
class BotTally:
    """One bot's results within a chunk of duplicate sets."""

    seat_hands: int = 0
    points: float = 0.0
    wins: int = 0
    deal_ins: int = 0
    tai: int = 0
    fan: int = 0
    win_points: int = 0
    illegal: int = 0
    errors: list[str] = field(default_factory=list)
    timing: TimingSample = field(default_factory=TimingSample)
    cpu_timing: TimingSample = field(default_factory=TimingSample)  # thread CPU time
    liability: LiabilityTally = field(default_factory=LiabilityTally)

    def merge(self, other: BotTally) -> None:
        self.seat_hands += other.seat_hands
        self.points += other.points
        self.wins += other.wins
        self.deal_ins += other.deal_ins
        self.tai += other.tai
        self.fan += other.fan
        self.win_points += other.win_points
        self.illegal += other.illegal
        self.errors.extend(other.errors[: max(0, 5 - len(self.errors))])
        self.timing.merge(other.timing)
        self.cpu_timing.merge(other.cpu_timing)
        self.liability.merge(other.liability)


@dataclass(slots=True)
class ChunkResult:
    """What a worker sends back: per-set mean points of every bot, and per-bot tallies."""

    groups: list[dict[str, float]] = field(default_factory=list)  # seed order
    seeds: list[int] = field(default_factory=list)
    tallies: dict[str, BotTally] = field(default_factory=dict)
    hands: int = 0
    draws: int = 0
    seconds: float = 0.0
    engine_errors: list[str] = field(default_factory=list)  # sets dropped, with the reason


def play_hand(
    ruleset: str,
    seed: int,
    seating: Sequence[str],
    rotation: int,
    options: dict[str, Any] | None,
    tallies: dict[str, BotTally],
) -> dict[str, Any]:
    """Play one hand with ``seating`` (bot name per seat); returns the result JSON."""
    from ..engine.match import Match
    from ..table import TableDriver, TableTiming, bot_modes, play_bots

    match = Match(ruleset, options, hands=1)
    driver = TableDriver(match, timing=TableTiming.instant(), modes=bot_modes(None))
    bots: list[Policy] = [
        make_bot(name, seed=(seed * 16 + rotation * 4 + s)) for s, name in enumerate(seating)
    ]
    def record(turn: Any, seconds: float, problem: str) -> None:
        tally = tallies[seating[turn.seat]]
        tally.timing.add(seconds)
        if problem:
            tally.illegal += 1
            if len(tally.errors) < 5:
                tally.errors.append(f"seed {seed} rotation {rotation} seat {turn.seat}: {problem}")

    def record_cpu(turn: Any, seconds: float) -> None:
        tallies[seating[turn.seat]].cpu_timing.add(seconds)

    driver.start_hand(engine_seed(seed), 0.0)
    play_bots(driver, bots, on_decision=record, on_cpu=record_cpu)
    rnd = driver.round
    assert rnd is not None and rnd.result is not None
    result = rnd.result.to_json()
    per_seat = hand_liability([e.to_json() for e in rnd.events], result)
    for seat, name in enumerate(seating):
        tallies[name].liability.merge(per_seat[seat])
    return result


def play_chunk(
    ruleset: str,
    bots: Sequence[str],
    seeds: Sequence[int],
    options: dict[str, Any] | None = None,
) -> ChunkResult:
    """Play the duplicate sets of ``seeds`` (every rotation of each)."""
    start = time.perf_counter()
    out = ChunkResult()
    distinct = list(dict.fromkeys(bots))
    out.tallies = {b: BotTally() for b in distinct}
    for seed in seeds:
        group_points = {b: 0.0 for b in distinct}
        group_hands = {b: 0 for b in distinct}
        group_tallies = {b: BotTally() for b in distinct}
        hands = draws = 0
        try:
            for rotation, seating in enumerate(seatings(bots)):
                result = play_hand(ruleset, seed, seating, rotation, options, group_tallies)
                hands += 1
                _tally_result(ruleset, result, seating, group_tallies, group_points, group_hands)
                if result.get("outcome") != "win":
                    draws += 1
        except Exception as exc:  # an engine failure drops the whole duplicate set
            out.engine_errors.append(f"seed {seed}: {type(exc).__name__}: {exc}")
            continue
        for b in distinct:
            out.tallies[b].merge(group_tallies[b])
        out.hands += hands
        out.draws += draws
        out.groups.append({b: group_points[b] / group_hands[b] for b in distinct})
        out.seeds.append(seed)
    out.seconds = time.perf_counter() - start
    return out


def _tally_result(
    ruleset: str,
    result: dict[str, Any],
    seating: Sequence[str],
    tallies: dict[str, BotTally],
    group_points: dict[str, float],
    group_hands: dict[str, int],
) -> None:
    payments = result.get("payments") or [0, 0, 0, 0]
    winner = result.get("winner")
    score = result.get("score") or {}
    for seat, name in enumerate(seating):
        t = tallies[name]
        t.seat_hands += 1
        t.points += payments[seat]
        group_points[name] += payments[seat]
        group_hands[name] += 1
    if result.get("outcome") == "win" and winner is not None:
        t = tallies[seating[winner]]
        t.wins += 1
        t.tai += int(score.get("tai_total") or 0)
        t.fan += int(score.get("fan_total") or 0)
        t.win_points += int(score.get("points") or 0)
        source = result.get("from")
        if result.get("win_by") == "discard" and source is not None:
            tallies[seating[source]].deal_ins += 1


def chunks(seed_start: int, hands: int, size: int) -> Iterator[list[int]]:
    """Disjoint consecutive seed ranges of at most ``size`` seeds."""
    for lo in range(seed_start, seed_start + hands, size):
        yield list(range(lo, min(lo + size, seed_start + hands)))


def _chunk_job(args: tuple[str, tuple[str, ...], list[int], dict | None]) -> ChunkResult:
    ruleset, bots, seeds, options = args
    return play_chunk(ruleset, bots, seeds, options)


def run_arena(
    ruleset: str,
    bots: Sequence[str],
    hands: int,
    seed_start: int = 0,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> ChunkResult:
    """Play ``hands`` duplicate sets from ``seed_start`` over ``workers`` processes and merge.

    ``progress`` is called with the number of duplicate sets just finished.
    """
    if hands < 1:
        raise ValueError("--hands must be at least 1")
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    for name in dict.fromkeys(bots):
        make_bot(name)  # fail early on an unknown name
    size = chunk_size or max(1, min(25, hands // (workers * 4) or 1))
    jobs = [(ruleset, tuple(bots), seeds, options) for seeds in chunks(seed_start, hands, size)]
    merged = ChunkResult(tallies={b: BotTally() for b in dict.fromkeys(bots)})
    start = time.perf_counter()
    if workers == 1:
        for job in jobs:
            _merge(merged, _chunk_job(job), progress)
    else:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        with ctx.Pool(workers) as pool:
            for part in pool.imap_unordered(_chunk_job, jobs):
                _merge(merged, part, progress)
    order = sorted(range(len(merged.seeds)), key=merged.seeds.__getitem__)
    merged.seeds = [merged.seeds[i] for i in order]
    merged.groups = [merged.groups[i] for i in order]
    merged.seconds = time.perf_counter() - start
    return merged


def _merge(into: ChunkResult, part: ChunkResult, progress: Callable[[int], None] | None) -> None:
    into.groups.extend(part.groups)
    into.seeds.extend(part.seeds)
    into.hands += part.hands
    into.draws += part.draws
    into.engine_errors.extend(part.engine_errors)
    for name, tally in part.tallies.items():
        into.tallies[name].merge(tally)
    if progress is not None:
        progress(len(part.seeds) + len(part.engine_errors))
