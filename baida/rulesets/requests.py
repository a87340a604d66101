"""Scoring input by name: a JSON request's ``ruleset`` looked up, parsed and scored.

``score_json`` is the Python face of ``baida score`` (``SCORING_API.md``); ``score`` settles a
``ScoreRequest`` with the scorer of the ruleset it names.
"""

from __future__ import annotations

from typing import Any

from ..scoring.parse import parse_request as parse_with
from ..scoring.request import ScoreInputError, ScoreRequest
from .base import Ruleset, ruleset, rulesets


def _by_name() -> dict[str, Ruleset]:
    return {rules.name: rules for rules in rulesets()}


def parse_request(obj: Any) -> ScoreRequest:
    """Validate one decoded JSON scoring input; ``ScoreInputError`` names the bad field."""
    return parse_with(obj, _by_name())


def score(req: ScoreRequest) -> dict[str, Any]:
    """Settle one well-formed request with its ruleset's scorer (``SCORING_API.md`` output)."""
    return ruleset(req.ruleset).score(req)


def score_json(obj: Any) -> Any:
    """Parse a decoded JSON input and score it: an object gives an object, an array a list.

    Raises ``ScoreInputError`` when malformed (for an array, the field starts ``[index].``).
    """
    if isinstance(obj, list):
        out = []
        for index, item in enumerate(obj):
            try:
                out.append(score(parse_request(item)))
            except ScoreInputError as exc:
                raise ScoreInputError(f"[{index}].{exc.field}", exc.message) from None
        return out
    return score(parse_request(obj))
