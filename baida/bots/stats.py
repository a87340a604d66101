"""Statistics for the arena: paired duplicate confidence intervals and timing percentiles.

A duplicate set (one seed played once per seating rotation) is the unit of independence:
the luck of the deal is shared by every bot in the set, so comparing bots within a set and
then averaging over sets removes most of the variance of the tiles.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Two-sided 95% quantiles of Student's t for small degrees of freedom; above 120 the normal
# quantile is used (the difference is below 0.3%).
_T95 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    11: 2.201,
    12: 2.179,
    13: 2.160,
    14: 2.145,
    15: 2.131,
    16: 2.120,
    17: 2.110,
    18: 2.101,
    19: 2.093,
    20: 2.086,
    21: 2.080,
    22: 2.074,
    23: 2.069,
    24: 2.064,
    25: 2.060,
    26: 2.056,
    27: 2.052,
    28: 2.048,
    29: 2.045,
    30: 2.042,
    40: 2.021,
    50: 2.009,
    60: 2.000,
    80: 1.990,
    100: 1.984,
    120: 1.980,
}
Z95 = 1.959964


def t95(df: int) -> float:
    """The two-sided 95% Student-t quantile for ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("a confidence interval needs at least two samples")
    if df in _T95:
        return _T95[df]
    if df > 120:
        return Z95
    # linear interpolation between tabulated degrees of freedom (conservative side first)
    lower = max(k for k in _T95 if k < df)
    upper = min(k for k in _T95 if k > df)
    frac = (df - lower) / (upper - lower)
    return _T95[lower] + frac * (_T95[upper] - _T95[lower])


@dataclass(frozen=True, slots=True)
class Interval:
    """A sample mean and its 95% confidence interval."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def as_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "ci95": [self.low, self.high], "n": self.n}


def mean_ci(values: Sequence[float]) -> Interval:
    """Mean and t-based 95% CI of independent samples (a zero-width interval for n < 2)."""
    n = len(values)
    if n == 0:
        raise ValueError("no samples")
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean, mean, mean, n)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half, n)


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Interval:
    """CI of the mean of ``a[i] - b[i]``: both bots' results in the same duplicate set."""
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    return mean_ci([x - y for x, y in zip(a, b, strict=True)])


def percentile(values: Iterable[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by linear interpolation between order statistics."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no samples")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be within 0-100, got {q}")
    pos = (len(ordered) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


class TimingSample:
    """Decision times kept as a fixed-resolution histogram so workers can merge them cheaply.

    Times are bucketed at 0.01 ms up to 10 s; the median and p99 are read from the buckets.
    """

    RESOLUTION = 1e-5  # seconds per bucket

    def __init__(self) -> None:
        self.buckets: dict[int, int] = {}
        self.count = 0
        self.maximum = 0.0

    def add(self, seconds: float) -> None:
        key = int(seconds / self.RESOLUTION)
        self.buckets[key] = self.buckets.get(key, 0) + 1
        self.count += 1
        if seconds > self.maximum:
            self.maximum = seconds

    def merge(self, other: TimingSample) -> None:
        for key, n in other.buckets.items():
            self.buckets[key] = self.buckets.get(key, 0) + n
        self.count += other.count
        self.maximum = max(self.maximum, other.maximum)

    def quantile(self, q: float) -> float:
        """The ``q`` quantile (0-1) in seconds, at bucket resolution (bucket midpoints)."""
        if self.count == 0:
            return 0.0
        target = q * (self.count - 1)
        seen = 0
        for key in sorted(self.buckets):
            seen += self.buckets[key]
            if seen > target:
                return (key + 0.5) * self.RESOLUTION
        return self.maximum

    def to_dict(self) -> dict[str, object]:
        return {"buckets": self.buckets, "count": self.count, "maximum": self.maximum}

    @classmethod
    def from_dict(cls, data: dict) -> TimingSample:
        sample = cls()
        sample.buckets = {int(k): int(v) for k, v in data["buckets"].items()}
        sample.count = int(data["count"])
        sample.maximum = float(data["maximum"])
        return sample
