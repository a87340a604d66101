"""Looking back at a finished hand in the browser: its every event, its final view and the
Wenling non-winners' scoring items, from its game record.

Once a hand has ended nothing in it is secret (the record and the seed are given to its
players), so the events are the engine's own, unredacted: the browser steps through them
with the same code that follows a live hand, every hand face up. The non-winners' items are
the scorer's own rules applied again to their revealed hands (``baida.tui.nonwinners``), so
the browser never re-implements scoring. ``decision_review`` adds the ``expert`` bot's value
of each decision beside the best alternative (``baida.bots.review``, as ``baida review``).
"""

from __future__ import annotations

from typing import Any

from ...bots.review import review_record
from ...engine.records import replay
from ...tui.nonwinners import wenling_nonwinners


def nonwinner_items(view: dict[str, Any]) -> dict[str, Any]:
    """Seat (as a string, JSON keys) -> ``{base_items, fan_items, total, liable}`` of every
    non-winner of a won Wenling hand (empty for anything else)."""
    return {
        str(seat): {
            "base_items": [{"name": n, "value": v} for n, v in items.base_items],
            "fan_items": [{"name": n, "value": v} for n, v in items.fan_items],
            "total": items.total,
            "liable": items.liable,
        }
        for seat, items in wenling_nonwinners(view).items()
    }


def hand_review(record: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """What the replay page needs: ``events`` (every event of the hand, in order), ``view``
    (the final view from ``seat``: every hand shown, the result, the seed), ``nonwinners``,
    ``matches`` (the replay gives the recorded settlement). ``RecordError`` if it cannot be
    replayed."""
    rerun = replay(record)
    view = rerun.round.view(seat).to_json()
    return {
        "seat": seat,
        "ruleset": view["ruleset"],
        "events": [event.to_json() for event in rerun.events],
        "view": view,
        "nonwinners": nonwinner_items(view),
        "matches": rerun.matches,
        "setup": {key: record.get(key) for key in ("base", "dealer", "round_wind",
                                                   "carry_pool", "commitment")},
    }


def decision_review(record: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The ``baida review`` JSON of a finished hand for ``seat`` (every seat when None: an admin
    who did not play it). ``RecordError`` if it cannot be replayed."""
    return review_record(record, seats=None if seat is None else {seat})
