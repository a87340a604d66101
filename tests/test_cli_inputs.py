"""Hostile input to ``baida score`` and ``baida replay`` (issue 10, fixes 7 and 8).

Whatever comes in, the commands end with exit status 0 (or 1 for a record whose settlement
differs or whose action may not be played) or 2 with one JSON line ``{"error": ...}`` that
names the problem and quotes at most a short prefix of what it refuses; never a traceback.
Fuzzed in-process with hypothesis; the issue's own cases also through a subprocess.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from test_records import won_hand

from baida.cli import main
from baida.commands import replay as replay_cli
from baida.commands import review as review_cli
from baida.commands.score import score_text
from baida.jsonin import MAX_ERROR

GOOD: dict[str, Any] = {
    "ruleset": "jiaxing", "indicator": "9p", "winner": "S",
    "hand": {"concealed": "123m456m789m234m5m", "melds": []}, "win_tile": "5m",
}
HUGE_NUMBER = "9" * 5000
DEEP = "[" * 100_000
LONG_KEY = "k" * 1_000_000
RECORD = won_hand("jiaxing").record()


def _error_line(text: str) -> str:
    """The one error line of an output, checked: one JSON object, short, naming a problem."""
    lines = text.strip().splitlines()
    assert len(lines) == 1, text[:500]
    error = json.loads(lines[0])["error"]
    assert isinstance(error, str) and error
    assert len(error) <= MAX_ERROR + 1
    return error


def _score(capsys, monkeypatch, text: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["score"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.out


def _replay(data: bytes) -> tuple[int, str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "record.json"
        path.write_bytes(data)
        parser = argparse.ArgumentParser()
        replay_cli.add_arguments(parser)
        out, err = io.StringIO(), io.StringIO()
        old = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        try:
            status = replay_cli.run(parser.parse_args([str(path)]))
        finally:
            sys.stdout, sys.stderr = old
    return status, out.getvalue(), err.getvalue()


def _review(data: bytes, *flags: str) -> tuple[int, str]:
    """``baida review`` on ``data``: (exit status, standard output)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "record.json"
        path.write_bytes(data)
        parser = argparse.ArgumentParser()
        review_cli.add_arguments(parser)
        out = io.StringIO()
        old = sys.stdout
        sys.stdout = out
        try:
            status = review_cli.run(parser.parse_args([str(path), *flags]))
        finally:
            sys.stdout = old
    return status, out.getvalue()


# ---------------------------------------------------------------------- the issue's cases

SCORE_CASES = [
    ('{"ruleset": "jiaxing", "hand": "\\ud800"}', "lone surrogate"),
    ('{"\\udfff": 1}', "lone surrogate"),
    ('{"ruleset": "jiaxing", "base": ' + HUGE_NUMBER + "}", "more than"),
    (DEEP, "nested too deeply"),
    ('{"' + LONG_KEY + '": 1, "ruleset": "jiaxing"}', "unknown field"),
    (json.dumps(dict(GOOD, hand={"concealed": "x" * 1_000_000})), "unknown tile character"),
    (json.dumps(dict(GOOD, options={LONG_KEY: 1})), "unknown option"),
    (json.dumps(dict(GOOD, winner=10**4000)), "a seat is one of"),
]


@pytest.mark.parametrize("text,problem", SCORE_CASES, ids=range(len(SCORE_CASES)))
def test_score_refuses_hostile_input_in_one_short_line(capsys, monkeypatch, text, problem):
    status, out = _score(capsys, monkeypatch, text)
    assert status == 2
    assert problem in _error_line(out)


def _record_bytes(**changes: Any) -> bytes:
    record = json.loads(json.dumps(RECORD))
    record.update(changes)
    return json.dumps(record).encode()


REPLAY_CASES = [
    (json.dumps(RECORD).encode("utf-16"), "UTF-16"),
    (bytes(range(256)) * 4, "not UTF-8"),
    (DEEP.encode(), "nested too deeply"),
    (b'{"ruleset": "jiaxing", "base": ' + HUGE_NUMBER.encode() + b"}", "more than"),
    (b'{"ruleset": "jiaxing", "seed": "\\ud800"}', "lone surrogate"),
    (_record_bytes(actions=5), "record.actions"),
    (_record_bytes(actions={"type": "pass"}), "record.actions"),
    (_record_bytes(settlement=[1, 2]), "record.settlement"),
    (_record_bytes(settlement="won"), "record.settlement"),
    (_record_bytes(settlement=dict(RECORD["settlement"], payments="-1,3,-1,-1")),
     "record.settlement.payments: expected a list of 4 integers"),
    (_record_bytes(settlement=dict(RECORD["settlement"], payments={"E": 1})),
     "record.settlement.payments"),
    (_record_bytes(settlement=dict(RECORD["settlement"], payments=[1, 2, 3])),
     "record.settlement.payments"),
    (_record_bytes(settlement=dict(RECORD["settlement"], payments=[1.0, 0, 0, -1])),
     "record.settlement.payments"),
    (_record_bytes(settlement=dict(RECORD["settlement"], payments=[True, 0, 0, -1])),
     "record.settlement.payments"),
    (_record_bytes(settlement=dict(RECORD["settlement"], winner="S")),
     "record.settlement.winner: expected a seat"),
    (_record_bytes(settlement=dict(RECORD["settlement"], score=[])), "record.settlement.score"),
    (_record_bytes(settlement=dict(RECORD["settlement"], note="x")),
     "record.settlement: unknown field(s) note"),
    (_record_bytes(actions=[{"type": "discard", "seat": 0, "tile": 3}]), "record.actions[0]"),
    (_record_bytes(actions=[{"type": "fly", "seat": 0}]), "record.actions[0]"),
    (_record_bytes(**{LONG_KEY: 1}), "unknown field"),
]


@pytest.mark.parametrize("data,problem", REPLAY_CASES, ids=range(len(REPLAY_CASES)))
def test_replay_refuses_hostile_input_in_one_short_line(data, problem):
    status, _, err = _replay(data)
    assert status == 2, err[:300]
    assert problem in _error_line(err)


def test_a_record_with_an_action_that_may_not_be_played_exits_1():
    record = json.loads(json.dumps(RECORD))
    record["actions"][0] = {"type": "discard", "seat": (RECORD["dealer"] + 1) % 4, "tile": "1m"}
    status, _, err = _replay(json.dumps(record).encode())
    assert status == 1 and "does not replay" in _error_line(err)


def test_a_well_typed_settlement_that_differs_is_a_mismatch_not_a_reading_error():
    wrong = dict(RECORD["settlement"], payments=[0, 0, 0, 0], win_tile="x" * 100)
    status, out, err = _replay(_record_bytes(settlement=wrong))
    assert status == 1 and out and "settlement MISMATCH" in err
    assert "payments: record has [0, 0, 0, 0]" in err
    assert "'" + "x" * 40 + "'…" in err and "x" * 41 not in err  # a short prefix


PREFIX = "k" * 40
KEY = PREFIX + "z" * 30  # longer than the prefix a message may quote


@pytest.mark.parametrize("obj", [
    dict(GOOD, **{KEY: 1}),
    dict(GOOD, hand={"concealed": "123m456m789m234m5m", KEY: 1}),
    dict(GOOD, options={KEY: 1}),
    {"ruleset": "wenling", "indicator": "7m", "winner": "S", "others": {KEY: {}},
     "hand": {"concealed": "123p345p567p67p99p", "melds": ["pon W"]}, "win_tile": "8p"},
], ids=["field", "hand field", "option", "others seat"])
def test_score_quotes_at_most_40_characters_of_a_name_it_refuses(capsys, monkeypatch, obj):
    status, out = _score(capsys, monkeypatch, json.dumps(obj))
    assert status == 2
    error = _error_line(out)
    assert PREFIX + "'…" in error and "z" not in error, error


def test_replay_quotes_at_most_40_characters_of_a_name_it_refuses():
    status, _, err = _replay(_record_bytes(**{KEY: 1}))
    assert status == 2
    error = _error_line(err)
    assert PREFIX + "'…" in error and "z" not in error, error


@pytest.mark.parametrize("data,problem", REPLAY_CASES[:9], ids=range(9))
def test_review_reads_its_record_as_replay_does(data, problem):
    """The same reading as ``replay``: the problem by name, never Python's own message."""
    status, out = _review(data)
    assert status == 2
    error = _error_line(out)
    assert problem in error, error
    assert not any(raw in error for raw in ("codec", "recursion", "set_int_max_str_digits"))


@pytest.mark.parametrize("command,data", [
    ("score", SCORE_CASES[0][0].encode()),
    ("score", SCORE_CASES[2][0].encode()),
    ("replay", REPLAY_CASES[0][0]),
    ("replay", REPLAY_CASES[1][0]),
    ("replay", REPLAY_CASES[2][0]),
    ("replay", REPLAY_CASES[3][0]),
    ("review", REPLAY_CASES[0][0]),
    ("review", REPLAY_CASES[2][0]),
    ("review", REPLAY_CASES[3][0]),
])
def test_the_issues_cases_through_the_installed_command(tmp_path, command, data):
    path = tmp_path / "input.json"
    path.write_bytes(data)
    done = subprocess.run([sys.executable, "-m", "baida.cli", command, str(path)],
                          capture_output=True, timeout=120)
    assert done.returncode == 2
    stderr = done.stderr.decode("utf-8")
    assert "Traceback" not in stderr
    _error_line(done.stderr.decode("utf-8") if command == "replay" else
                done.stdout.decode("utf-8"))


# ---------------------------------------------------------------------- fuzz

JSON_LEAF = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
    st.integers(-(10**4299), 10**4299),  # up to the 4,300 digits JSON still reads
    st.text(st.characters(), max_size=20),
    st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=2),
    st.sampled_from(["5m", "*", "E", "jiaxing", "wenling", "self_draw", "pon C", "123m"]),
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)
SCORE_FIELDS = [*GOOD, "options", "base", "round_wind", "from", "win_by", "santan", "gave_up",
                "others", "carry_pool", "x"]


@st.composite
def score_inputs(draw) -> str:
    """Random JSON, or a good input with fields replaced by random JSON; sometimes raw text."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.text(max_size=40))
    if kind == 1:
        return json.dumps(draw(JSON_VALUE))
    obj: Any = json.loads(json.dumps(GOOD))
    for _ in range(draw(st.integers(1, 3))):
        obj[draw(st.sampled_from(SCORE_FIELDS))] = draw(JSON_VALUE)
    if draw(st.booleans()):
        obj["hand"] = {draw(st.sampled_from(["concealed", "melds", "flowers", "y"])):
                       draw(JSON_VALUE)}
    if kind == 3:
        obj = [obj, GOOD]
    return json.dumps(obj)


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(score_inputs())
def test_score_fuzz_answers_or_names_the_problem(capsys, monkeypatch, text):
    status, out = _score(capsys, monkeypatch, text)
    assert status in (0, 2), out[:500]
    if status == 2:
        _error_line(out)
    else:
        json.loads(out)


def test_score_text_is_the_same_contract():
    status, value = score_text('{"ruleset": "x\\ud800"}')
    assert status == 2 and "lone surrogate" in value["error"]


RECORD_FIELDS = [*RECORD, "wall", "dice", "x"]


@st.composite
def replay_inputs(draw) -> bytes:
    """Random bytes, or a good record with fields or actions replaced by random JSON."""
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return draw(st.binary(max_size=60))
    record: Any = json.loads(json.dumps(RECORD))
    if kind == 1:
        for _ in range(draw(st.integers(1, 3))):
            record[draw(st.sampled_from(RECORD_FIELDS))] = draw(JSON_VALUE)
    else:
        i = draw(st.integers(0, len(record["actions"]) - 1))
        record["actions"][i] = draw(st.one_of(JSON_VALUE, st.fixed_dictionaries(
            {"type": st.sampled_from(["discard", "pon", "chi", "win", "pass"]),
             "seat": st.integers(-1, 4)},
            optional={"tile": JSON_LEAF, "tiles": JSON_VALUE})))
    return json.dumps(record).encode()


@settings(max_examples=examples(150), deadline=None)
@given(replay_inputs())
def test_replay_fuzz_answers_or_names_the_problem(data):
    status, out, err = _replay(data)
    assert "Traceback" not in err
    assert status in (0, 1, 2), err[:500]
    if status == 2:
        _error_line(err)


@settings(max_examples=examples(25), deadline=None)
@given(replay_inputs())
def test_review_fuzz_answers_or_names_the_problem(data):
    status, out = _review(data, "--seat", "0", "--budget-ms", "5")
    assert status in (0, 2), out[:500]
    if status == 2:
        _error_line(out)
    else:
        assert "decisions" in json.loads(out)


# ---------------------------------------------------------------------- cold start (fix 8)


def test_score_imports_neither_the_terminal_ui_nor_the_arena_nor_rich(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(GOOD))
    code = (
        "import sys\nfrom baida.cli import main\n"
        f"status = main(['score', {str(path)!r}])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] == 'rich'"
        " or m.startswith(('baida.tui', 'baida.bots', 'baida.play', 'baida.engine')))\n"
        "print(status, heavy, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert done.stderr.strip() == "0 []", done.stderr


# ---------------------------------------------------------------------- numeric bounds

BIG = 10**4299  # 4,300 digits: JSON reads it, but a result built on it cannot be printed
SCORE_NUMBERS = [  # (the field as the error names it, where it goes in the input)
    ("base", ("base",)),
    ("carry_pool", ("carry_pool",)),
    ("options.winner_bonus_points", ("options", "winner_bonus_points")),
    ("options.santan_threshold", ("options", "santan_threshold")),
    ("options.wall_reserve", ("options", "wall_reserve")),
    ("options.rounds", ("options", "rounds")),
]


def _put(obj: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    obj = json.loads(json.dumps(obj))
    inner = obj
    for key in path[:-1]:
        inner = inner.setdefault(key, {})
    inner[path[-1]] = value
    return obj


def _bound(field: str) -> int:
    from baida.rules.options import MAXIMUM
    from baida.scoring.request import MAX_BASE, MAX_CARRY_POOL

    if field.startswith("options."):
        return MAXIMUM[field.removeprefix("options.")]
    return {"base": MAX_BASE, "carry_pool": MAX_CARRY_POOL}[field]


@pytest.mark.parametrize("field,path", SCORE_NUMBERS, ids=[f for f, _ in SCORE_NUMBERS])
@pytest.mark.parametrize("big", [BIG, "bound + 1"], ids=["4300 digits", "bound + 1"])
def test_score_refuses_a_number_past_its_bound_naming_field_and_bound(
        capsys, monkeypatch, field, path, big):
    bound = _bound(field)
    value = bound + 1 if big == "bound + 1" else big
    status, out = _score(capsys, monkeypatch, json.dumps(_put(GOOD, path, value)))
    assert status == 2
    error = _error_line(out)
    assert error.startswith(f"{field}: ") and f"at most {bound}" in error, error


@pytest.mark.parametrize("field,path", SCORE_NUMBERS, ids=[f for f, _ in SCORE_NUMBERS])
def test_score_takes_a_number_at_its_bound(capsys, monkeypatch, field, path):
    status, out = _score(capsys, monkeypatch, json.dumps(_put(GOOD, path, _bound(field))))
    assert status == 0, out
    json.loads(out)


def test_the_largest_stakes_stay_exact_for_any_json_reader(capsys, monkeypatch):
    """At the bounds, every amount is below 2**53 (a JavaScript number holds it exactly)."""
    from baida.rules.options import MAXIMUM
    from baida.scoring.request import MAX_BASE, MAX_CARRY_POOL

    hand = {"concealed": "EEESSSWWWNNNC", "melds": []}  # 全老头 对对和, the most 台
    obj = dict(GOOD, hand=hand, win_tile="C", winner="E", base=MAX_BASE,
               carry_pool=MAX_CARRY_POOL, heavenly=True,
               options={"winner_bonus_points": MAXIMUM["winner_bonus_points"]})
    status, out = _score(capsys, monkeypatch, json.dumps(obj))
    result = json.loads(out)
    assert status == 0 and result["legal"], result
    assert all(abs(v) < 2**53 for v in result["payments"].values())


def test_wenling_refuses_huangpai_pairs_past_its_bound(capsys, monkeypatch):
    from baida.rules.options import MAXIMUM

    obj = {"ruleset": "wenling", "indicator": "7m", "winner": "S",
           "options": {"huangpai_pairs": MAXIMUM["huangpai_pairs"] + 1},
           "hand": {"concealed": "123p345p567p67p99p", "melds": ["pon W"]}, "win_tile": "8p"}
    status, out = _score(capsys, monkeypatch, json.dumps(obj))
    assert status == 2
    assert _error_line(out).startswith("options.huangpai_pairs: must be at most")


RECORD_NUMBERS = [
    ("record.base", ("base",)),
    ("record.carry_pool", ("carry_pool",)),
    ("record.options.winner_bonus_points", ("options", "winner_bonus_points")),
    ("record.options.wall_reserve", ("options", "wall_reserve")),
]


@pytest.mark.parametrize("field,path", RECORD_NUMBERS, ids=[f for f, _ in RECORD_NUMBERS])
def test_replay_refuses_a_number_past_its_bound_before_printing_anything(field, path):
    bound = _bound(field.removeprefix("record."))
    for value in (BIG, bound + 1):
        status, out, err = _replay(json.dumps(_put(RECORD, path, value)).encode())
        assert status == 2 and out == "", (out[:300], err[:300])
        error = _error_line(err)
        assert f"{field}: " in error and f"at most {bound}" in error, error


@pytest.mark.parametrize("command", ["score", "replay"])
def test_a_4300_digit_base_through_the_installed_command(tmp_path, command):
    data = _put(GOOD if command == "score" else RECORD, ("base",), BIG)
    path = tmp_path / "input.json"
    path.write_text(json.dumps(data))
    done = subprocess.run([sys.executable, "-m", "baida.cli", command, str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr[-500:]
    error = _error_line(done.stdout if command == "score" else done.stderr)
    assert "base: must be at most" in error and "internal error" not in error


NUMBER = st.one_of(
    st.integers(-10, 10**7),
    st.integers(-(10**4299), 10**4299),
    st.sampled_from([BIG, -BIG, 2**53, 2**63, 10**6, 10**6 + 1, 100, 101]),
)


@settings(max_examples=examples(200), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(SCORE_NUMBERS), NUMBER), min_size=1, max_size=3))
def test_score_fuzz_of_numeric_fields(capsys, monkeypatch, changes):
    """Any integer in any numeric field: an answer within the bounds, else exit 2 naming the
    field (never an internal error)."""
    obj: dict[str, Any] = GOOD
    for (_, path), value in changes:
        obj = _put(obj, path, value)
    status, out = _score(capsys, monkeypatch, json.dumps(obj))
    assert status in (0, 2), out[:500]
    if status == 2:
        error = _error_line(out)
        assert any(error.startswith(f + ": ") for (f, _), _ in changes), error
    else:
        assert all(json.loads(out)["payments"][s] < 2**53 for s in "ESWN")


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(RECORD_NUMBERS), NUMBER), min_size=1, max_size=2))
def test_replay_fuzz_of_numeric_fields(changes):
    record: dict[str, Any] = RECORD
    for (_, path), value in changes:
        record = _put(record, path, value)
    status, _, err = _replay(json.dumps(record).encode())
    assert "Traceback" not in err and "internal error" not in err
    assert status in (0, 1, 2), err[:500]
    if status == 2:
        error = _error_line(err)
        assert any(f"{f}: " in error for (f, _), _ in changes), error
