"""The arena: duplicate seatings, disjoint seed chunks, reproducible parallel runs, the report,
the chart and the ``baida arena`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baida.bots.arena import chunks, engine_seed, run_arena, seatings
from baida.bots.report import build_report, text_table, write_json, write_png
from baida.cli import main


def test_seatings_put_every_bot_in_every_seat() -> None:
    assert seatings(["a", "b"]) == [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    for bots in (["a", "b", "c"], ["a", "b", "c", "d"], ["a", "b", "c", "d", "e"]):
        rotations = seatings(bots)
        assert len(rotations) == len(bots)
        for bot in bots:
            for seat in range(4):
                assert sum(r[seat] == bot for r in rotations) == 1
    with pytest.raises(ValueError):
        seatings([])


def test_chunks_are_disjoint_and_cover_the_range() -> None:
    parts = list(chunks(100, 23, 5))
    flat = [s for p in parts for s in p]
    assert flat == list(range(100, 123))
    assert all(len(p) <= 5 for p in parts)


def test_engine_seeds_differ() -> None:
    assert engine_seed(0) != engine_seed(1)
    assert len(engine_seed(0)) == 32


def test_parallel_run_equals_serial_run() -> None:
    serial = run_arena("jiaxing", ["greedy", "random"], 4, seed_start=10, workers=1, chunk_size=1)
    parallel = run_arena("jiaxing", ["greedy", "random"], 4, seed_start=10, workers=2, chunk_size=1)
    assert serial.seeds == parallel.seeds == [10, 11, 12, 13]
    assert serial.groups == parallel.groups
    assert serial.hands == parallel.hands == 8
    for name in ("greedy", "random"):
        assert serial.tallies[name].points == parallel.tallies[name].points
        assert serial.tallies[name].illegal == 0


def test_duplicate_sets_are_zero_sum() -> None:
    result = run_arena("wenling", ["greedy", "random"], 3, seed_start=0, workers=1)
    for group in result.groups:
        # two seats each per hand, so the two means cancel exactly
        assert group["greedy"] + group["random"] == pytest.approx(0)


def test_report_json_text_and_chart(tmp_path: Path) -> None:
    bots = ["greedy", "random"]
    result = run_arena("wenling", bots, 3, seed_start=0, workers=1)
    report = build_report(result, "wenling", bots, 0, 1)
    assert report["duplicate_sets"] == 3
    assert report["hands_played"] == 6
    assert report["illegal_actions_total"] == 0
    entry = report["per_bot"]["greedy"]
    assert set(entry) >= {"points_per_hand", "win_rate", "avg_he", "decision_ms", "illegal_actions"}
    assert entry["decision_ms"]["count"] > 0
    assert 0 <= entry["decision_cpu_ms"]["median"] <= entry["decision_cpu_ms"]["max"]
    assert set(entry["liability"]) >= {"baosanjia", "santan_asked", "third_claim_feeds"}
    assert entry["points_per_hand"]["n"] == 3
    assert report["pairwise"][0]["a"] == "greedy"
    out = tmp_path / "report.json"
    write_json(report, out)
    assert json.loads(out.read_text())["ruleset"] == "wenling"
    png = tmp_path / "chart.png"
    write_png(report, png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = text_table(report)
    assert "greedy - random" in table
    assert "greedy: 包三家" in table and "decision thread CPU ms" in table


def test_jiaxing_report_has_tai_and_fan(tmp_path: Path) -> None:
    result = run_arena("jiaxing", ["efficient", "random"], 2, seed_start=0, workers=1)
    report = build_report(result, "jiaxing", ["efficient", "random"], 0, 1)
    assert "avg_tai" in report["per_bot"]["efficient"]
    assert "avg_fan" in report["per_bot"]["efficient"]
    assert "三摊 asked" in text_table(report)


def test_cli_runs_and_writes_both_files(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out, png = tmp_path / "r.json", tmp_path / "r.png"
    code = main(
        [
            "arena",
            "--ruleset",
            "jiaxing",
            "--bots",
            "greedy,random",
            "--hands",
            "2",
            "--workers",
            "1",
            "--seed-start",
            "5",
            "--out",
            str(out),
            "--png",
            str(png),
            "--quiet",
        ]
    )
    assert code == 0
    report = json.loads(out.read_text())
    assert report["seed_range"] == [5, 7]
    assert png.exists()
    assert "greedy" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--bots", "greedy,nobody"], "unknown bot 'nobody'"),
        (["--hands", "0"], "at least 1"),
        (["--options", '{"allow_chi": 3}'], "--options"),
        (["--options", "[1]"], "--options"),
    ],
)
def test_cli_rejects_bad_input(argv: list[str], message: str, capsys) -> None:
    assert main(["arena", "--quiet", *argv]) == 2
    assert message in capsys.readouterr().err


def test_png_without_matplotlib_is_refused_before_playing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from baida.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    played = []
    monkeypatch.setattr("baida.bots.arena.run_arena", lambda *a, **k: played.append(1))
    assert main(["arena", "--bots", "random,greedy", "--hands", "1", "--png", "x.png"]) == 2
    assert "pip install 'baida[arena]'" in capsys.readouterr().err and not played
