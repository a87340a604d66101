"""Wenling 温岭麻将: the hooks that make the core engine play RULES.md part B."""

from __future__ import annotations

from typing import Any

from ..evaluator import held_copies, waits
from ..hand import Hand, Meld
from ..rules.options import WenlingOptions
from ..rulesets import Wenling
from ..scoring.request import ScoreRequest
from ..scoring.wenling import payment_transfers
from ..tiles import DRAGONS, FLOWER_GROUP_A, FLOWER_GROUP_B, NUM_KINDS, seat_wind_kind, tile_str
from . import actions as A
from . import settle
from .actions import Action
from .round import Round

SHENG_PAIRS = 15  # 生牌阶段: at most 15 pairs (30 tiles, 31 with an odd one) left


class WenlingRound(Round):
    """A Wenling hand: specials exposed and replaced, the 碰-pass rule, 生牌 and 包三家, a
    discarded 得, 腊子 (the facts: ``rulesets.Wenling``)."""

    plays = Wenling
    options: WenlingOptions

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        self.pon_block: list[set[int]] = [set() for _ in range(4)]
        self.discarded_wild = [False] * 4
        self.discarded_kinds: set[int] = set()
        self.sheng_discard: tuple[int, bool] | None = None  # (discarder, liable if won on)
        super().__init__(*args, **kwargs)

    def _rebuild_derived(self) -> None:
        self.pon_block = [set() for _ in range(4)]
        wilds = self.wild_kinds
        self.discarded_wild = [any(t in wilds for t in pile) for pile in self.discards]
        self.discarded_kinds = {t for pile in self.discards for t in pile if t not in wilds}
        if self.options.sheng_chow_rule == "all_three":
            for melds in self.melds:
                for meld in melds:
                    if meld.kind == "chi":
                        self.discarded_kinds.update(meld.tiles)
        self.sheng_discard = None

    # -------------------------------------------------------------- tiles and draws

    def _after_deal(self) -> None:
        for i in range(4):
            seat = (self.dealer + i) % 4
            for kind in sorted(self.special_kinds):
                while self.cnt[seat][kind] and self._can_draw():
                    self._expose(seat, kind)
                    self._draw(seat, "special")
            if seat != self.dealer:
                self.drawn[seat] = None
                self.draw_source[seat] = None

    def _expose(self, seat: int, kind: int) -> None:
        self._remove(seat, kind)
        self.flowers[seat].append(kind)
        self._emit("flower", seat, tile=tile_str(kind))

    def _after_draw(self, seat: int, tile: int) -> None:
        self.pon_block[seat].clear()
        if tile in self.special_kinds and self._can_draw():
            self._expose(seat, tile)
            self._draw(seat, "special")
            return
        if not self.sheng_phase and self.remaining <= 2 * SHENG_PAIRS + 1:
            self.sheng_phase = True
            self._emit("sheng_phase", None, remaining=self.remaining)

    # -------------------------------------------------------------- claims

    def _may_pon(self, seat: int, tile: int) -> bool:
        return tile not in self.pon_block[seat]

    def _on_answer(self, seat: int, action: Action, options: list[Action]) -> None:
        # 碰-pass restriction: declining a possible 碰 bars 碰 of that kind until one draws.
        if action.type in (A.PON, A.MKONG, A.WIN):
            return
        if any(o.type == A.PON for o in options) and self.window_tile is not None:
            self.pon_block[seat].add(self.window_tile)

    def _on_discard(self, seat: int, tile: int) -> None:
        if tile in self.wild_kinds:
            self.discarded_wild[seat] = True
            self.sheng_discard = None
            return
        fresh = tile not in self.discarded_kinds
        liable = False
        if self.sheng_phase and fresh:
            liable = not self._exempt(seat, tile)
        self.sheng_discard = (seat, liable)
        self.discarded_kinds.add(tile)

    def _exempt(self, seat: int, tile: int) -> bool:
        """包三家 exemption: the hand before the discard was all 生牌 and is not ready after it."""
        if not self.options.baosanjia_exemption:
            return False
        counts = self.cnt[seat]
        for kind in range(NUM_KINDS):
            if counts[kind] and kind in self.discarded_kinds and kind not in self.special_kinds:
                return False
        # ready: a wait it can still draw (not one whose four copies it holds, nor the 得's
        # or a special's face, which never come as natural tiles)
        held = held_copies(
            counts[:NUM_KINDS],
            (meld.tiles for meld in self.melds[seat]),
            self.wild_kinds | self.special_kinds,
        )
        return not waits(counts[:NUM_KINDS], len(self.wild[seat]), held)

    def _on_claim(self, claimer: int, discarder: int, meld: Meld) -> list[int]:
        self.claim_counts[claimer][discarder] += 1
        if meld.kind == "chi" and self.options.sheng_chow_rule == "all_three":
            self.discarded_kinds.update(meld.tiles)
        return []

    # -------------------------------------------------------------- wins

    def _win_blocked(self, seat: int) -> bool:
        if self.discarded_wild[seat]:
            return True
        counts = self.cnt[seat]
        return any(counts[k] for k in self.special_kinds)

    def _blocked_reason(self, seat: int) -> str:
        if self.discarded_wild[seat]:
            return "you discarded a 得: you cannot win in this hand"
        return "a special tile in your hand is not exposed: no win"

    def _no_lazi_reason(self, seat: int) -> str:
        if self._win_blocked(seat):
            return self._blocked_reason(seat)
        return "your hand holds no 腊子"

    def _extra_turn_actions(self, seat: int) -> list[Action]:
        if self._win_blocked(seat) or not self._lazi_shape(seat):
            return []
        if self._score(seat, "lazi", None, None)["legal"]:
            return [Action(A.LAZI, seat)]
        return []

    def _lazi_shape(self, seat: int) -> bool:
        """A quick test for the 腊子 hands (the scorer has the last word)."""
        if len(self.wild[seat]) >= 3:
            return True
        flowers = self.flowers[seat]
        for group in (FLOWER_GROUP_A, FLOWER_GROUP_B):
            if all(k in flowers for k in group):
                return True
        for kind in self.special_kinds:
            if kind < NUM_KINDS and flowers.count(kind) == 4:
                return True
        own = seat_wind_kind(self._wind_index(seat))
        for meld in self.melds[seat]:
            if meld.kind != "akong":
                continue
            kind = meld.tiles[0]
            if kind == own or (kind in DRAGONS and kind not in self.special_kinds):
                return True
        return False

    def _request_extras(
        self, req: ScoreRequest, seat: int, win_by: str, from_seat: int | None
    ) -> None:
        req.after_special = win_by == "self_draw" and self.draw_source[seat] == "special"
        req.discarded_wild = self.discarded_wild[seat]
        others: dict[int, Hand] = {}
        for s in range(4):
            if s != seat:
                others[self._wind_index(s)] = self._scorer_hand(s, None)
        req.others = others
        liable = self._liable_for(seat, win_by, from_seat)
        req.liable = None if liable is None else self._wind_index(liable)

    def _transfers(
        self, seat: int, win_by: str, tile: int | None, from_seat: int | None,
        verdict: dict[str, Any],
    ) -> list[dict[str, Any]]:
        req = settle.score_request(self, seat, win_by, tile, from_seat)
        return [
            {
                "payer": (self.dealer + t.payer) % 4,
                "payee": (self.dealer + t.payee) % 4,
                "amount": t.amount,
                "kind": t.kind,
                "high": t.high,
                "low": t.low,
                "behalf": None if t.behalf is None else (self.dealer + t.behalf) % 4,
            }
            for t in payment_transfers(req, verdict)
        ]

    def _liable_for(self, winner: int, win_by: str, from_seat: int | None) -> int | None:
        if win_by != "discard" or self.sheng_discard is None:
            return None
        discarder, liable = self.sheng_discard
        return discarder if liable and discarder == from_seat else None
