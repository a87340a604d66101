"""Every worked Jiaxing example of ``examples/`` (SCORING_API.md) as a fixture.

The examples are read from ``tests/fixtures/examples`` (a copy kept with the suite) and, when
the specification checkout sits beside the repository, from ``shared/examples`` too, so a new
example there is tested without copying it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baida.rulesets import score_json

HERE = Path(__file__).resolve().parent
LOCAL = HERE / "fixtures" / "examples"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "examples"


def _example_files() -> list[Path]:
    found: dict[str, Path] = {}
    for folder in (SHARED, LOCAL):  # the local copy wins when both have a file
        if folder.is_dir():
            for path in sorted(folder.glob("jiaxing-*.json")):
                found[path.name] = path
    return [found[name] for name in sorted(found)]


EXAMPLES = _example_files()


def test_examples_are_present():
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example(path: Path):
    case = json.loads(path.read_text(encoding="utf-8"))
    got = score_json(case["input"])
    for key, value in case["expect"].items():
        assert got[key] == value, f"{path.name}: {key} = {got[key]!r}, expected {value!r}"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_output_has_every_field(path: Path):
    case = json.loads(path.read_text(encoding="utf-8"))
    got = score_json(case["input"])
    assert list(got) == [
        "legal", "reason", "tai", "fan", "base_items", "tai_total", "fan_total", "base_points",
        "raw", "points", "totals", "payments", "carry_pool_after", "wilds",
    ]
    assert got["base_items"] is None and got["base_points"] is None and got["raw"] is None
    assert got["totals"] is None
    assert got["tai_total"] == sum(item["value"] for item in got["tai"])
    assert got["fan_total"] == sum(item["value"] for item in got["fan"])
    assert set(got["payments"]) == {"E", "S", "W", "N"}


def test_local_copies_are_not_stale():
    if not SHARED.is_dir():
        pytest.skip("shared/ is not beside the repository")
    for path in sorted(SHARED.glob("*.json")):
        local = LOCAL / path.name
        if not local.is_file():
            continue  # new in shared/: tested from there
        assert json.loads(local.read_text("utf-8")) == json.loads(path.read_text("utf-8"))
