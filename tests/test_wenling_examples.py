"""Every worked Wenling example of ``examples/`` (SCORING_API.md), end to end through JSON.

The examples are read from ``tests/fixtures/examples`` when present, else from the
specification's ``shared/examples`` beside the repository; both are used when both exist.
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
    for folder in (SHARED, LOCAL):  # the local copy wins when both hold a file
        if folder.is_dir():
            for path in sorted(folder.glob("wenling-*.json")):
                found[path.name] = path
    return [found[name] for name in sorted(found)]


EXAMPLES = _example_files()


def test_examples_are_present():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example(path: Path):
    case = json.loads(path.read_text(encoding="utf-8"))
    out = score_json(case["input"])
    for field, expected in case["expect"].items():
        assert out[field] == expected, f"{path.name}: {field}"
    # the invariants of every answer
    assert out["tai"] == [] and out["tai_total"] is None and out["carry_pool_after"] is None
    assert sum(out["payments"].values()) == 0
    assert set(out["totals"]) == set(out["payments"]) == set("ESWN")


def test_seed_132_breakdown():
    """Seed 002's 132 → 140: 暗杠C 32 + 碰9m 4 + 暗刻5s 4 + 对N 2 + 单吊 2 + 自摸 2, 字牌杠 1 番."""
    path = next(p for p in EXAMPLES if "132" in p.name)
    out = score_json(json.loads(path.read_text(encoding="utf-8"))["input"])
    assert out["base_items"] == [
        {"name": "对子", "value": 2},
        {"name": "刻子", "value": 4},
        {"name": "暗刻", "value": 4},
        {"name": "暗杠", "value": 32},
        {"name": "单吊", "value": 2},
        {"name": "自摸", "value": 2},
    ]
    assert out["fan"] == [{"name": "字牌刻", "value": 1}]
    assert out["wilds"] == ["5p"]
    assert out["totals"] == {"E": 20, "S": 20, "W": 20, "N": 140}


def test_cap_example_breakdown():
    path = next(p for p in EXAMPLES if "cap-500" in p.name)
    out = score_json(json.loads(path.read_text(encoding="utf-8"))["input"])
    names = {item["name"]: item["value"] for item in out["fan"]}
    assert names == {"门风刻": 1, "字牌刻": 2, "混一色": 2, "对对和": 2, "无得": 1}
