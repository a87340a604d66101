"""The ruleset of the table a view shows, looked up once by the name the view carries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rulesets import Ruleset, ruleset

DEFAULT = "jiaxing"  # a view without a ruleset (an old record's) is read as Jiaxing


def view_rules(view: Mapping[str, Any]) -> Ruleset:
    """The ruleset object of ``view``'s table."""
    return ruleset(view.get("ruleset") or DEFAULT)
