"""Jiaxing 台头和 (硬自摸两台起和): the hooks that make the core engine play RULES.md part A."""

from __future__ import annotations

from ..hand import Meld
from ..rules.options import JiaxingOptions
from ..rulesets import Jiaxing
from ..scoring.jiaxing_items import HandStart, carry_tokens
from ..scoring.request import ScoreRequest
from .round import Round


class JiaxingRound(Round):
    """A Jiaxing hand: 三摊, the 黄番 carry tokens, 天和/地和 (the facts: ``rulesets.Jiaxing``)."""

    plays = Jiaxing
    options: JiaxingOptions

    def _start_tokens(self) -> None:
        if not self.options.carry_fans_enabled:
            self.carry_pool = self.carry_pool_before
            return
        start = HandStart(self.indicator, self.dice, self.previous_wild)
        tokens = carry_tokens(start)
        self.carry_tokens = [t.name for t in tokens]
        self.carry_pool = self.carry_pool_before + sum(t.value for t in tokens)

    def _on_claim(self, claimer: int, discarder: int, meld: Meld) -> list[int]:
        self.claim_counts[claimer][discarder] += 1
        opts = self.options
        if not opts.santan_enabled:
            return []
        if self.claim_counts[claimer][discarder] < opts.santan_threshold:
            return []
        pair = (min(claimer, discarder), max(claimer, discarder))
        if pair in self.santan_pairs:
            return []
        self.santan_pairs.append(pair)
        in_pairs = {s for p in self.santan_pairs for s in p}
        asks = [s for s in range(4) if s not in in_pairs and s not in self.gave_up]
        self._emit("santan", None, pair=[claimer, discarder], asks=asks)
        return asks

    def _request_extras(
        self, req: ScoreRequest, seat: int, win_by: str, from_seat: int | None
    ) -> None:
        req.round_wind = self.round_wind
        req.carry_pool = self.carry_pool if self.options.carry_fans_enabled else 0
        w = self._wind_index
        req.santan = [(w(a), w(b)) for a, b in self.santan_pairs]
        req.gave_up = sorted(w(s) for s in self.gave_up)
        self_draw = win_by == "self_draw"
        req.last_tile = self_draw and not self._can_draw()
        no_melds = not self.melds[seat]
        req.heavenly = self_draw and seat == self.dealer and self.discard_count == 0 and no_melds
        if self.options.dihu_mode == "first_draw":
            req.earthly = (
                self_draw
                and seat != self.dealer
                and not self.has_discarded[seat]
                and no_melds
                and self.draw_source[seat] == "wall"
            )
        else:
            req.earthly = (
                win_by == "discard" and from_seat == self.dealer and self.discard_count == 1
            )

    def _draw_outcome(self) -> tuple[int | None, list[str]]:
        opts = self.options
        if not opts.carry_fans_enabled:
            return (self.carry_pool_before, [])
        pool = self.carry_pool if opts.carry_tokens_on_draw else self.carry_pool_before
        return (pool + 1, ["黄番"])

    def _no_discard_win_reason(self) -> str:
        return "硬自摸: no win on a discard"
