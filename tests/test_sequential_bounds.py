"""bench.sequential_bounds: O'Brien-Fleming boundaries keep a run's error near its level, and
an edge the size of the boundaries' scale is found."""

from __future__ import annotations

import pytest

from bench.sequential_bounds import boundaries, crossing_share, main


def test_the_boundaries_fall_as_the_looks_go_on_to_the_final_one() -> None:
    bounds = boundaries(4, 2.024)
    assert bounds[-1] == pytest.approx(2.024)
    assert bounds[0] == pytest.approx(2.024 * 2)
    assert bounds == sorted(bounds, reverse=True)


def test_one_look_is_a_plain_two_sided_test() -> None:
    error = crossing_share([1.96], 0.0, 40_000, seed=3, two_sided=True)
    assert error == pytest.approx(0.05, abs=0.006)
    # an edge whose expected z is 1.96 is found half the time
    assert crossing_share([1.96], 1.96, 40_000, seed=4, two_sided=False) == pytest.approx(
        0.5, abs=0.01)


def test_four_looks_keep_the_error_near_five_percent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--runs", "40000", "--edges", "0.3"]) == 0
    out = capsys.readouterr().out
    error = float(out.split("runs: ")[1].split()[0])
    assert error == pytest.approx(0.05, abs=0.006)
    power = float(out.rsplit(": ", 1)[1])
    assert 0.87 < power < 0.93  # 0.3 points per hand, spread 26, 80,000 sets
