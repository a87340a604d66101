"""Scoring of finished hands: the request type, the JSON input's parser and the two rulesets'
scorers (``jiaxing.score_jiaxing``, ``wenling.score_wenling``).

Which scorer settles a request is a fact of its ruleset: ask ``baida.rulesets`` (``score``,
``score_json``, or ``ruleset(name).score(req)``). This package names no ruleset.
"""

from __future__ import annotations

from .request import ScoreInputError, ScoreRequest

__all__ = ["ScoreInputError", "ScoreRequest"]
