"""The Wenling non-winners' scoring items behind the totals of a settlement.

The scorer reports every non-winner's total (``score.totals``, docs/scoring-api.md) but not
the items that make it. ``wenling_nonwinners(view)`` reads them again from a finished hand's
view: each non-winner's revealed hand goes through the scorer's own non-winner rules
(``baida.scoring.wenling_others``), so the items add up to the totals the scorer paid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..hand import Hand, make_meld
from ..rules.options import WenlingOptions
from ..rules.wenling_tiles import wenling_tiles
from ..scoring.wenling_others import nonwinner_score
from ..tiles import WILD, parse_tile
from .ruleset import view_rules


@dataclass(frozen=True, slots=True)
class NonWinnerItems:
    """One non-winner's 和 items and 番 items, its total, and whether 包三家 zeroed it."""

    base_items: list[tuple[str, int]]
    fan_items: list[tuple[str, int]]
    total: int
    liable: bool = False


def _hand(hand: Mapping[str, Any], wild_faces: set[str]) -> Hand:
    """A revealed hand (faces) as the scorer takes it: every tile of a wild face is ``WILD``."""
    concealed = [WILD if f in wild_faces else parse_tile(f) for f in hand.get("concealed") or []]
    melds = [
        make_meld(m["type"], [parse_tile(t) for t in m["tiles"]], m.get("from"))
        for m in hand.get("melds") or []
    ]
    flowers = [parse_tile(f) for f in hand.get("flowers") or []]
    return Hand(concealed, melds, flowers)


def wenling_nonwinners(view: Mapping[str, Any]) -> dict[int, NonWinnerItems]:
    """Seat -> items of every non-winner of a won Wenling hand (empty for anything else)."""
    result = view.get("result") or {}
    score = result.get("score") or {}
    winner = result.get("winner")
    rules = view_rules(view)
    if rules.nonwinner_size is None or winner is None or not score.get("legal"):
        return {}  # the non-winners settle among themselves only where they are scored
    options = rules.make_options(view.get("options") or {})
    assert isinstance(options, WenlingOptions)
    tiles = wenling_tiles(parse_tile(view["indicator"]), options.flower_flip_specials)
    wild_faces = set(view.get("wilds") or [])
    dealer = view.get("dealer", 0)
    out: dict[int, NonWinnerItems] = {}
    for seat, hand in enumerate(result.get("hands") or []):
        if seat == winner:
            continue
        scored = nonwinner_score(_hand(hand, wild_faces), (seat - dealer) % 4, tiles, options)
        liable = seat == result.get("liable")
        out[seat] = NonWinnerItems(
            scored.base_items, scored.fan_items, 0 if liable else scored.total, liable
        )
    return out
