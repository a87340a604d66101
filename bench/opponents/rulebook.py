"""``rulebook``: a clean-room opponent written from the rules alone, as a decent human plays.

It shares no code with ``baida.bots``: it reads only the public view JSON and the legal
actions (docs/engine.md), and measures a hand with its own small distance code. Its habits:

* builds toward the nearest finishing shape (in Jiaxing only the 台头和 patterns win: one suit,
  one suit with honours, all triplets, all honours), keeping the tiles with the most live
  neighbours;
* claims a 碰/吃 only when it brings the hand closer, and never makes the third claim on one
  player (三摊) unless that claim makes it ready;
* never hands a player who already claimed twice from it a tile they can take, when another
  discard keeps the hand as close;
* does not feed a player whose claims show a one-suit hand the tiles of that suit late on;
* Wenling: in the 生牌阶段 it throws a tile somebody already discarded whenever it can, and
  it folds (discards the safest tile) when an opponent looks ready and it is far from ready;
* 三摊: 坚持 only when ready or one tile from ready, otherwise 放弃.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

SUITS = "mps"
HONOURS = "ESWNCFP"


def kind_of(face: str) -> int:
    """0-33 for the playing tiles (m, p, s, then E S W N C F P); 34+ for flowers."""
    if face in HONOURS:
        return 27 + HONOURS.index(face)
    if face[0] == "f":
        return 33 + int(face[1:])
    return 9 * SUITS.index(face[1]) + int(face[0]) - 1


def as_json(action: Any) -> dict[str, Any]:
    return action if isinstance(action, dict) else action.to_json()


# -- hand distance (own small code) ---------------------------------------------------------


@lru_cache(maxsize=200_000)
def _suit_blocks(counts: tuple[int, ...], honours: bool) -> frozenset[tuple[int, int, int]]:
    """Every (sets, partial sets, pair) split of one suit (or the honours) worth keeping."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return frozenset({(0, 0, 0)})
    out: set[tuple[int, int, int]] = set()
    c = list(counts)

    def add(sub: frozenset, sets: int, parts: int, pair: int) -> None:
        for s, p, q in sub:
            if q + pair <= 1:
                out.add((s + sets, p + parts, q + pair))

    c[first] -= 1  # leave this tile alone
    add(_suit_blocks(tuple(c), honours), 0, 0, 0)
    c[first] += 1
    if c[first] >= 3:
        c[first] -= 3
        add(_suit_blocks(tuple(c), honours), 1, 0, 0)
        c[first] += 3
    if c[first] >= 2:
        c[first] -= 2
        add(_suit_blocks(tuple(c), honours), 0, 1, 0)
        add(_suit_blocks(tuple(c), honours), 0, 0, 1)
        c[first] += 2
    if not honours:
        for a, b, part in ((1, 2, False), (1, None, True), (2, None, True)):
            if first + a > 8 or not c[first + a]:
                continue
            if b is not None and (first + b > 8 or not c[first + b]):
                continue
            c[first] -= 1
            c[first + a] -= 1
            if b is not None:
                c[first + b] -= 1
            add(_suit_blocks(tuple(c), honours), 0 if part else 1, 1 if part else 0, 0)
            c[first] += 1
            c[first + a] += 1
            if b is not None:
                c[first + b] += 1
    return frozenset(out)


def plain_distance(counts: Sequence[int], sets_needed: int, wilds: int) -> int:
    """Tiles still missing for ``sets_needed`` sets and a pair, minus one (0 = ready)."""
    combos = {(0, 0, 0)}
    for lo, hi, honours in ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True)):
        blocks = _suit_blocks(tuple(counts[lo:hi]), honours)
        combos = {
            (s + s2, p + p2, q + q2) for s, p, q in combos for s2, p2, q2 in blocks if q + q2 <= 1
        }
    best = 99
    for sets, parts, pair in combos:
        sets = min(sets, sets_needed)
        parts = min(parts, sets_needed - sets)
        best = min(best, 2 * (sets_needed - sets) - parts - pair)
    return max(-1, best - wilds)


def triplet_distance(counts: Sequence[int], kinds: Sequence[int], sets: int, wilds: int) -> int:
    """Distance to ``sets`` triplets and a pair made only of ``kinds``."""
    have = sorted((min(counts[k], 3) for k in kinds), reverse=True)
    have += [0] * (sets + 1 - len(have))
    best = 99
    for pair_index in range(sets + 1):
        trip = [h for i, h in enumerate(have[: sets + 1]) if i != pair_index]
        missing = sum(3 - h for h in trip) + 2 - min(have[pair_index], 2)
        best = min(best, missing)
    return max(-1, best - 1 - wilds)


class Shape:
    """The distances of one hand to every shape that may win it."""

    def __init__(self, ruleset: str, require_pattern: bool, melds: Sequence[dict]) -> None:
        self.ruleset = ruleset
        self.sets = (4 if ruleset == "jiaxing" else 5) - len(melds)
        meld_kinds = [kind_of(m["tiles"][0]) for m in melds if m.get("tiles")]
        self.meld_suits = {k // 9 for k in meld_kinds if k < 27}
        self.meld_honours = any(k >= 27 for k in meld_kinds)
        self.has_chi = any(m["type"] == "chi" for m in melds)
        self.any_shape = ruleset == "wenling" or not require_pattern

    def distance(self, counts: Sequence[int], wilds: int) -> int:
        best = plain_distance(counts, self.sets, wilds) if self.any_shape else 99
        if self.ruleset == "wenling":
            return best
        for suit in range(3):
            if self.meld_suits - {suit}:
                continue
            lo = 9 * suit
            one = [0] * 34
            one[lo : lo + 9] = counts[lo : lo + 9]
            if not self.meld_honours:
                best = min(best, plain_distance(one, self.sets, wilds))  # 清一色
            one[27:34] = counts[27:34]
            best = min(best, plain_distance(one, self.sets, wilds))  # 混一色
        if not self.has_chi:
            best = min(best, triplet_distance(counts, range(34), self.sets, wilds))  # 对对和
            if not self.meld_suits:
                best = min(best, triplet_distance(counts, range(27, 34), self.sets, wilds))
        return best


# -- the player ------------------------------------------------------------------------------


class RulebookBot:
    """A careful rule-following player (see the module docstring)."""

    name = "rulebook"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        v = view if isinstance(view, dict) else view.to_json()
        acts = [as_json(a) for a in legal_actions]
        types = [a["type"] for a in acts]
        for wanted in ("win", "lazi"):
            if wanted in types:
                return legal_actions[types.index(wanted)]
        me = Reading(v)
        if "continue" in types:
            keep = me.distance() <= 1
            pick = "continue" if keep or "give_up" not in types else "give_up"
            return legal_actions[types.index(pick)]
        if "discard" in types:
            for i, a in enumerate(acts):  # a kong that does not slow the hand
                if a["type"] in ("akong", "bukong") and me.kong_keeps(kind_of(a["tile"]), a):
                    return legal_actions[i]
            options = [
                (i, kind_of(a["tile"])) for i, a in enumerate(acts) if a["type"] == "discard"
            ]
            return legal_actions[me.pick_discard(options, self.rng)]
        for i, a in enumerate(acts):
            if a["type"] in ("pon", "mkong", "chi") and me.claim_helps(a):
                return legal_actions[i]
        if "pass" in types:
            return legal_actions[types.index("pass")]
        return legal_actions[0]


class Reading:
    """One seat's reading of the table from its view JSON."""

    def __init__(self, v: dict[str, Any]) -> None:
        self.v = v
        self.seat = v["seat"]
        self.ruleset = v["ruleset"]
        self.wild_kinds = {kind_of(f) for f in v.get("wilds") or []}
        me = v["players"][self.seat]
        self.counts = [0] * 34
        self.wilds = 0
        for face in me.get("concealed") or []:
            k = kind_of(face)
            if k in self.wild_kinds:
                self.wilds += 1
            elif k < 34:
                self.counts[k] += 1
        self.melds = me.get("melds") or []
        opts = v.get("options") or {}
        self.require_pattern = opts.get("require_pattern", True)
        self.shape = Shape(self.ruleset, self.require_pattern, self.melds)
        self.seen = [0] * 34
        self.discarded: set[int] = set()
        for p in v["players"]:
            for i, face in enumerate(p.get("discards") or []):
                k = kind_of(face)
                if k < 34:
                    self.discarded.add(k)
                    if i not in (p.get("claimed") or []):
                        self.seen[k] += 1
            for m in p.get("melds") or []:
                for face in m.get("tiles") or []:
                    if kind_of(face) < 34:
                        self.seen[kind_of(face)] += 1
        for k in range(34):
            self.seen[k] += self.counts[k]

    def live(self, k: int) -> int:
        return 0 if k in self.wild_kinds else max(0, 4 - self.seen[k])

    def distance(self) -> int:
        total = sum(self.counts) + self.wilds
        if total % 3 == 2:
            return min(self._after_discard(k) for k in range(34) if self.counts[k])
        return self.shape.distance(self.counts, self.wilds)

    def _after_discard(self, k: int) -> int:
        self.counts[k] -= 1
        d = self.shape.distance(self.counts, self.wilds)
        self.counts[k] += 1
        return d

    def _useful(self, k: int) -> int:
        """Live tiles that bring the hand (after discarding ``k``) closer."""
        self.counts[k] -= 1
        base = self.shape.distance(self.counts, self.wilds)
        total = 0
        for j in range(34):
            n = self.live(j)
            if n:
                self.counts[j] += 1
                if self.shape.distance(self.counts, self.wilds) < base:
                    total += n
                self.counts[j] -= 1
        self.counts[k] += 1
        return total

    # -- danger ------------------------------------------------------------------------------
    def _opponents(self) -> list[dict[str, Any]]:
        return [p for p in self.v["players"] if p["seat"] != self.seat]

    def _flush_suit(self, p: dict[str, Any]) -> int | None:
        kinds = [kind_of(m["tiles"][0]) for m in p.get("melds") or [] if m.get("tiles")]
        suits = {k // 9 for k in kinds if k < 27}
        return next(iter(suits)) if len(kinds) >= 2 and len(suits) == 1 else None

    def _feeds(self, k: int) -> int:
        """How many dangerous claims discarding ``k`` may hand out (Jiaxing)."""
        risk = 0
        counts = self.v.get("claim_counts") or [[0] * 4 for _ in range(4)]
        pairs = [set(p) for p in self.v.get("santan_pairs") or []]
        for p in self._opponents():
            if p.get("gave_up"):
                continue
            takeable = self.live(k) >= 2 or (p["seat"] == (self.seat + 1) % 4 and k < 27)
            if not takeable:
                continue
            if counts[p["seat"]][self.seat] >= 2 and {p["seat"], self.seat} not in pairs:
                risk += 3
            suit = self._flush_suit(p)
            if suit is not None and (k >= 27 or k // 9 == suit):
                risk += 1
        return risk

    def _deal_in_risk(self, k: int) -> float:
        """Wenling: a rough danger of discarding ``k``."""
        risk = 0.0
        for p in self._opponents():
            melds = len(p.get("melds") or [])
            turns = len(p.get("discards") or [])
            threat = melds * 0.2 + turns * 0.03
            own = [kind_of(f) for f in p.get("discards") or []]
            if k in own:
                continue  # they threw it themselves
            danger = 1.0
            if k >= 27:
                danger = 0.3 if self.live(k) <= 1 else 0.7
            elif k % 9 in (0, 8):
                danger = 0.7
            suit = self._flush_suit(p)
            if suit is not None and k < 27:
                danger *= 2.0 if k // 9 == suit else 0.3
            risk += threat * danger
        if self.v.get("sheng_phase") and k not in self.discarded:
            risk = risk * 3 + 1.0  # 包三家
        return risk

    # -- decisions ---------------------------------------------------------------------------
    def pick_discard(self, options: list[tuple[int, int]], rng: random.Random) -> int:
        naturals = [(i, k) for i, k in options if k < 34 and k not in self.wild_kinds]
        if not naturals:
            return options[0][0]
        dist = {k: self._after_discard(k) for _, k in naturals}
        best = min(dist.values())
        late = (self.v.get("wall_remaining") or 0) < 40
        wenling = self.ruleset == "wenling"
        fold = False
        if wenling:
            threat = max(len(p.get("melds") or []) for p in self._opponents())
            fold = best >= 2 and (threat >= 3 or (late and threat >= 2))
        scored = []
        for i, k in naturals:
            slack = dist[k] - best
            if fold:
                key = (self._deal_in_risk(k), dist[k], 0.0)
            elif wenling:
                sheng = self.v.get("sheng_phase") and k not in self.discarded
                too_slow = slack > (1 if sheng or late else 0)
                key = (too_slow, slack + 2 * bool(sheng), -self._useful(k) if slack == 0 else 0)
            else:
                feeds = self._feeds(k)
                too_slow = slack > (1 if feeds else 0)
                key = (too_slow, slack + (feeds if late or feeds >= 3 else 0), -self._useful(k))
            scored.append((key, rng.random(), i))
        return min(scored)[2]

    def claim_helps(self, a: dict[str, Any]) -> bool:
        last = self.v.get("last_discard") or {}
        tile = kind_of(last["tile"])
        size = {"chi": 0, "pon": 2, "mkong": 3}[a["type"]]
        uses = [kind_of(t) for t in a["tiles"]] if a["type"] == "chi" else [tile] * size
        faces = list(a.get("tiles") or []) + [last["tile"]] * (1 + size)
        before = self.distance()
        for k in uses:
            self.counts[k] -= 1
        kept = self.shape
        self.shape = Shape(
            self.ruleset,
            self.require_pattern,
            self.melds + [{"type": a["type"], "tiles": sorted(faces, key=kind_of)}],
        )
        if a["type"] == "mkong":
            after = self.shape.distance(self.counts, self.wilds)
        else:
            after = min((self._after_discard(k) for k in range(34) if self.counts[k]), default=99)
        for k in uses:
            self.counts[k] += 1
        self.shape = kept
        if after >= before:
            return False
        counts = self.v.get("claim_counts") or [[0] * 4 for _ in range(4)]
        third = self.ruleset == "jiaxing" and counts[self.seat][last["seat"]] >= 2
        return not third or after <= 0

    def kong_keeps(self, k: int, a: dict[str, Any]) -> bool:
        before = self.distance()
        taken = 4 if a["type"] == "akong" else 1
        if self.counts[k] < taken:
            return False
        self.counts[k] -= taken
        after = self.shape.distance(self.counts, self.wilds)
        self.counts[k] += taken
        return after <= before


def register() -> None:
    """Make ``rulebook`` a bot name for the arena."""
    from baida.bots.policy import register as register_bot

    register_bot("rulebook", "bench.opponents.rulebook:RulebookBot")
