"""Scoring of finished hands: the request type and the two rulesets' scorers."""

from __future__ import annotations

from typing import Any

from .request import ScoreInputError, ScoreRequest

__all__ = ["ScoreInputError", "ScoreRequest", "score", "score_json"]


def score(req: ScoreRequest) -> dict[str, Any]:
    """Settle one well-formed request with its ruleset's scorer (``SCORING_API.md`` output)."""
    if req.ruleset == "jiaxing":
        from .jiaxing import score_jiaxing

        return score_jiaxing(req)
    from .wenling import score_wenling

    return score_wenling(req)


def score_json(obj: Any) -> Any:
    """Parse a decoded JSON input and score it: an object gives an object, an array a list.

    Raises ``ScoreInputError`` when malformed (for an array, the field starts ``[index].``).
    """
    from .parse import parse_request

    if isinstance(obj, list):
        out = []
        for index, item in enumerate(obj):
            try:
                out.append(score(parse_request(item)))
            except ScoreInputError as exc:
                raise ScoreInputError(f"[{index}].{exc.field}", exc.message) from None
        return out
    return score(parse_request(obj))
