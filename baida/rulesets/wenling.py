"""Wenling 温岭麻将, RULES.md part B: the facts of the ruleset."""

from __future__ import annotations

from typing import Any

from ..rules.options import WenlingOptions
from ..rules.wenling_tiles import wenling_wilds_and_specials
from ..scoring.request import ScoreRequest
from .base import Ruleset


class Wenling(Ruleset):
    """144 tiles with the flowers, 16 dealt, five sets and a pair, three 得 and the specials;
    wins on a discard; 腊子; 包三家 for a 生牌 in the 生牌阶段; non-winners settle too."""

    name = "wenling"
    title = "Wenling"
    options_class = WenlingOptions
    option_prefix = "wl."

    flowers = True
    sets = 5
    wild_name = "得"

    round_wind = False
    carry_pool = False
    discard_wins = True
    claims_by_option = False
    last_discard_wins = True
    lazi = True
    wild_discard_forfeits = True

    santan = False
    baosanjia = True

    unit = "he"
    base_scales = False
    request_fields = ("others", "liable", "discarded_wild", "after_special")
    nonwinner_size = 16

    pattern_needed = False
    patterns = frozenset({"qingyise", "hunyise", "duiduihe"})
    least_win = 3.0  # T = 30: each payer pays T/10

    def choose_wilds(self, indicator: int, options: Any) -> tuple[frozenset, frozenset]:
        return wenling_wilds_and_specials(indicator, options.flower_flip_specials)

    def draw_floor(self, options: Any) -> int:
        # 黄牌: no draw of any kind once 8 pairs (16, or 17 with an odd tile) are left
        return 2 * options.huangpai_pairs + 1

    # The scorer's modules load when first asked for (a command that never scores stays quick).

    def score(self, req: ScoreRequest) -> dict[str, Any]:
        from ..scoring.wenling import score_wenling

        return score_wenling(req)

    def fill_request(self, req: ScoreRequest, obj: dict[str, Any]) -> None:
        from ..scoring.wenling_validate import fill_wenling_request

        fill_wenling_request(req, obj)

    def check_request(self, req: ScoreRequest) -> None:
        from ..scoring.wenling_validate import check_wenling_request

        check_wenling_request(req)

    def catalogue(self, options: Any) -> list[dict[str, Any]]:
        from ..scoring.catalogue import wenling_catalogue

        return wenling_catalogue(options)

    def awardable(self) -> dict[str, tuple[str, ...]]:
        from ..scoring.catalogue import wenling_awardable

        return wenling_awardable()

    def catalogue_entries(self) -> dict[str, dict[str, Any]]:
        from ..scoring.catalogue import wenling_entries

        return wenling_entries()
