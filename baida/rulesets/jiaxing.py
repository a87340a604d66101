"""Jiaxing 台头和 (硬自摸两台起和), RULES.md part A: the facts of the ruleset."""

from __future__ import annotations

from typing import Any

from ..rules.options import JiaxingOptions
from ..scoring.request import ScoreRequest
from .base import Ruleset


class Jiaxing(Ruleset):
    """136 tiles, 13 dealt, four sets and a pair, three 百搭; a win needs a pattern and two 台,
    self-drawn (a win on a discard is an option); 三摊 makes 承包方; 风圈 and 黄番 carry over."""

    name = "jiaxing"
    title = "Jiaxing"
    options_class = JiaxingOptions
    option_prefix = "jx."

    flowers = False
    sets = 4
    wild_name = "百搭"

    round_wind = True
    carry_pool = True
    discard_wins = False
    claims_by_option = True
    last_discard_wins = False
    lazi = False
    wild_discard_forfeits = False

    santan = True
    baosanjia = False

    unit = "tai"
    base_scales = True
    request_fields = ("base", "round_wind", "carry_pool", "santan", "gave_up", "last_tile",
                      "heavenly", "earthly")
    nonwinner_size = None

    pattern_needed = True
    patterns = frozenset({"qingyise", "hunyise", "duiduihe", "quanlaotou"})
    least_win = 2.0  # 两台起和: two 台 from each payer

    def choose_wilds(self, indicator: int, options: Any) -> tuple[frozenset, frozenset]:
        # The indicator stays out of play; its kind's three other copies are the 百搭.
        return frozenset({indicator}), frozenset()

    def draw_floor(self, options: Any) -> int:
        return options.wall_reserve

    def allows_chi(self, options: Any) -> bool:
        return options.allow_chi

    def allows_discard_win(self, options: Any) -> bool:
        return options.allow_discard_win

    def default_rounds(self, options: Any) -> int:
        return options.rounds

    def dealer_passes_on_draw(self, options: Any) -> bool:
        return not options.dealer_keeps_on_draw

    # The scorer's modules load when first asked for (a command that never scores stays quick).

    def score(self, req: ScoreRequest) -> dict[str, Any]:
        from ..scoring.jiaxing import score_jiaxing

        return score_jiaxing(req)

    def fill_request(self, req: ScoreRequest, obj: dict[str, Any]) -> None:
        from ..scoring.jiaxing_request import fill_jiaxing_request

        fill_jiaxing_request(req, obj)

    def check_request(self, req: ScoreRequest) -> None:
        from ..scoring.jiaxing_request import check_jiaxing_request

        check_jiaxing_request(req)

    def catalogue(self, options: Any) -> list[dict[str, Any]]:
        from ..scoring.catalogue import jiaxing_catalogue

        return jiaxing_catalogue(options)

    def awardable(self) -> dict[str, tuple[str, ...]]:
        from ..scoring.catalogue import jiaxing_awardable

        return jiaxing_awardable()

    def catalogue_entries(self) -> dict[str, dict[str, Any]]:
        from ..scoring.catalogue import jiaxing_entries

        return jiaxing_entries()
