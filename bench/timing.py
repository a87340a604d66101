"""Timing helpers: medians of batch means, and per-call worst cases."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass
class Timing:
    """One measured function: median and spread of its per-call time, in microseconds."""

    name: str
    median_us: float
    low_us: float
    high_us: float
    calls: int
    worst_us: float | None = None
    target_us: float | None = None
    note: str = ""
    worst_cpu_us: float | None = None
    cpu_us: float | None = None  # median of the batch means by this thread's CPU clock

    def as_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def per_call(
    name: str,
    fn: Callable[[Any], Any],
    inputs: Sequence[Any],
    batches: int = 21,
    target_us: float | None = None,
    note: str = "",
) -> Timing:
    """Call ``fn`` on every input, ``batches`` times over; median of the batch means.

    Each batch is timed by the wall clock and by this thread's CPU clock: on a machine shared
    with other work the wall clock counts the time the thread waited for a core, the CPU
    clock does not (``cpu_us``).
    """
    for item in inputs[: min(len(inputs), 2000)]:
        fn(item)  # warm caches (tables are built at first use)
    means = []
    cpu = []
    for _ in range(batches):
        start_cpu = time.thread_time_ns()
        start = time.perf_counter_ns()
        for item in inputs:
            fn(item)
        means.append((time.perf_counter_ns() - start) / len(inputs) / 1000)
        cpu.append((time.thread_time_ns() - start_cpu) / len(inputs) / 1000)
    means.sort()
    return Timing(
        name,
        statistics.median(means),
        means[0],
        means[-1],
        len(inputs) * batches,
        target_us=target_us,
        note=note,
        cpu_us=statistics.median(cpu),
    )


def each_call(
    name: str,
    fn: Callable[[Any], Any],
    inputs: Sequence[Any],
    target_us: float | None = None,
    note: str = "",
) -> Timing:
    """Time every call on its own (for worst cases): median, p99 and maximum over the inputs.

    Each call is timed by the wall clock and by this thread's CPU clock. On a busy machine the
    wall-clock maximum is the scheduler's time slice (a few ms) rather than the code, so the
    CPU-time maximum is reported beside it.
    """
    times = []
    cpu = []
    clock = time.perf_counter_ns
    thread_clock = time.thread_time_ns
    for item in inputs:
        start_cpu = thread_clock()
        start = clock()
        fn(item)
        end = clock()
        cpu.append((thread_clock() - start_cpu) / 1000)
        times.append((end - start) / 1000)
    times.sort()
    return Timing(
        name,
        statistics.median(times),
        times[0],
        times[int(len(times) * 0.99)],
        len(times),
        worst_us=times[-1],
        target_us=target_us,
        note=note,
        worst_cpu_us=max(cpu),
    )
