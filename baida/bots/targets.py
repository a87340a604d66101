"""Which finishing shapes a hand may still aim for, and what each is worth.

Jiaxing 台头和 wins only with a pattern (清一色/混一色/全老头/对对和, RULES.md §A3), so its
targets are the patterns still open given the exposed melds; a target's value is the number
of 台 it brings times 2^番 for the fans already certain. Wenling wins with any shape, but its
patterns are fans that multiply the hand (§B4.2), so the same targets compete on value there
too, next to the plain ``any`` shape.

Values are estimates for choosing between plans, in the unit each player would pay the
winner (a Jiaxing share ``s``; a Wenling ``T/10``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..hand import Meld
from ..rulesets import Ruleset, as_ruleset
from .efficiency import Target

DRAGONS = (31, 32, 33)

JIAXING_PATTERN_TAI = {"qingyise": 4, "hunyise": 2, "duiduihe": 2, "quanlaotou": 10}
WENLING_PATTERN_FAN = {"qingyise": 4, "hunyise": 2, "duiduihe": 2}


@dataclass(frozen=True, slots=True)
class MeldSummary:
    """What the exposed melds allow: the suits they use, honours, sequences."""

    suits: frozenset[int]
    honours: bool
    chi: bool

    @classmethod
    def of(cls, melds: Sequence[Meld]) -> MeldSummary:
        suits = frozenset(m.tile // 9 for m in melds if m.tile < 27)
        honours = any(m.tile >= 27 for m in melds)
        chi = any(m.kind == "chi" for m in melds)
        return cls(suits, honours, chi)


def open_targets(
    melds: Sequence[Meld], ruleset: str | Ruleset, require_pattern: bool = True
) -> list[Target]:
    """Targets the exposed melds have not broken: the ruleset's patterns (``patterns``), and
    the plain shape where any shape wins (or the table's ``require_pattern`` is off)."""
    rules = as_ruleset(ruleset)
    patterns = rules.patterns
    ms = MeldSummary.of(melds)
    out: list[Target] = []
    if not rules.pattern_needed or not require_pattern:
        out.append(Target("any"))
    for suit in range(3):
        if ms.suits <= {suit}:
            if not ms.honours and "qingyise" in patterns:
                out.append(Target("qingyise", suit))
                if not ms.chi:
                    out.append(Target("qingyise", suit, triplets=True))
            if "hunyise" in patterns:
                out.append(Target("hunyise", suit))
                if not ms.chi:
                    out.append(Target("hunyise", suit, triplets=True))
    if not ms.chi:
        if "duiduihe" in patterns:
            out.append(Target("duiduihe"))
        if "quanlaotou" in patterns and not ms.suits:
            out.append(Target("quanlaotou"))
    return out


def jiaxing_tai(target: Target, qlt_stacks_with_ddh: bool = True) -> int:
    """The pattern 台 a Jiaxing target scores when it completes."""
    if target.kind == "any":
        return 0
    tai = JIAXING_PATTERN_TAI[target.kind]
    if target.kind == "quanlaotou" and qlt_stacks_with_ddh:
        tai += JIAXING_PATTERN_TAI["duiduihe"]
    elif target.triplets and target.kind != "duiduihe":
        tai += JIAXING_PATTERN_TAI["duiduihe"]
    return tai


def _honour_sets(counts: Sequence[int], melds: Sequence[Meld], wilds: int) -> dict[int, float]:
    """Per honour kind, how likely it ends as a triplet: 1 held/melded, 0.5 for a pair."""
    out: dict[int, float] = {}
    for m in melds:
        if m.kind != "chi" and m.tile >= 27:
            out[m.tile] = 1.0
    for k in range(27, 34):
        if counts[k] >= 3:
            out[k] = 1.0
        elif counts[k] == 2:
            out.setdefault(k, 0.6 if wilds else 0.4)
    return out


@dataclass(frozen=True, slots=True)
class JiaxingContext:
    """The seat facts that move a Jiaxing hand's value."""

    seat_wind: int
    round_wind: int
    carry_fans: int = 0
    qlt_stacks_with_ddh: bool = True


def jiaxing_value(
    target: Target, counts: Sequence[int], wilds: int, melds: Sequence[Meld], ctx: JiaxingContext
) -> float:
    """Expected share ``s`` = tai × 2^fan if the hand finishes as ``target``."""
    tai = float(jiaxing_tai(target, ctx.qlt_stacks_with_ddh))
    if target.kind != "qingyise":
        for kind, weight in _honour_sets(counts, melds, wilds).items():
            valued = (kind in DRAGONS) + (kind == ctx.seat_wind) + (kind == ctx.round_wind)
            tai += weight * valued
    if wilds == 0:
        tai += 0.5  # 无百搭 is possible but the next 百搭 drawn is worth keeping
    fan = min(ctx.carry_fans, 1) + (1 if wilds >= 3 else 0)
    return tai * (2**fan)


@dataclass(frozen=True, slots=True)
class WenlingContext:
    """The seat facts that move a Wenling hand's value."""

    seat_wind: int
    specials: frozenset[int]  # kinds that are exposed specials this hand (P, or C and F)
    exposed_specials: int = 0
    seat_flowers: int = 0


_MELD_POINTS = {"pon": (4, 2), "mkong": (16, 8), "bukong": (16, 8), "akong": (32, 16)}


def _heavy(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


def wenling_total(base: float, fan: float) -> float:
    """(base + 20) × 2^fan rounded up to 10 and capped at 500 (RULES.md §B4)."""
    raw = (base + 20) * (2**fan)
    rounded = -(-raw // 10) * 10
    return min(rounded, 500.0)


def wenling_value(
    target: Target, counts: Sequence[int], wilds: int, melds: Sequence[Meld], ctx: WenlingContext
) -> float:
    """Expected T/10 (what each loser pays) if the hand wins as ``target``."""
    base = 4.0 * ctx.exposed_specials + 4.0  # wait/自摸 items average a few points
    fan = float(ctx.exposed_specials + ctx.seat_flowers)
    for m in melds:
        if m.kind == "chi":
            continue
        heavy, light = _MELD_POINTS[m.kind]
        base += heavy if _heavy(m.tile) else light
        if m.tile == ctx.seat_wind or (m.tile in DRAGONS and m.tile not in ctx.specials):
            fan += 1
    for k in range(34):
        if counts[k] >= 3:
            base += 8 if _heavy(k) else 4
            if k == ctx.seat_wind or (k in DRAGONS and k not in ctx.specials):
                fan += 1
        elif counts[k] == 2 and (k == ctx.seat_wind or k in DRAGONS):
            base += 1
    if target.kind in WENLING_PATTERN_FAN:
        fan += WENLING_PATTERN_FAN[target.kind]
    if target.triplets and target.kind != "duiduihe":
        fan += WENLING_PATTERN_FAN["duiduihe"]
    if wilds == 0:
        fan += 0.5
    elif wilds == 2:
        fan += 1
    return wenling_total(base, fan) / 10


def wenling_nonwinner_total(
    counts: Sequence[int], melds: Sequence[Meld], ctx: WenlingContext
) -> float:
    """The T a hand would score as a non-winner (RULES.md §B4.3, defaults): exposed melds,
    natural concealed triplets, natural seat-wind or dragon pairs and exposed specials; fan for
    the specials and for natural seat-wind and dragon triplets. 得 do not count."""
    base = 4.0 * ctx.exposed_specials
    fan = float(ctx.exposed_specials)
    valued = {ctx.seat_wind} | {d for d in DRAGONS if d not in ctx.specials}
    for m in melds:
        if m.kind == "chi":
            continue
        heavy, light = _MELD_POINTS[m.kind]
        base += heavy if _heavy(m.tile) else light
        fan += m.tile in valued
    for k in range(34):
        c = counts[k]
        if c >= 3:
            base += 8 if _heavy(k) else 4
            fan += k in valued
        elif c == 2 and k in valued:
            base += 2
    return wenling_total(base, fan)
