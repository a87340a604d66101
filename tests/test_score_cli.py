"""``baida score``: files and stdin, arrays, exit codes, and every class of malformed input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from baida.cli import main

EXAMPLES = Path(__file__).resolve().parent / "fixtures" / "examples"

GOOD: dict[str, Any] = {
    "ruleset": "jiaxing",
    "indicator": "9p",
    "winner": "S",
    "hand": {"concealed": "123m456m789m234m5m", "melds": []},
    "win_tile": "5m",
}


def run_score(capsys, monkeypatch, data: Any = None, raw: str | None = None,
              args: list[str] | None = None) -> tuple[int, Any]:
    """Run ``baida score`` in-process with ``data`` (as JSON) or ``raw`` text on stdin."""
    text = raw if raw is not None else json.dumps(data, ensure_ascii=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["score", *(args or [])])
    out = capsys.readouterr().out
    return status, json.loads(out)


def with_(**changes: Any) -> dict[str, Any]:
    obj = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if value is None:
            obj.pop(key, None)
        else:
            obj[key] = value
    return obj


def hand(concealed: str, melds: list[str] | None = None, **rest: Any) -> dict[str, Any]:
    return {"concealed": concealed, "melds": melds or [], **rest}


# ------------------------------------------------------------------------- well-formed


def test_a_file_argument(capsys, monkeypatch, tmp_path):
    case = json.loads((EXAMPLES / "jiaxing-seed004-chengbao-qianggang-480.json").read_text("utf-8"))
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(case["input"], ensure_ascii=False), "utf-8")
    status = main(["score", str(path)])
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    assert out["payments"] == {"E": -120, "S": 720, "W": -480, "N": -120}


def test_stdin_object(capsys, monkeypatch):
    status, out = run_score(capsys, monkeypatch, GOOD)
    assert status == 0
    assert out["legal"] is True
    assert out["points"] == 5
    assert out["payments"] == {"E": -5, "S": 15, "W": -5, "N": -5}


def test_output_is_indented_utf8(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(GOOD)))
    main(["score"])
    text = capsys.readouterr().out
    assert "清一色" in text  # not \\u escapes
    assert '\n  "legal": true' in text


def test_an_illegal_win_is_an_answer(capsys, monkeypatch):
    status, out = run_score(capsys, monkeypatch, with_(win_by="discard", **{"from": "E"}))
    assert status == 0
    assert out["legal"] is False
    assert out["reason"] == "硬自摸: no win on a discard"


def test_array_in_array_out(capsys, monkeypatch):
    second = with_(winner="E", base=2)
    status, out = run_score(capsys, monkeypatch, [GOOD, second])
    assert status == 0
    assert isinstance(out, list) and len(out) == 2
    assert out[0]["points"] == 5
    assert out[1]["points"] == 10
    assert out[1]["payments"]["E"] == 30


def test_empty_array(capsys, monkeypatch):
    assert run_score(capsys, monkeypatch, []) == (0, [])


def test_array_with_a_malformed_object_names_the_index(capsys, monkeypatch):
    bad = with_(hand=hand("123m456m789m234m5m", ["pon 12m"]))
    status, out = run_score(capsys, monkeypatch, [GOOD, GOOD, GOOD, bad])
    assert status == 2
    assert out["error"].startswith("[3].hand.melds[0]: ")


def test_example_files_score_their_input(capsys, monkeypatch, tmp_path):
    for path in sorted(EXAMPLES.glob("jiaxing-*.json")):
        case = json.loads(path.read_text("utf-8"))
        given = tmp_path / path.name
        given.write_text(json.dumps(case["input"], ensure_ascii=False), "utf-8")
        status = main(["score", str(given)])
        out = json.loads(capsys.readouterr().out)
        assert status == 0
        for key, value in case["expect"].items():
            assert out[key] == value, (path.name, key)


def test_wenling_examples_through_the_cli(capsys, monkeypatch, tmp_path):
    for path in sorted(EXAMPLES.glob("wenling-*.json")):
        case = json.loads(path.read_text("utf-8"))
        given = tmp_path / path.name
        given.write_text(json.dumps(case["input"], ensure_ascii=False), "utf-8")
        status = main(["score", str(given)])
        out = json.loads(capsys.readouterr().out)
        assert status == 0, out
        for key, value in case["expect"].items():
            assert out[key] == value, (path.name, key)


def test_an_example_wrapper_is_not_an_input(capsys):
    path = sorted(EXAMPLES.glob("jiaxing-*.json"))[0]
    status = main(["score", str(path)])
    out = json.loads(capsys.readouterr().out)
    assert status == 2
    assert "ruleset" in out["error"] or "input" in out["error"]


# ------------------------------------------------------------------------- malformed

MALFORMED: list[tuple[str, Any, str]] = [
    # (case, input object, the start of the error: the field it names)
    ("unknown tile", with_(win_tile="0m"), "win_tile: "),
    ("unknown tile in hand", with_(hand=hand("123m456m789m234mX")), "hand.concealed: "),
    ("unknown field", with_(colour="red"), "colour: unknown field"),
    ("unknown hand field", with_(hand=hand("123m456m789m234m5m", bonus=1)), "hand.bonus: "),
    ("unknown option", with_(options={"allow_kong": True}), "options.allow_kong: "),
    ("option of the other ruleset", with_(options={"nonwinner_de": "full"}),
     "options.nonwinner_de: "),
    ("prefixed option", with_(options={"jx.allow_chi": False}), "options.jx.allow_chi: "),
    ("bad option value", with_(options={"allow_chi": "no"}), "options.allow_chi: "),
    ("field of the other ruleset", with_(others={}), "others: not used by Jiaxing"),
    ("fifth copy", with_(hand=hand("5555m123m467m789m")), "win_tile: 5 copies of 5m"),
    ("fifth copy with a meld", with_(hand=hand("5m123m456m789m", ["pon 5m"]), win_tile="5m"),
     "win_tile: "),
    ("too few tiles", with_(hand=hand("123m456m789m234m")), "hand: the hand has 13 tiles"),
    ("too many tiles", with_(hand=hand("123m456m789m234m55m")), "hand: the hand has 15 tiles"),
    ("meld too short", with_(hand=hand("123m456m789m5m", ["pon 2s2s"])), "hand.melds[0]: "),
    ("chi not a run", with_(hand=hand("123m456m789m5m", ["chi 135p"])), "hand.melds[0]: "),
    ("unknown meld kind", with_(hand=hand("123m456m789m5m", ["pung 1s"])), "hand.melds[0]: "),
    ("wild in a meld", with_(hand=hand("123m456m789m5m", ["pon *"])), "hand.melds[0]: "),
    ("wild written by its face", with_(hand=hand("123m456m789m9p9p5m5m")),
     "hand.concealed: the 百搭 is 9p"),
    ("wild face as the win tile", with_(hand=hand("123m456m789m234m1m"), win_tile="9p"),
     "win_tile: the 百搭 is 9p"),
    ("wild face in a meld", with_(hand=hand("123m456m789m5m", ["pon 9p"])), "hand.melds[0]: "),
    ("four wilds", with_(hand=hand("123m456m789m2m***"), win_tile="*"), "win_tile: 4 wild"),
    ("flower in Jiaxing", with_(hand=hand("123m456m789m234mf1")), "hand.concealed: "),
    ("missing winner", with_(winner=None), "winner: required"),
    ("missing hand", with_(hand=None), "hand: required"),
    ("missing win tile", with_(win_tile=None), "win_tile: required"),
    ("missing ruleset", with_(ruleset=None), "ruleset: required"),
    ("unknown ruleset", with_(ruleset="riichi"), "ruleset: "),
    ("missing from", with_(win_by="rob_kong"), "from: required"),
    ("bad seat", with_(winner="X"), "winner: "),
    ("winner from self", with_(win_by="discard", **{"from": "S"}), "from: "),
    ("from on a self-draw", with_(**{"from": "E"}), "from: "),
    ("bad win_by", with_(win_by="ron"), "win_by: "),
    ("lazi in Jiaxing", with_(win_by="lazi"), "win_by: "),
    ("wrong type: base", with_(base="5"), "base: expected an integer"),
    ("wrong type: bool", with_(last_tile=1), "last_tile: expected true or false"),
    ("wrong type: hand", with_(hand="123m"), "hand: expected an object"),
    ("wrong type: melds", with_(hand={"concealed": "123m456m789m234m5m", "melds": "pon C"}),
     "hand.melds: "),
    ("wrong type: concealed", with_(hand={"concealed": 5}), "hand.concealed: "),
    ("negative carry pool", with_(carry_pool=-1), "carry_pool: "),
    ("bad santan", with_(santan=[["E"]]), "santan[0]: "),
    ("santan pair with itself", with_(santan=[["E", "E"]]), "santan[0]: "),
    ("gave up without santan", with_(gave_up=["E"]), "gave_up: "),
    ("heavenly for a non-dealer", with_(heavenly=True), "heavenly: "),
    ("after_kong without a kong", with_(after_kong=True), "after_kong: "),
    ("robbed wild", with_(hand=hand("123m456m789m234m*"), win_tile="*", win_by="rob_kong",
                          **{"from": "E"}), "win_tile: "),
]


@pytest.mark.parametrize("case,obj,error", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_malformed_input(capsys, monkeypatch, case, obj, error):
    status, out = run_score(capsys, monkeypatch, obj)
    assert status == 2, out
    assert list(out) == ["error"]
    assert out["error"].startswith(error), out["error"]


@pytest.mark.parametrize("raw", ["{", "", "[1, 2", "{'ruleset': 'jiaxing'}", "NaN-ish"])
def test_bad_json(capsys, monkeypatch, raw):
    status, out = run_score(capsys, monkeypatch, raw=raw)
    assert status == 2
    assert out["error"].startswith("bad JSON")


@pytest.mark.parametrize("data", [5, "hand", None, [GOOD, 7], [[GOOD]]])
def test_not_an_object(capsys, monkeypatch, data):
    status, out = run_score(capsys, monkeypatch, data)
    assert status == 2
    assert "expected a JSON object" in out["error"]


def test_array_error_names_the_index(capsys, monkeypatch):
    status, out = run_score(capsys, monkeypatch, [GOOD, 7])
    assert out["error"].startswith("[1].input: ")


def test_unreadable_file(capsys, tmp_path):
    status = main(["score", str(tmp_path / "missing.json")])
    out = json.loads(capsys.readouterr().out)
    assert status == 2
    assert out["error"].startswith("cannot read ")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    status = main(["score", str(binary)])
    assert status == 2
    assert "error" in json.loads(capsys.readouterr().out)


def test_a_directory_is_unreadable(capsys, tmp_path):
    assert main(["score", str(tmp_path)]) == 2
    assert json.loads(capsys.readouterr().out)["error"].startswith("cannot read ")


def test_the_installed_command_in_a_subprocess(tmp_path):
    bad = dict(GOOD, hand={"concealed": "5555m123m467m789m"})
    ok = subprocess.run(
        [sys.executable, "-m", "baida.cli", "score"],
        input=json.dumps([GOOD, GOOD]), capture_output=True, text=True, encoding="utf-8",
        timeout=60,
    )
    assert ok.returncode == 0, ok.stderr
    assert [r["points"] for r in json.loads(ok.stdout)] == [5, 5]
    failed = subprocess.run(
        [sys.executable, "-m", "baida.cli", "score"],
        input=json.dumps(bad), capture_output=True, text=True, encoding="utf-8", timeout=60,
    )
    assert failed.returncode == 2
    assert "Traceback" not in failed.stderr
    assert json.loads(failed.stdout)["error"].startswith("win_tile: 5 copies of 5m")


def test_an_internal_failure_is_one_line_not_a_traceback(capsys, monkeypatch):
    import baida.commands.score as score_cli

    def broken(obj):
        raise RuntimeError("boom")

    monkeypatch.setattr(score_cli, "score", broken)
    status, out = run_score(capsys, monkeypatch, [GOOD])
    assert status == 1
    assert out == {"error": "[0].internal error while scoring: RuntimeError('boom')"}


def test_score_input_error_survives_pickling():
    import pickle

    from baida.scoring.request import ScoreInputError

    error = pickle.loads(pickle.dumps(ScoreInputError("hand.melds[0]", "not a meld")))
    assert (error.field, error.message) == ("hand.melds[0]", "not a meld")
    assert str(error) == "hand.melds[0]: not a meld"


def test_a_seat_that_gave_up_may_later_be_in_a_pair(capsys, monkeypatch):
    """The engine produces it: after 放弃 another seat claims that seat's discards 三摊 times."""
    status, out = run_score(
        capsys, monkeypatch, with_(santan=[["E", "N"], ["W", "N"]], gave_up=["W"])
    )
    assert status == 0 and out["legal"]
    assert out["payments"]["W"] == 0  # gave up: pays nothing
