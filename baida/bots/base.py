"""The skeleton shared by the heuristic bots: read the view, sort the legal actions by type,
and ask the subclass one question per decision (which discard, which claim, which kong,
三摊 choice). A win and a 腊子 are always taken when legal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..hand import Meld
from .features import Seen, read_view
from .policy import action_tile, action_tiles, action_type


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim option on the current discard, with the hand it would leave."""

    action: Any
    type: str  # pon / mkong / chi
    tile: int  # the claimed kind
    uses: tuple[int, ...]  # own tiles put into the meld

    def meld(self, from_seat: int) -> Meld:
        if self.type == "chi":
            return Meld("chi", tuple(sorted(self.uses + (self.tile,))), from_seat)
        size = 3 if self.type == "pon" else 4
        return Meld(self.type, (self.tile,) * size, from_seat)


class HeuristicBot:
    """Dispatches a decision to ``pick_discard`` / ``pick_claim`` / ``pick_kong`` /
    ``pick_santan``; subclasses implement those on a ``Seen``."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # -- the protocol ------------------------------------------------------------------------
    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        by_type: dict[str, list[Any]] = {}
        for a in legal_actions:
            by_type.setdefault(action_type(a), []).append(a)
        for decisive in ("lazi", "win"):  # a 腊子 is 500, at least any win
            if decisive in by_type:
                return by_type[decisive][0]
        seen = read_view(view)
        if "continue" in by_type or "give_up" in by_type:
            keep = self.pick_santan(seen)
            wanted = "continue" if keep else "give_up"
            return (by_type.get(wanted) or by_type.get("continue") or by_type["give_up"])[0]
        if "discard" in by_type or "akong" in by_type or "bukong" in by_type:
            kongs = by_type.get("akong", []) + by_type.get("bukong", [])
            if kongs:
                chosen = self.pick_kong(seen, kongs)
                if chosen is not None:
                    return chosen
            if "discard" in by_type:
                return self._discard(seen, by_type["discard"])
            return kongs[0]
        claims = [self._claim(a, seen) for t in ("pon", "mkong", "chi") for a in by_type.get(t, [])]
        if claims:
            chosen = self.pick_claim(seen, claims)
            if chosen is not None:
                return chosen.action
        if "pass" in by_type:
            return by_type["pass"][0]
        return legal_actions[0]

    # -- helpers -----------------------------------------------------------------------------
    def _discard(self, seen: Seen, discards: list[Any]) -> Any:
        by_kind: dict[int, Any] = {}
        for a in discards:
            kind = action_tile(a)
            by_kind.setdefault(kind, a)
        naturals = {k: a for k, a in by_kind.items() if k not in seen.wild_faces and k < 34}
        if not naturals:
            # only wilds (or nothing evaluable) left: any of them
            return discards[0]
        kind = self.pick_discard(seen, sorted(naturals))
        return naturals.get(kind, next(iter(naturals.values())))

    @staticmethod
    def _claim(action: Any, seen: Seen) -> Claim:
        kind = action_type(action)
        tile = seen.last_discard[1] if seen.last_discard else -1
        if kind == "chi":
            uses = action_tiles(action)
        elif kind == "pon":
            uses = (tile, tile)
        else:
            uses = (tile, tile, tile)
        return Claim(action, kind, tile, uses)

    @staticmethod
    def kong_kind(action: Any) -> int:
        return action_tile(action)

    # -- the questions -----------------------------------------------------------------------
    def pick_discard(self, seen: Seen, candidates: list[int]) -> int:
        raise NotImplementedError

    def pick_claim(self, seen: Seen, claims: list[Claim]) -> Claim | None:
        """A claim to make, or None to pass."""
        raise NotImplementedError

    def pick_kong(self, seen: Seen, kongs: list[Any]) -> Any | None:
        """A kong action to declare now, or None to go on to the discard."""
        raise NotImplementedError

    def pick_santan(self, seen: Seen) -> bool:
        """三摊: True to continue (坚持), False to give up (放弃)."""
        return True
