"""bench.decision_latency: every decision of the hands is timed, and the collector is back on."""

from __future__ import annotations

import gc

import pytest

from bench.decision_latency import main, measure


def test_every_decision_is_timed_and_the_collector_is_restored() -> None:
    row = measure("efficient", "wenling", 1, 971000, gc_on=False)
    assert gc.isenabled()
    assert row.decisions > 20 and not row.gc_on
    assert 0 < row.median_ms <= row.p99_ms <= row.p999_ms <= row.worst_ms
    assert row.total_s * 1000 >= row.worst_ms


def test_the_command_prints_a_row_per_ruleset_and_mode(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--bot", "efficient", "--ruleset", "jiaxing", "--hands", "1", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and '"gc_on": true' in lines[0] and '"gc_on": false' in lines[1]
