"""``baida review`` and ``baida replay --review``: records of bot matches in both rulesets,
and clean one-line errors for anything that is not a finished hand's record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baida.bots.arena import engine_seed
from baida.bots.policy import make_bot
from baida.cli import main
from baida.engine import Round
from baida.engine.records import read_record


def _record(ruleset: str, seed: int) -> dict:
    rnd = Round.from_seed(ruleset, engine_seed(seed))
    bots = [make_bot(n, seed=s) for s, n in enumerate(["strong", "efficient", "greedy", "random"])]
    while not rnd.ended:
        seat = rnd.to_act[0]
        rnd.apply(bots[seat].choose(rnd.view(seat), rnd.legal_actions(seat)))
    return rnd.record()


@pytest.fixture(scope="module", params=["jiaxing", "wenling"])
def record_file(request, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rec") / f"{request.param}.json"
    path.write_text(json.dumps(_record(request.param, 6)), encoding="utf-8")
    return path


def test_review_lists_every_real_choice_with_the_best_alternative(record_file, capsys) -> None:
    assert main(["review", str(record_file), "--budget-ms", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    record = json.loads(record_file.read_text(encoding="utf-8"))
    assert out["format"] == "baida-review-v1" and out["ruleset"] == record["ruleset"]
    assert out["payments"] == record["settlement"]["payments"]
    assert out["decisions"], "a whole hand has choices"
    indices = [d["index"] for d in out["decisions"]]
    assert indices == sorted(set(indices)) and max(indices) < len(record["actions"])
    for d in out["decisions"]:
        assert d["action"] == record["actions"][d["index"]]
        assert d["cost"] >= 0
        alt = d["best_alternative"]
        if d["value"] is not None and alt is not None:
            assert d["cost"] == pytest.approx(max(0.0, alt["value"] - d["value"]), abs=2e-3)
            assert d["best"] == (d["cost"] == 0)
    totals = out["seats"]
    assert sum(s["decisions"] for s in totals.values()) == len(out["decisions"])


def test_each_decision_names_the_events_that_came_before_it(record_file, capsys) -> None:
    """``event_index``: the engine's events before the action, so a page stepping through the
    events can show the decision where it was taken."""
    assert main(["review", str(record_file), "--budget-ms", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    rnd, actions, _ = read_record(json.loads(record_file.read_text(encoding="utf-8")))
    before = []
    for action in actions:
        before.append(len(rnd.events))
        rnd.apply(action)
    for d in out["decisions"]:
        assert d["event_index"] == before[d["index"]], d
    assert all(d["event_index"] >= 1 for d in out["decisions"])


def test_review_of_one_seat_and_in_replay(record_file, capsys) -> None:
    assert main(["review", str(record_file), "--seat", "2", "--budget-ms", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {d["seat"] for d in out["decisions"]} == {2}
    assert main(["replay", str(record_file), "--review"]) == 0
    text = capsys.readouterr().out
    assert "review (expert bot" in text and "seat 2" in text


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "bad JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ('{"ruleset": "mahjong"}', "record.ruleset"),
        (
            '{"ruleset": "jiaxing", "seed": "00", "actions": [{"type": "fly", "seat": 0}]}',
            "unknown action type",
        ),
        (
            '{"ruleset": "wenling", "seed": "00", "actions": [{"type": "pass", "seat": 2}]}',
            "actions[0]",
        ),
        ('{"ruleset": "jiaxing", "seed": "00", "actions": []}', "not finished"),
    ],
)
def test_bad_records_exit_2_with_one_json_line(tmp_path, capsys, content, message) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["review", str(path)]) == 2
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    assert message in json.loads(lines[0])["error"]


def test_missing_file_exits_2(tmp_path, capsys) -> None:
    assert main(["review", str(tmp_path / "nothing.json")]) == 2
    assert "cannot read" in json.loads(capsys.readouterr().out)["error"]
