"""bench.search_stats: the figures of every searched decision, from real searches."""

from __future__ import annotations

from bench.search_stats import main, play


def test_every_alternative_of_every_search_is_counted() -> None:
    got = play("jiaxing", 1, 7_000_000, horizon=2)
    searches = sum(got["searches"])
    assert searches > 0 and len(got["overrides"]) == 1
    assert 0 <= sum(got["overrides"]) <= searches
    # each search compares expert's choice with one or two alternatives
    assert searches <= len(got["gap"]) <= 2 * searches
    assert len(got["gap"]) == len(got["lead"]) == len(got["world_sd"])
    assert all(g >= 0 for g in got["gap"]) and all(sd >= 0 for sd in got["world_sd"])
    assert len(got["ms"]) >= searches


def test_prints_the_summary(capsys) -> None:
    main(["--ruleset", "jiaxing", "--hands", "1", "--seed-start", "7000001", "--horizon", "1"])
    out = capsys.readouterr().out
    assert "overrides" in out and "per seat-hand" in out and "decision CPU" in out
