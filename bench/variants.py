"""Earlier rules of the project's bots, and candidates that were measured and not kept, so that
a change can be measured against them in the arena
(``--bots expert,bench.variants:EarlierWenlingExpert``) or with ``bench.branch_eval``
(``--kind any:bench.variants:ScaledJiaxingExpert``)."""

from __future__ import annotations

from baida.bots.expert import ExpertBot


class EarlierWenlingExpert(ExpertBot):
    """``expert`` before 2026-12-02: in Wenling a discard one step slower was weighed whenever
    an opponent might be ready or the 生牌阶段 was on (``wenling_liable_slack = False``)."""

    name = "expert-earlier-wenling"
    wenling_liable_slack = False


class ScaledJiaxingExpert(ExpertBot):
    """A candidate measured on 2026-12-02 and not kept: in Jiaxing the own hand's estimate
    scaled by 3 instead of 1.7, so that feeding an opponent weighs less against it
    (BENCHMARKS.md)."""

    name = "expert-scale-3"
    jiaxing_own_scale = 3.0
