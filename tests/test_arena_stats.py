"""Arena statistics: t intervals, paired duplicate differences, percentiles, timing buckets."""

from __future__ import annotations

import random
import statistics

import pytest

from baida.bots.stats import (
    TimingSample,
    mean_ci,
    paired_difference,
    percentile,
    t95,
)


def test_mean_ci_matches_the_t_interval() -> None:
    ci = mean_ci([1, 2, 3, 4, 5])
    half = 2.776 * statistics.stdev([1, 2, 3, 4, 5]) / 5**0.5
    assert ci.mean == 3
    assert ci.low == pytest.approx(3 - half)
    assert ci.high == pytest.approx(3 + half)
    assert ci.n == 5
    assert ci.excludes_zero()
    assert not mean_ci([-1, 1, -2, 2]).excludes_zero()


def test_single_sample_and_empty() -> None:
    one = mean_ci([4.0])
    assert (one.low, one.high) == (4.0, 4.0)
    with pytest.raises(ValueError):
        mean_ci([])


def test_t_quantiles_decrease_towards_normal() -> None:
    values = [t95(df) for df in range(1, 400)]
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))
    assert t95(1000) == pytest.approx(1.96, abs=1e-3)
    assert t95(35) < t95(30) and t95(35) > t95(40)
    with pytest.raises(ValueError):
        t95(0)


def test_pairing_removes_shared_luck() -> None:
    rng = random.Random(7)
    luck = [rng.gauss(0, 50) for _ in range(200)]
    a = [x + 1.0 + rng.gauss(0, 1) for x in luck]
    b = [x + rng.gauss(0, 1) for x in luck]
    paired = paired_difference(a, b)
    assert paired.excludes_zero() and paired.low > 0
    # unpaired, the same data cannot tell the bots apart
    unpaired_half = mean_ci(a).half_width + mean_ci(b).half_width
    assert paired.half_width < unpaired_half / 10
    with pytest.raises(ValueError):
        paired_difference([1.0], [1.0, 2.0])


def test_coverage_of_the_interval_is_about_95_percent() -> None:
    rng = random.Random(1)
    hits = 0
    for _ in range(400):
        ci = mean_ci([rng.gauss(2.0, 3.0) for _ in range(30)])
        hits += ci.low <= 2.0 <= ci.high
    assert 0.91 <= hits / 400 <= 0.99


def test_percentile() -> None:
    data = list(range(101))
    assert percentile(data, 50) == 50
    assert percentile(data, 99) == 99
    assert percentile([1.0, 2.0], 50) == 1.5
    with pytest.raises(ValueError):
        percentile([], 50)
    with pytest.raises(ValueError):
        percentile([1], 101)


def test_timing_sample_quantiles_and_merge() -> None:
    a, b = TimingSample(), TimingSample()
    for ms in range(1, 101):
        (a if ms % 2 else b).add(ms / 1000)
    a.merge(b)
    assert a.count == 100
    assert a.quantile(0.5) == pytest.approx(0.050, abs=1e-3)
    assert a.quantile(0.99) == pytest.approx(0.099, abs=2e-4)
    assert a.maximum == pytest.approx(0.1)
    again = TimingSample.from_dict(a.to_dict())
    assert again.quantile(0.5) == a.quantile(0.5)
    assert TimingSample().quantile(0.5) == 0.0
