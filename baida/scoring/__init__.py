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


def score_json(obj: Any) -> dict[str, Any]:
    """Parse one decoded JSON input and score it; raises ``ScoreInputError`` when malformed."""
    from .parse import parse_request

    return score(parse_request(obj))
