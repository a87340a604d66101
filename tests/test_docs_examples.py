"""The worked examples of docs/ give, through ``baida score``, exactly the numbers the pages show.

* every example file of docs/examples (an input and the output fields it must produce) is
  scored by the command and checked;
* every JSON block a page marks as an example's input is that example's input, and every block
  marked as its output matches what the scorer answers;
* the refusal and error tables of docs/scoring-api.md list exactly the cases of
  docs/examples/refusals.json and errors.json, and each case gives the message shown.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from docs_markdown import DOCS, REPO, example_blocks, markdown_files, table_after

from baida.cli import main
from baida.commands.score import score_text

EXAMPLES = DOCS / "examples"
CASE_FILES = {"errors.json", "refusals.json"}
WORKED = sorted(p for p in EXAMPLES.glob("*.json") if p.name not in CASE_FILES)
FIXTURES = sorted((REPO / "tests" / "fixtures" / "examples").glob("*.json"))
BLOCKS = [block for page in markdown_files() for block in example_blocks(page)]
SCORING_API = DOCS / "scoring-api.md"


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _score_with_the_command(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                            given: Any) -> tuple[int, Any]:
    """Run ``baida score FILE`` on ``given`` written to a file: (exit status, output)."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(given, ensure_ascii=False), encoding="utf-8")
    status = main(["score", str(path)])
    return status, json.loads(capsys.readouterr().out)


def test_there_are_worked_examples_for_both_rulesets():
    names = [p.name for p in WORKED]
    assert sum(n.startswith("jiaxing-") for n in names) >= 8
    assert sum(n.startswith("wenling-") for n in names) >= 5


@pytest.mark.parametrize("path", WORKED, ids=[p.stem for p in WORKED])
def test_worked_example_scores_as_documented(capsys, tmp_path, path: Path):
    case = _load(path)
    assert set(case) == {"source", "input", "expect"}
    status, out = _score_with_the_command(capsys, tmp_path, case["input"])
    assert status == 0, out
    for key, value in case["expect"].items():
        assert out[key] == value, f"{path.name}: {key} = {out[key]!r}, documented {value!r}"


@pytest.mark.parametrize("block", BLOCKS, ids=[f"{b.page.name}:{b.example.stem}:{b.role}"
                                               for b in BLOCKS])
def test_page_block_matches_its_example(block):
    assert block.example.is_file(), f"{block.page.name}: no example file {block.example}"
    case = _load(block.example)
    if block.role == "input":
        assert block.body == case["input"]
        return
    status, out = score_text(json.dumps(case["input"]))
    assert status == 0
    for key, value in block.body.items():
        assert out[key] == value, f"{block.page.name}, {block.example.name}: {key}"
    missing = set(case["expect"]) - set(block.body)
    assert not missing, f"{block.page.name} leaves out documented fields {missing}"


def _shown(path: Path) -> set[str]:
    return {b.role for b in BLOCKS if b.example == path.resolve()}


@pytest.mark.parametrize("path", WORKED + FIXTURES, ids=[p.stem for p in WORKED + FIXTURES])
def test_every_example_is_shown_with_input_and_output(path: Path):
    assert _shown(path) == {"input", "output"}


def _cases(name: str) -> list[dict[str, Any]]:
    return _load(EXAMPLES / name)


def test_the_tables_list_every_case():
    text = SCORING_API.read_text(encoding="utf-8")
    for name, key in (("refusals.json", "reason"), ("errors.json", "error")):
        rows = table_after(text, f"<!-- cases: examples/{name} -->")
        assert all(row[1].startswith("`") and row[1].endswith("`") for row in rows)
        documented = [(row[0], row[1][1:-1]) for row in rows]
        assert documented == [(case["case"], case[key]) for case in _cases(name)]


REFUSALS = _cases("refusals.json")
ERRORS = _cases("errors.json")


@pytest.mark.parametrize("case", REFUSALS, ids=[c["case"] for c in REFUSALS])
def test_refusal_gives_the_documented_reason(capsys, tmp_path, case):
    status, out = _score_with_the_command(capsys, tmp_path, case["input"])
    assert status == 0
    assert out["legal"] is False
    assert out["reason"] == case["reason"]
    assert set(out["payments"].values()) == {0}


@pytest.mark.parametrize("case", ERRORS, ids=[c["case"] for c in ERRORS])
def test_error_gives_the_documented_message(capsys, tmp_path, case):
    if "raw" in case:
        path = tmp_path / "hand.json"
        path.write_text(case["raw"], encoding="utf-8")
        status = main(["score", str(path)])
        out = json.loads(capsys.readouterr().out)
    else:
        status, out = _score_with_the_command(capsys, tmp_path, case["input"])
    assert status == 2
    assert out == {"error": case["error"]}


def test_the_classes_cover_the_kinds_of_error():
    """At least one documented case names each input field that has its own checks."""
    fields = {case["error"].split(":")[0].split("[")[0].split(".")[0] for case in ERRORS}
    assert {"bad JSON", "input", "ruleset", "options", "indicator", "winner", "hand", "win_tile",
            "win_by", "from", "after_kong", "after_special", "heavenly", "earthly", "santan",
            "gave_up", "others", "liable", "base", "carry_pool", "last_tile"} <= fields
