"""The rulesets, one class each, and the registry that finds them by name.

>>> from baida.rulesets import ruleset, names
>>> names()
('jiaxing', 'wenling')
>>> rules = ruleset("wenling")
>>> rules.sets, rules.hand_size, rules.discard_wins, rules.wild_name
(5, 16, True, '得')

A third ruleset is a module of its own here (a ``Ruleset`` subclass, often of a relative:
``class Ningbo(Jiaxing)`` changes what differs) and one ``register`` line below; see
``docs/engine.md``, "Rulesets".
"""

from .base import (
    Ruleset,
    RulesetError,
    as_ruleset,
    expected_names,
    names,
    register,
    ruleset,
    rulesets,
    unregister,
)
from .jiaxing import Jiaxing
from .requests import parse_request, score, score_json
from .wenling import Wenling

register(Jiaxing)
register(Wenling)

__all__ = [
    "Jiaxing",
    "Ruleset",
    "RulesetError",
    "Wenling",
    "as_ruleset",
    "expected_names",
    "names",
    "parse_request",
    "register",
    "ruleset",
    "rulesets",
    "score",
    "score_json",
    "unregister",
]
