"""What a bot knows, read from its seat's view (the JSON of ``Round.view(seat)``).

The view is the only input a bot gets (docs/engine.md, "View"). ``Seen`` turns it into
count vectors the evaluator understands: the concealed natural tiles, the wilds held, the
exposed melds, and the live tiles, i.e. the copies of each kind this seat has not seen
(in the wall or in other hands), which is what tile efficiency and danger are counted from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..hand import Meld
from ..rules.options import Options
from ..rulesets import Ruleset, ruleset
from ..tiles import EAST, parse_tile

NUM = 34
WIND_LETTERS = "ESWN"


def view_dict(view: Any) -> Mapping[str, Any]:
    """The JSON form of a view (a ``View`` object or its dict)."""
    if isinstance(view, Mapping):
        return view
    to_json = getattr(view, "to_json", None)
    if to_json is None:
        raise TypeError(f"not a view: {type(view).__name__}")
    return to_json()


def _kind(face: str) -> int:
    return parse_tile(face)


def meld_from_json(obj: Mapping[str, Any]) -> Meld | None:
    """A view meld as a ``Meld``; None for another seat's face-down 暗杠."""
    tiles = obj.get("tiles")
    if not tiles:
        return None
    kinds = tuple(sorted(_kind(t) for t in tiles))
    return Meld(obj["type"], kinds, obj.get("from"))


@dataclass(slots=True)
class PlayerSeen:
    """Another seat (or one's own) as visible on the table."""

    seat: int
    discards: list[int]
    claimed: set[int]
    melds: list[Meld]
    hidden_kongs: int
    concealed_count: int
    gave_up: bool
    discarded_wild: bool


@dataclass(slots=True)
class Seen:
    """One seat's knowledge of the hand, as count vectors."""

    ruleset: str
    rules: Ruleset  # the ruleset's facts (``baida.rulesets``)
    seat: int
    dealer: int
    seat_wind: int
    round_wind: int | None
    phase: str
    turn: int
    wall_remaining: int
    wild_faces: frozenset[int]
    special_faces: frozenset[int]
    counts: list[int]  # own concealed natural tiles (34 kinds)
    wilds: int  # own concealed wild tiles
    wild_kinds_in_hand: list[int]  # the faces of the wilds held (for discarding one)
    drawn: int | None
    melds: list[Meld]
    flowers: list[int]
    players: list[PlayerSeen]
    visible: list[int]  # copies of each kind this seat has seen (hand, discards, melds)
    live: list[int]  # copies of each kind not seen, 0 for a wild or special kind
    live_wilds: int
    last_discard: tuple[int, int] | None  # (seat, kind)
    sheng_phase: bool
    discarded_kinds: set[int]  # kinds discarded by anyone this hand (non-生)
    carry_pool: int
    santan_pairs: list[tuple[int, int]]
    claim_counts: list[list[int]]
    options: dict[str, Any]  # the table's rule options from the view ({} when absent)
    rule_options: Options  # the same as an options object (``Ruleset.view_options``)

    @property
    def sets_needed(self) -> int:
        """Sets the concealed part must still form (4 or 5 minus the exposed melds)."""
        return self.rules.sets - len(self.melds)

    @property
    def unseen(self) -> int:
        return sum(self.live) + self.live_wilds

    def opponents(self) -> list[PlayerSeen]:
        return [p for p in self.players if p.seat != self.seat]

    def own_turns(self) -> int:
        return len(self.players[self.seat].discards)


def read_view(view: Any) -> Seen:
    """Build a ``Seen`` from a seat's view."""
    v = view_dict(view)
    seat = v["seat"]
    if seat is None:
        raise ValueError("a spectator view has no hand to play")
    wild_faces = frozenset(_kind(t) for t in v.get("wilds") or [])
    special_faces = frozenset(_kind(t) for t in v.get("specials") or [])
    players: list[PlayerSeen] = []
    visible = [0] * NUM
    wilds_seen = 0
    discarded_kinds: set[int] = set()
    me = v["players"][seat]
    for p in v["players"]:
        discards = [_kind(t) for t in p.get("discards") or []]
        claimed = set(p.get("claimed") or [])
        melds: list[Meld] = []
        hidden = 0
        for mj in p.get("melds") or []:
            meld = meld_from_json(mj)
            if meld is None:
                hidden += 1
                continue
            melds.append(meld)
            for k in meld.tiles:
                if k < NUM:
                    visible[k] += 1
        discarded_wild = False
        for i, k in enumerate(discards):
            if k in wild_faces:
                wilds_seen += 1
                discarded_wild = True
                continue
            if k < NUM:
                discarded_kinds.add(k)
                if i not in claimed:
                    visible[k] += 1
        players.append(
            PlayerSeen(
                seat=p["seat"],
                discards=discards,
                claimed=claimed,
                melds=melds,
                hidden_kongs=hidden,
                concealed_count=int(p.get("concealed_count") or 0),
                gave_up=bool(p.get("gave_up")),
                discarded_wild=discarded_wild,
            )
        )
    counts = [0] * NUM
    wilds = 0
    wild_kinds: list[int] = []
    for face in me.get("concealed") or []:
        k = _kind(face)
        if k in wild_faces:
            wilds += 1
            wild_kinds.append(k)
        elif k < NUM:
            counts[k] += 1
            visible[k] += 1
    wilds_seen += wilds
    indicator = v.get("indicator")
    if indicator:
        k = _kind(indicator)
        if k < NUM and k not in wild_faces:
            visible[k] += 1
    live = [
        0 if (k in wild_faces or k in special_faces) else max(0, 4 - visible[k]) for k in range(NUM)
    ]
    drawn_face = me.get("drawn")
    last = v.get("last_discard")
    winds = v.get("seat_winds") or [WIND_LETTERS[(s - v["dealer"]) % 4] for s in range(4)]
    round_wind = v.get("round_wind")
    rules = ruleset(v["ruleset"])
    options = dict(v.get("options") or {})
    return Seen(
        ruleset=rules.name,
        rules=rules,
        seat=seat,
        dealer=v["dealer"],
        seat_wind=EAST + WIND_LETTERS.index(winds[seat]),
        round_wind=None if round_wind is None else EAST + WIND_LETTERS.index(round_wind),
        phase=v.get("phase", "turn"),
        turn=v.get("turn", seat),
        wall_remaining=int(v.get("wall_remaining") or 0),
        wild_faces=wild_faces,
        special_faces=special_faces,
        counts=counts,
        wilds=wilds,
        wild_kinds_in_hand=wild_kinds,
        drawn=None if drawn_face is None else _kind(drawn_face),
        melds=players[seat].melds,
        flowers=[_kind(t) for t in me.get("flowers") or []],
        players=players,
        visible=visible,
        live=live,
        live_wilds=max(0, 3 - wilds_seen),
        last_discard=None if not last else (last["seat"], _kind(last["tile"])),
        sheng_phase=bool(v.get("sheng_phase")),
        discarded_kinds=discarded_kinds,
        carry_pool=int(v.get("carry_pool") or 0),
        santan_pairs=[tuple(p) for p in v.get("santan_pairs") or []],
        claim_counts=[list(r) for r in v.get("claim_counts") or [[0] * 4 for _ in range(4)]],
        options=options,
        rule_options=rules.view_options(options),
    )


def counts_of(tiles: Sequence[int]) -> list[int]:
    out = [0] * NUM
    for k in tiles:
        if k < NUM:
            out[k] += 1
    return out
