"""Earlier rules of the project's bots, kept so that a change can be measured against them in
the arena (``--bots expert,bench.variants:EarlierWenlingExpert``)."""

from __future__ import annotations

from baida.bots.expert import ExpertBot


class EarlierWenlingExpert(ExpertBot):
    """``expert`` before 2026-12-02: in Wenling a discard one step slower was weighed whenever
    an opponent might be ready or the 生牌阶段 was on (``wenling_liable_slack = False``)."""

    name = "expert-earlier-wenling"
    wenling_liable_slack = False
