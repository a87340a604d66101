"""Writing a game record: the JSON document of one hand (``docs/records.md``).

Reading and replaying one is ``records``'s job.
"""

from __future__ import annotations

from typing import Any

from ..rules.options import options_to_json
from ..tiles import tile_str
from .phases import WINDS
from .state import HandState
from .wall import PROCEDURE

FORMAT = "baida-record-v1"


def make_record(rnd: HandState) -> dict[str, Any]:
    """The record of ``rnd`` so far (the settlement once the hand has ended)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": rnd.ruleset,
        "options": options_to_json(rnd.options),
        "base": rnd.base,
        "dealer": rnd.dealer,
        "round_wind": WINDS[rnd.round_wind],
        "carry_pool": rnd.carry_pool_before,
        "previous_wild": None if rnd.previous_wild is None else tile_str(rnd.previous_wild),
    }
    if rnd.seed is not None:
        out["wall_procedure"] = PROCEDURE
        out["commitment"] = rnd.commitment
        out["seed"] = rnd.seed.hex() if rnd.ended else None
    else:
        out["wall"] = [tile_str(t) for t in rnd.wall]
        out["dice"] = list(rnd.dice)
    out["actions"] = [a.to_json() for a in rnd.actions]
    if rnd.result is not None:
        out["settlement"] = rnd.result.settlement()
    return out
