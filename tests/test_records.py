"""Game records: writing, replaying, and ``baida replay`` on good, altered and broken records."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pytest
from test_engine_helpers import scripted
from test_engine_random import pick

from baida.commands import replay as replay_cli
from baida.engine import Round
from baida.engine.errors import RecordError
from baida.engine.records import replay, start_round


def won_hand(ruleset: str) -> Round:
    for seed in range(200):
        rnd = Round.from_seed(
            ruleset,
            seed.to_bytes(4, "big"),
            options={"require_pattern": False} if ruleset == "jiaxing" else None,
        )
        rng = random.Random(seed)
        while not rnd.ended:
            seat = rnd.to_act[0]
            rnd.apply(pick(rng, rnd.legal_actions(seat), rnd))
        if rnd.result.outcome == "win":
            return rnd
    raise AssertionError("no won hand")


def run_cli(tmp_path: Path, record: object, *flags: str) -> int:
    path = tmp_path / "hand.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record, ensure_ascii=False))
    parser = argparse.ArgumentParser()
    replay_cli.add_arguments(parser)
    return replay_cli.run(parser.parse_args([str(path), *flags]))


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_record_shape_and_exact_replay(ruleset: str) -> None:
    rnd = won_hand(ruleset)
    record = rnd.record()
    assert record["format"] == "baida-record-v1" and record["ruleset"] == ruleset
    assert record["seed"] == rnd.seed.hex() and record["commitment"] == rnd.commitment
    assert record["settlement"]["outcome"] == "win"
    assert len(record["actions"]) == len(rnd.actions)
    again = replay(json.loads(json.dumps(record)))
    assert again.matches
    assert [e.to_json() for e in again.events] == [e.to_json() for e in rnd.events]


def test_unfinished_hand_does_not_reveal_its_seed() -> None:
    rnd = Round.from_seed("jiaxing", b"secret seed")
    record = rnd.record()
    assert record["seed"] is None and "settlement" not in record
    assert "secret" not in json.dumps(record) and b"secret seed".hex() not in json.dumps(record)
    with pytest.raises(RecordError, match="not revealed"):
        start_round(record)


def test_explicit_wall_record_replays() -> None:
    hands = [
        "111m222m333m456m7m",
        "123p456p789p 1s2s3s E",
        "123p456p789p 4s5s6s S",
        "11p22p33p 44s55s66s W",
    ]
    rnd = scripted("jiaxing", hands, extra="7m")
    rnd.apply({"type": "win", "seat": 0})
    record = rnd.record()
    assert "seed" not in record and len(record["wall"]) == 136 and record["dice"] == [1, 2]
    assert replay(record).matches


def test_cli_replays_and_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rnd = won_hand("wenling")
    assert run_cli(tmp_path, rnd.record()) == 0
    out = capsys.readouterr().out
    assert "wins" in out and "payments by seat" in out


def test_cli_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rnd = won_hand("jiaxing")
    assert run_cli(tmp_path, rnd.record(), "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["matches"] and out["settlement"] == rnd.result.settlement()
    assert len(out["events"]) == len(rnd.events)


def test_cli_computes_a_missing_settlement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rnd = won_hand("wenling")
    record = rnd.record()
    del record["settlement"]
    assert run_cli(tmp_path, record, "--json") == 0
    assert json.loads(capsys.readouterr().out)["settlement"] == rnd.result.settlement()


def test_cli_exit_1_on_a_different_settlement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rnd = won_hand("wenling")
    record = rnd.record()
    record["settlement"]["payments"][rnd.result.winner] += 10
    assert run_cli(tmp_path, record) == 1
    assert "MISMATCH" in capsys.readouterr().err


def test_cli_exit_1_on_an_action_that_does_not_replay(tmp_path: Path, capsys) -> None:
    rnd = won_hand("jiaxing")
    record = rnd.record()
    record["actions"][0] = {"type": "discard", "seat": (rnd.dealer + 1) % 4, "tile": "1m"}
    assert run_cli(tmp_path, record) == 1
    assert "actions[0]" in capsys.readouterr().err


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda r: r.update(commitment="00" * 32), "does not match"),
        (lambda r: r.update(surprise=1), "unknown field"),
        (lambda r: r.update(ruleset="riichi"), "record.ruleset"),
        (lambda r: r.update(options={"allow_chi": "yes"}), "allow_chi"),
        (lambda r: r.update(dealer=7), "record.dealer"),
        (lambda r: r.pop("seed"), "not revealed"),
    ],
)
def test_cli_exit_2_on_a_broken_record(tmp_path: Path, capsys, change, message: str) -> None:
    record = won_hand("jiaxing").record()
    change(record)
    assert run_cli(tmp_path, record) == 2
    assert message in capsys.readouterr().err


def test_cli_exit_2_on_bad_json_and_missing_file(tmp_path: Path, capsys) -> None:
    assert run_cli(tmp_path, "{not json") == 2
    parser = argparse.ArgumentParser()
    replay_cli.add_arguments(parser)
    assert replay_cli.run(parser.parse_args([str(tmp_path / "nope.json")])) == 2
    err = capsys.readouterr().err
    assert "bad JSON" in err and "cannot read" in err
    assert all(json.loads(line)["error"] for line in err.splitlines())  # one JSON line each


def test_bad_explicit_wall_is_named() -> None:
    record = {"ruleset": "jiaxing", "wall": ["1m"] * 136, "dice": [1, 1]}
    with pytest.raises(RecordError, match="too many 1m"):
        start_round(record)
