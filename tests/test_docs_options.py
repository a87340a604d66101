"""docs/options.md documents every option of ``baida.rules.options``, with its default and its
values exactly as the code defines them, and nothing else."""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

import pytest
from docs_markdown import DOCS, code_value, table_after

from baida.rules.options import CHOICES, MAXIMUM, MINIMUM, JiaxingOptions, WenlingOptions

PAGE = (DOCS / "options.md").read_text(encoding="utf-8")
CLASSES = {"jiaxing": JiaxingOptions, "wenling": WenlingOptions}
ID_PREFIX = {"jiaxing": "J-A", "wenling": "W-A"}


def _documented(ruleset: str, page: str = PAGE) -> dict[str, dict[str, Any]]:
    """option -> {"values": ..., "default": ..., "id": ...} from the ruleset's table."""
    out: dict[str, dict[str, Any]] = {}
    for row in table_after(page, f"<!-- options: {ruleset} -->"):
        assert len(row) == 5, f"a row of 5 cells expected: {row}"
        name_cell, values_cell, default_cell, change, ident = row
        name = re.fullmatch(r"`(\w+)`", name_cell)
        assert name, f"bad option cell {name_cell!r}"
        assert name.group(1) not in out, f"{name.group(1)} is documented twice"
        assert change, f"{name.group(1)}: what it changes is empty"
        out[name.group(1)] = {
            "values": _values(values_cell),
            "default": code_value(default_cell),
            "id": ident,
        }
    return out


def _values(cell: str) -> Any:
    """``true``/``false`` and quoted strings as a set; "integer N to M" as ("integer", N, M)."""
    bounds = re.fullmatch(r"integer (\d+) to (\d+)", cell)
    if bounds:
        return ("integer", int(bounds.group(1)), int(bounds.group(2)))
    return {code_value(f"`{span}`") for span in re.findall(r"`([^`]*)`", cell)}


def _expected(ruleset: str) -> dict[str, dict[str, Any]]:
    out = {}
    for field in fields(CLASSES[ruleset]):
        default = field.default
        if isinstance(default, bool):
            values: Any = {True, False}
        elif isinstance(default, int):
            values = ("integer", MINIMUM[field.name], MAXIMUM[field.name])
        else:
            values = set(CHOICES[field.name])
        out[field.name] = {"values": values, "default": default}
    return out


@pytest.mark.parametrize("ruleset", sorted(CLASSES))
def test_every_option_is_documented_once_and_nothing_else(ruleset):
    assert set(_documented(ruleset)) == set(_expected(ruleset))


@pytest.mark.parametrize("ruleset", sorted(CLASSES))
def test_defaults_and_values_match_the_code(ruleset):
    documented = _documented(ruleset)
    for name, expected in _expected(ruleset).items():
        got = documented[name]
        assert got["default"] == expected["default"], f"{name}: default"
        assert type(got["default"]) is type(expected["default"]), f"{name}: default's type"
        assert got["values"] == expected["values"], f"{name}: values"


@pytest.mark.parametrize("ruleset", sorted(CLASSES))
def test_each_option_names_its_question(ruleset):
    for name, entry in _documented(ruleset).items():
        ident = entry["id"]
        assert ident == "—" or re.fullmatch(ID_PREFIX[ruleset] + r"\d+", ident), (name, ident)


def test_the_check_notices_a_wrong_table():
    """A changed default, a changed value set or a missing row is seen as a difference."""
    expected = _expected("jiaxing")
    row = "| `rounds` | integer 1 to 100 | `4` |"
    assert row in PAGE
    wrong_default = _documented("jiaxing", PAGE.replace(row, row.replace("`4`", "`5`")))
    assert wrong_default["rounds"]["default"] != expected["rounds"]["default"]
    choices = '`"both"`, `"universal_wait"`, `"wild_pair"`'
    assert choices in PAGE
    fewer = _documented("jiaxing", PAGE.replace(choices, '`"both"`, `"wild_pair"`'))
    assert fewer["qianggang_forbid"]["values"] != expected["qianggang_forbid"]["values"]
    line = next(x for x in PAGE.splitlines() if x.startswith("| `allow_chi` |"))
    assert "allow_chi" not in _documented("jiaxing", PAGE.replace(line + "\n", ""))
