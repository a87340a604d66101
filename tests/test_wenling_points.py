"""bench.wenling_points: a bot's points split into won, paid and settled add up to its points."""

from __future__ import annotations

import pytest

from bench.wenling_points import main, run


def test_the_parts_add_up_to_the_points() -> None:
    out = run(["expert", "strong"], hands=3, seed_start=120_000)
    assert set(out) == {"expert", "strong"}
    for c in out.values():
        assert c["hands"] == 12  # three sets, two seatings, two seats in each
        assert c["win"] - c["paid"] + c["settle"] == pytest.approx(c["points"])
    assert sum(c["points"] for c in out.values()) == 0  # the bots share every table


def test_prints_a_markdown_table(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--bots", "efficient,strong", "--hands", "1", "--seed-start", "120000"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("bot | pts/hand | win | paid | settle")
    assert [line.split(" | ")[0] for line in lines[2:]] == ["efficient", "strong"]
