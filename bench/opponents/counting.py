"""CountingBot: a careful tile-counting (ukeire) player, an outside opponent for baida.

Written from the rule documents alone (docs/rules-jiaxing.md, docs/rules-wenling.md,
docs/options.md, docs/engine.md for the view / action JSON), without reading or importing any of
the project's bot code. It imports nothing from ``baida``: it reads ``view.to_json()`` and
``action.to_json()`` (plain dicts work too) and returns one of the offered actions.

Its habits, in order of priority:

1. A 腊子 (Wenling, 500, the cap) is declared before anything else, then any win (自摸, a
   discard win, a robbed kong).
2. Discards: the discard that leaves the smallest *distance* (tiles still missing) to a
   finishing shape the ruleset accepts. Jiaxing: 4 sets + a pair that is also 清一色 / 混一色 /
   全老头 / 对对和 (the only hands that can win), consistent with the melds already shown;
   Wenling: 5 sets + a pair (16-tile hands). Wild tiles (百搭 / 得) fill any gap. Among the
   nearest discards it prefers the one with most *live* improving tiles (4 minus every copy it
   can see; a live wild improves every hand), blended with the value of the hand it keeps
   (Jiaxing: the pattern's 台; Wenling: flushes, 对对和, honour triplets, 得) and a one-step
   look-ahead for the best candidates (the acceptance after the best follow-up discard).
   A Wenling 得 is never thrown (it ends the right to win and throws away a 腊子 chance).
3. Claims (吃/碰/明杠) only when they shorten the distance, or keep it and clearly widen the
   acceptance. Jiaxing 三摊: never the claim that would be the third on one player unless it
   makes the hand ready; among equal discards, it avoids feeding a player who already has two
   claims on it.
4. 三摊 坚持/放弃: continues when its own chance to win, times what the pair would pay it,
   outweighs the chance the pair wins times the doubled share it would pay.
5. Wenling defence: a discard win is paid by all three like a self-draw, so outside the
   生牌阶段 danger is only a light tie-break. In the 生牌阶段, when an opponent looks dangerous
   (melds, shown specials, late wall), it prefers kinds already discarded, weighs a 生牌 three
   times (包三家), and gives up one step of distance for safety when its own hand is far.
6. Kongs are declared when they do not worsen the distance or the acceptance; a concealed kong
   that makes a Wenling 腊子 always.
"""

from __future__ import annotations

import math
import random
from typing import Any

from .counting_shapes import (
    NKINDS,
    TARGET_TAI,
    counts_of,
    distance_from_kept,
    face_to_kind,
    hand_distance,
    kind_to_face,
    split,
    target_kept,
)

# --------------------------------------------------------------------------- helpers


def as_json(obj: Any) -> dict[str, Any]:
    return obj.to_json() if hasattr(obj, "to_json") else obj


def binom_at_least(n: int, q: float, k: int) -> float:
    """P(Binomial(n, q) >= k)."""
    if k <= 0:
        return 1.0
    if n < k or q <= 0:
        return 0.0
    q = min(q, 1.0)
    total = 0.0
    for i in range(k):
        total += math.comb(n, i) * q**i * (1 - q) ** (n - i)
    return max(0.0, 1.0 - total)


class _Ctx:
    """What one decision needs, read from the view JSON."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.ruleset = view["ruleset"]
        self.jx = self.ruleset == "jiaxing"
        self.options = view.get("options") or {}
        self.seat = view["seat"]
        self.players = view["players"]
        self.me = self.players[self.seat]
        self.wild_faces = set(view.get("wilds") or [])
        self.special_faces = set(view.get("specials") or [])
        self.wild_kinds = {k for k in map(face_to_kind, self.wild_faces) if k is not None}
        self.special_kinds = {k for k in map(face_to_kind, self.special_faces) if k is not None}
        hand = [f for f in (self.me["concealed"] or [])]
        self.wilds = sum(1 for f in hand if f in self.wild_faces)
        self.counts = counts_of([f for f in hand if f not in self.wild_faces])
        self.my_melds = self.me["melds"] or []
        self.total_sets = 4 if self.jx else 5
        self.wind = self.me.get("wind") or "E"
        self.round_wind = view.get("round_wind")
        self.wall = view.get("wall_remaining") or 0
        self._visible()
        self.targets = self._targets(self.my_melds)

    # visible copies of every kind (own hand, discards not claimed, every meld shown)
    def _visible(self) -> None:
        vis = list(self.counts)
        seen_wilds = self.wilds
        for p in self.players:
            claimed = set(p.get("claimed") or [])
            for idx, f in enumerate(p.get("discards") or []):
                if f in self.wild_faces:
                    seen_wilds += 1
                    continue
                if idx in claimed:
                    continue
                k = face_to_kind(f)
                if k is not None:
                    vis[k] += 1
            for m in p.get("melds") or []:
                for f in m.get("tiles") or []:
                    k = face_to_kind(f)
                    if k is not None:
                        vis[k] += 1
        self.visible = vis
        live = [max(0, 4 - v) for v in vis]
        for k in self.wild_kinds | self.special_kinds:
            live[k] = 0
        self.live = live
        self.live_wilds = max(0, 3 - seen_wilds)
        self.discarded_kinds = set()
        for p in self.players:
            for f in p.get("discards") or []:
                k = face_to_kind(f)
                if k is not None:
                    self.discarded_kinds.add(k)

    def _targets(self, melds: list[dict[str, Any]]) -> tuple[tuple[str, int | None], ...]:
        if not self.jx:
            return (("std", None),)
        suits = set()
        has_chi = False
        for m in melds:
            if m.get("type") == "chi":
                has_chi = True
            k = face_to_kind((m.get("tiles") or ["E"])[0])
            suits.add(3 if k is None or k >= 27 else k // 9)
        out: list[tuple[str, int | None]] = []
        for s in range(3):
            if suits <= {s, 3}:
                out.append(("hy", s))
        if not has_chi:
            out.append(("ddh", None))
        if not out:  # no pattern left at all: play for shape anyway
            out.append(("std", None))
        return tuple(out)

    def all_value_targets(self, melds: list[dict[str, Any]]) -> list[tuple[str, int | None]]:
        suits = set()
        has_chi = False
        for m in melds:
            if m.get("type") == "chi":
                has_chi = True
            k = face_to_kind((m.get("tiles") or ["E"])[0])
            suits.add(3 if k is None or k >= 27 else k // 9)
        out: list[tuple[str, int | None]] = []
        for s in range(3):
            if suits <= {s, 3}:
                out.append(("hy", s))
                if not has_chi:
                    out.append(("hyddh", s))
            if suits <= {s}:
                out.append(("qys", s))
                if not has_chi:
                    out.append(("qysddh", s))
        if suits <= {3}:
            out.append(("qlt", None))
        if not has_chi:
            out.append(("ddh", None))
        return out


# --------------------------------------------------------------------------- the bot


class CountingBot:
    """Ukeire player: nearest legal shape, most live tiles, then value; see the module doc."""

    name = "counting"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    # ---- distance / acceptance of a hand of 3n+1 tiles -------------------------------

    def _accept(self, ctx: _Ctx, counts: tuple[int, ...], wilds: int, slots: int,
                targets: tuple[tuple[str, int | None], ...],
                d: int | None = None) -> tuple[int, int, list[int]]:
        """(distance, live improving tiles, improving kinds) of a 3n+1 hand."""
        if d is None:
            d = hand_distance(counts, wilds, slots, targets)
        if d == 0:
            return 0, 0, []
        total = ctx.live_wilds
        kinds = []
        c = list(counts)
        live = ctx.live
        for k in range(NKINDS):
            if live[k] <= 0:
                continue
            c[k] += 1
            if hand_distance(tuple(c), wilds, slots, targets) < d:
                total += live[k]
                kinds.append(k)
            c[k] -= 1
        return d, total, kinds

    def _best_follow(self, ctx: _Ctx, counts: tuple[int, ...], wilds: int, slots: int,
                     targets: tuple[tuple[str, int | None], ...]) -> int:
        """Acceptance of the best discard from a 3n+2 hand (the second ply)."""
        d0 = hand_distance(counts, wilds, slots, targets)
        best = 0
        c = list(counts)
        for k in range(NKINDS):
            if c[k] == 0:
                continue
            c[k] -= 1
            t = tuple(c)
            d = hand_distance(t, wilds, slots, targets)
            if d <= d0 + 0:
                _, u, _ = self._accept(ctx, t, wilds, slots, targets, d)
                if u > best:
                    best = u
            c[k] += 1
        return best

    # ---- value of a 3n+1 hand --------------------------------------------------------

    def _value(self, ctx: _Ctx, counts: tuple[int, ...], wilds: int, slots: int,
               melds: list[dict[str, Any]], d: int) -> float:
        """A log2-scale estimate of what the hand will be worth (higher is better)."""
        groups = split(counts)
        if ctx.jx:
            best = 0.0
            for name, suit in ctx.all_value_targets(melds):
                dt = distance_from_kept(target_kept(groups, name, suit, slots), wilds, slots)
                if dt > d + 2:
                    continue
                v = TARGET_TAI[name] * (0.4 ** (dt - d))
                if v > best:
                    best = v
            honors = 0.0
            for f in ("C", "F", "P", ctx.wind, ctx.round_wind):
                if f is None:
                    continue
                k = face_to_kind(f)
                if k is None or k in ctx.wild_kinds:
                    continue
                if counts[k] >= 3:
                    honors += 1
                elif counts[k] == 2:
                    honors += 0.4
            if wilds >= 3:
                best *= 2  # 三百搭
            return math.log2(1 + best + honors)
        # Wenling: fan from flushes / 对对和 / honour triplets, 2张得
        fan = 0.0
        for name, suit, f in (("ddh", None, 2), ("hy", 0, 2), ("hy", 1, 2), ("hy", 2, 2),
                              ("qys", 0, 4), ("qys", 1, 4), ("qys", 2, 4)):
            if not self._wl_fits(name, suit, melds):
                continue
            dt = distance_from_kept(target_kept(groups, name, suit, slots), wilds, slots)
            if dt <= d + 1:
                fan = max(fan, f * (0.4 ** (dt - d)))
        lazi_kinds = self._wl_lazi_kinds(ctx)
        for k in lazi_kinds:
            if counts[k] >= 3:
                fan += 1.5  # a 暗杠 of it is a 腊子
            elif counts[k] == 2:
                fan += 0.5
        if wilds == 2:
            fan += 1
        # what the hand is worth even if someone else wins (losers settle by their totals):
        # concealed triplets, 8 for an honour or a terminal, 4 otherwise
        held = 0
        for k in range(NKINDS):
            if counts[k] >= 3:
                held += 8 if k >= 27 or k % 9 in (0, 8) else 4
        return fan + 0.4 * math.log2(1 + held / 20)

    @staticmethod
    def _wl_fits(name: str, suit: int | None, melds: list[dict[str, Any]]) -> bool:
        for m in melds:
            if name == "ddh" and m.get("type") == "chi":
                return False
            k = face_to_kind((m.get("tiles") or ["E"])[0])
            s = 3 if k is None or k >= 27 else k // 9
            if name == "hy" and s not in (suit, 3):
                return False
            if name == "qys" and s != suit:
                return False
        return True

    @staticmethod
    def _wl_lazi_kinds(ctx: _Ctx) -> list[int]:
        out = []
        for f in (ctx.wind, "C", "F", "P"):
            k = face_to_kind(f)
            if k is None or k in ctx.wild_kinds or k in ctx.special_kinds:
                continue
            if f != ctx.wind and f not in "CFP":
                continue
            out.append(k)
        return out

    # ---- danger (Wenling discards) ---------------------------------------------------

    def _threats(self, ctx: _Ctx) -> list[tuple[int, float]]:
        if ctx.jx:
            return []
        out = []
        lateness = max(0.0, min(1.0, (70 - ctx.wall) / 55))
        for p in ctx.players:
            if p["seat"] == ctx.seat:
                continue
            melds = len(p.get("melds") or [])
            shown = sum(1 for f in p.get("flowers") or [] if f == "P" or f in "CF")
            own_flowers = sum(1 for f in p.get("flowers") or []
                              if f.startswith("f") and self._flower_seat(f) == p.get("wind"))
            ready = min(0.95, 0.08 + 0.16 * melds + 0.55 * lateness)
            value = 1.0 + 0.35 * (shown + own_flowers) + 0.15 * melds
            out.append((p["seat"], ready * value))
        return out

    @staticmethod
    def _flower_seat(f: str) -> str:
        return "ESWN"[(int(f[1]) - 1) % 4]

    def _danger(self, ctx: _Ctx, kind: int, threats: list[tuple[int, float]]) -> float:
        if not threats:
            return 0.0
        vis = ctx.visible[kind]
        if kind >= 27:
            base = (1.0, 0.7, 0.35, 0.08, 0.02)[min(vis, 4)]
        else:
            r = kind % 9
            base = 0.7 if r in (0, 8) else (0.85 if r in (1, 7) else 1.0)
            base *= (1.0, 1.0, 0.85, 0.55, 0.35)[min(vis, 4)]
        total = 0.0
        for seat, t in threats:
            d = base
            discards = ctx.players[seat].get("discards") or []
            if kind_to_face(kind) in discards:
                d *= 0.35  # the player threw it: no rule forbids the win, but it is rarer
            total += t * d
        if ctx.view.get("sheng_phase") and kind not in ctx.discarded_kinds:
            total *= 3.0  # 包三家: a 生牌 here pays for all three
        return total

    # ---- choices --------------------------------------------------------------------

    def choose(self, view: Any, legal_actions: list[Any]) -> Any:
        offered = [(as_json(a), a) for a in legal_actions]
        if len(offered) == 1:
            return legal_actions[0]
        by_type: dict[str, list[tuple[dict[str, Any], Any]]] = {}
        for data, action in offered:
            by_type.setdefault(data["type"], []).append((data, action))
        for wanted in ("lazi", "win"):
            if wanted in by_type:
                return by_type[wanted][0][1]
        ctx = _Ctx(as_json(view))
        if "continue" in by_type or "give_up" in by_type:
            return self._santan(ctx, by_type)
        if "discard" in by_type:
            return self._turn(ctx, by_type)
        return self._claim(ctx, by_type, legal_actions)

    # own turn: discards and kongs
    def _turn(self, ctx: _Ctx, by_type: dict[str, list[tuple[dict[str, Any], Any]]]) -> Any:
        slots = ctx.total_sets - len(ctx.my_melds)
        best_action, best_key, best_du = self._pick_discard(
            ctx, ctx.counts, ctx.wilds, slots, ctx.targets, by_type["discard"])
        d_best, u_best = best_du
        for typ in ("akong", "bukong"):
            for data, action in by_type.get(typ, []):
                k = face_to_kind(data["tile"])
                if k is None:
                    continue
                if not ctx.jx and typ == "akong" and k in self._wl_lazi_kinds(ctx):
                    return action  # the 暗杠 is a 腊子
                c = list(ctx.counts)
                if typ == "akong":
                    c[k] -= 4
                    new_slots = slots - 1
                    melds = ctx.my_melds + [{"type": "akong", "tiles": [data["tile"]] * 4}]
                else:
                    c[k] -= 1
                    new_slots = slots
                    melds = ctx.my_melds
                if min(c) < 0:
                    continue
                targets = ctx._targets(melds)
                d, u, _ = self._accept(ctx, tuple(c), ctx.wilds, new_slots, targets)
                if d < d_best or (d == d_best and u >= u_best * 0.85):
                    return action
        return best_action

    def _pick_discard(self, ctx: _Ctx, counts: tuple[int, ...], wilds: int, slots: int,
                      targets: tuple[tuple[str, int | None], ...],
                      discards: list[tuple[dict[str, Any], Any]],
                      melds: list[dict[str, Any]] | None = None,
                      ) -> tuple[Any, float, tuple[int, int]]:
        """Best discard; returns (action, score, (distance, acceptance))."""
        if melds is None:
            melds = ctx.my_melds
        cands = []
        for data, action in discards:
            face = data["tile"]
            if face in ctx.wild_faces:
                # Jiaxing: a thrown 百搭 is dead; Wenling: it also ends the right to win
                cands.append((data, action, None, 30, 0, []))
                continue
            k = face_to_kind(face)
            if k is None or counts[k] == 0:
                continue
            c = list(counts)
            c[k] -= 1
            t = tuple(c)
            d, u, kinds = self._accept(ctx, t, wilds, slots, targets)
            cands.append((data, action, k, d, u, kinds, t))
        if not cands:
            data, action = discards[0]
            return action, 0.0, (99, 0)
        cands = [cd if len(cd) == 7 else cd + (None,) for cd in cands]
        d_min = min(cd[3] for cd in cands)
        threats = self._threats(ctx)
        threat = sum(t for _, t in threats)
        sheng = bool(ctx.view.get("sheng_phase"))
        # a Wenling discard win is paid by all three, like a self-draw: dealing in costs
        # little extra, except a 生牌 in the 生牌阶段 (包三家)
        defend = (not ctx.jx) and sheng and threat > 0.9
        allowed = d_min + (1 if defend and d_min >= 3 else 0)
        pool = [cd for cd in cands if cd[3] <= allowed and cd[6] is not None]
        if not pool:
            pool = [cd for cd in cands if cd[3] == d_min]
        u_max = max(cd[4] for cd in pool) or 1
        feed = self._feed_risk(ctx)
        scored = []
        for data, action, k, d, u, _kinds, t in pool:
            s = 2.0 * math.log(max(u, 0.5) / u_max) * (1 + 0.3 * min(d, 3))
            s -= 4.0 * (d - d_min)
            if t is not None:
                s += 0.9 * self._value(ctx, t, wilds, slots, melds, d)
                if threats:
                    weight = 2.5 if defend else (1.0 if sheng else 0.15)
                    if d_min <= 1:
                        weight *= 0.5
                    s -= weight * self._danger(ctx, k, threats)
                if feed:
                    s -= self._feed_penalty(ctx, k, feed)
            scored.append([s, data, action, k, d, u, t])
        scored.sort(key=lambda x: -x[0])
        # second ply for the few best when the hand is still two or more away
        top = scored[:3]
        if top[0][4] >= 2 and len(top) > 1 and top[0][0] - top[-1][0] < 1.5:
            for row in top:
                t = row[6]
                if t is None:
                    continue
                follow = self._ply2(ctx, t, wilds, slots, targets, row[4])
                row[0] += 0.6 * math.log(1 + follow) - 0.6 * math.log(1 + row[5])
            top.sort(key=lambda x: -x[0])
        best = top[0]
        ties = [r for r in top if abs(r[0] - best[0]) < 1e-9]
        if len(ties) > 1:
            best = self.rng.choice(ties)
        return best[2], best[0], (best[4], best[5])

    def _ply2(self, ctx: _Ctx, t: tuple[int, ...], wilds: int, slots: int,
              targets: tuple[tuple[str, int | None], ...], d: int) -> float:
        """Average acceptance after drawing an improving tile and the best follow-up."""
        _, u, kinds = self._accept(ctx, t, wilds, slots, targets, d)
        if not kinds:
            return 0.0
        total = 0.0
        weight = 0
        c = list(t)
        # limit the work: the most plentiful improving kinds
        kinds = sorted(kinds, key=lambda k: -ctx.live[k])[:6]
        for k in kinds:
            c[k] += 1
            total += ctx.live[k] * self._best_follow(ctx, tuple(c), wilds, slots, targets)
            weight += ctx.live[k]
            c[k] -= 1
        return total / max(1, weight)

    # Jiaxing 三摊: who already has two claims on my discards
    def _feed_risk(self, ctx: _Ctx) -> list[int]:
        if not ctx.jx or not ctx.options.get("santan_enabled", True):
            return []
        thr = int(ctx.options.get("santan_threshold", 3))
        counts = ctx.view.get("claim_counts") or []
        pairs = ctx.view.get("santan_pairs") or []
        out = []
        for y in range(4):
            if y == ctx.seat or not counts:
                continue
            if any(set(p) == {y, ctx.seat} for p in pairs):
                continue
            if counts[y][ctx.seat] == thr - 1 and not ctx.players[y].get("gave_up"):
                out.append(y)
        return out

    def _feed_penalty(self, ctx: _Ctx, kind: int, feeders: list[int]) -> float:
        unseen = 4 - ctx.visible[kind]
        pen = 0.0
        if unseen >= 2:
            pen += 0.4 * (unseen - 1)  # a 碰 is possible
        if kind < 27 and any(y == (ctx.seat + 1) % 4 for y in feeders):
            pen += 0.5  # the 下家 may 吃 it
        return pen

    # claim window
    def _claim(self, ctx: _Ctx, by_type: dict[str, list[tuple[dict[str, Any], Any]]],
               legal_actions: list[Any]) -> Any:
        pass_action = by_type.get("pass", [(None, legal_actions[0])])[0][1]
        last = ctx.view.get("last_discard") or {}
        robbable = ctx.view.get("robbable")
        face = (last or {}).get("tile") or (robbable or {}).get("tile")
        discarder = (last or {}).get("seat")
        k = face_to_kind(face) if face else None
        if k is None:
            return pass_action
        slots = ctx.total_sets - len(ctx.my_melds)
        d0, u0, _ = self._accept(ctx, ctx.counts, ctx.wilds, slots, ctx.targets)
        third = False
        if ctx.jx and discarder is not None and ctx.options.get("santan_enabled", True):
            thr = int(ctx.options.get("santan_threshold", 3))
            cc = ctx.view.get("claim_counts") or []
            pairs = ctx.view.get("santan_pairs") or []
            paired = any(set(p) == {discarder, ctx.seat} for p in pairs)
            if cc and not paired and cc[ctx.seat][discarder] >= thr - 1:
                third = True
        best = (d0, u0, 0.0, pass_action)
        for typ in ("mkong", "pon", "chi"):
            for data, action in by_type.get(typ, []):
                c = list(ctx.counts)
                if typ == "chi":
                    used = [face_to_kind(f) for f in data["tiles"]]
                    tiles = sorted(data["tiles"] + [face], key=lambda f: face_to_kind(f) or 0)
                elif typ == "pon":
                    used = [k, k]
                    tiles = [face] * 3
                else:
                    used = [k, k, k]
                    tiles = [face] * 4
                for u in used:
                    if u is None:
                        break
                    c[u] -= 1
                if min(c) < 0:
                    continue
                melds = ctx.my_melds + [{"type": typ, "tiles": tiles, "from": discarder}]
                targets = ctx._targets(melds)
                new_slots = slots - 1
                t = tuple(c)
                if typ == "mkong":
                    d1, u1, _ = self._accept(ctx, t, ctx.wilds, new_slots, targets)
                    extra = 0.3
                else:
                    discards = []
                    for kk in range(NKINDS):
                        if t[kk]:
                            discards.append(({"type": "discard", "tile": kind_to_face(kk)},
                                             None))
                    if ctx.wilds:
                        discards.append(({"type": "discard",
                                          "tile": next(iter(ctx.wild_faces))}, None))
                    if not discards:
                        continue
                    _, _, (d1, u1) = self._pick_discard(ctx, t, ctx.wilds, new_slots, targets,
                                                        discards, melds)
                    extra = 0.0
                if third and d1 > 1:
                    continue  # a third claim on one player only if it makes us ready
                better = d1 < d0 or (d1 == d0 and u1 >= u0 + 2 + 0.15 * u0)
                if typ == "mkong":
                    better = d1 <= d0 and u1 >= u0 * 0.8
                if not better:
                    continue
                cand = (d1, u1, extra, action)
                if (cand[0], -cand[1], -cand[2]) < (best[0], -best[1], -best[2]):
                    best = cand
        return best[3]

    # Jiaxing 三摊: 坚持 or 放弃
    def _santan(self, ctx: _Ctx, by_type: dict[str, list[tuple[dict[str, Any], Any]]]) -> Any:
        cont = by_type.get("continue", [(None, None)])[0][1]
        quit_ = by_type.get("give_up", [(None, None)])[0][1]
        if cont is None:
            return quit_
        if quit_ is None:
            return cont
        slots = ctx.total_sets - len(ctx.my_melds)
        # the tile count may be 3n+1 or 3n+2 here; take the best discard view if 3n+2
        n = sum(ctx.counts) + ctx.wilds
        if n % 3 == 2:
            d = 99
            u = 0
            c = list(ctx.counts)
            for k in range(NKINDS):
                if c[k]:
                    c[k] -= 1
                    dd, uu, _ = self._accept(ctx, tuple(c), ctx.wilds, slots, ctx.targets)
                    if (dd, -uu) < (d, -u):
                        d, u = dd, uu
                    c[k] += 1
        else:
            d, u, _ = self._accept(ctx, ctx.counts, ctx.wilds, slots, ctx.targets)
        unseen = max(1, sum(ctx.live) + ctx.live_wilds)
        draws = max(0, ctx.wall // 4)
        q = min(0.9, u / unseen)
        p_me = binom_at_least(draws, q * (0.75 if d > 1 else 1.0), max(d, 1))
        v_me = 2 ** self._value(ctx, ctx.counts, ctx.wilds, slots, ctx.my_melds, d)
        pairs = ctx.view.get("santan_pairs") or []
        pair_melds = max((len(ctx.players[s].get("melds") or []) for p in pairs for s in p),
                         default=3)
        p_pair = min(0.7, 0.1 + 0.1 * pair_melds) * min(1.0, ctx.wall / 40 + 0.2)
        v_opp = 6.0
        gain = p_me * 5.0 * v_me
        cost = p_pair * 2.0 * v_opp + 0.08 * v_opp
        return cont if gain > cost else quit_
