"""Scoring of a Jiaxing 台头和 win (RULES.md part A): legality, the best reading, settlement.

``score_jiaxing`` answers with the output object of ``SCORING_API.md``. Among all readings
(wild faces × splits) it keeps the one paying the winner most; the payers' multipliers do not
depend on the reading, so that is the reading with the highest ``tai × 2^fan``.
"""

from __future__ import annotations

from typing import Any

from ..rules.options import JiaxingOptions
from ..tiles import EAST, NUM_KINDS, RED, SEAT_WINDS, WILD, tile_str
from .jiaxing_fast import Recipe, best_shapes, recipe_faces
from .jiaxing_items import (
    FAN_ITEMS,
    PAIR_WITH_WILD,
    TAI_ITEMS,
    Context,
    Item,
    Shape,
    is_pattern,
    triplet_unit,
)
from .jiaxing_pairs import pair_wait_shapes, robbed_shapes
from .jiaxing_settle import payments, share_multipliers
from .jiaxing_shapes import MeldSummary, summarise_melds
from .request import ScoreRequest

PATTERN_REASON = "台头和 needs one of 清一色/混一色/全老头/对对和"
MIN_TAI = 2


class _Setup:
    """Per-request facts the search needs, computed once."""

    __slots__ = ("opts", "req", "melds", "_naturals", "face_limit", "wild_kind", "ctx",
                 "ctx_id", "honour_values")

    def __init__(self, req: ScoreRequest, opts: JiaxingOptions, ctx: Context) -> None:
        self.opts = opts
        self.req = req
        self.ctx = ctx
        self.ctx_id = _context_id(ctx)
        self.wild_kind = req.indicator
        self.melds: MeldSummary = summarise_melds([(m.kind, m.tiles[0]) for m in req.hand.melds])
        self._naturals: list[int] | None = None
        self.face_limit = (
            None if opts.wild_fifth_copy else [max(0, 4 - n) for n in self.naturals()]
        )
        # what one more triplet of each honour adds (each triplet scores its items, J-A18)
        self.honour_values = [
            (kind >= RED) + (kind == ctx.seat_wind) + (kind == ctx.round_wind)
            for kind in range(EAST, EAST + 7)
        ]

    def naturals(self) -> list[int]:
        """Natural tiles of each kind in the hand, melds and the robbed 碰 included."""
        if self._naturals is None:
            req = self.req
            naturals = [0] * NUM_KINDS
            for kind in req.hand.concealed:
                if kind < NUM_KINDS:
                    naturals[kind] += 1
            for meld in req.hand.melds:
                for kind in meld.tiles:
                    naturals[kind] += 1
            if req.win_tile is not None and req.win_tile < NUM_KINDS:
                naturals[req.win_tile] += 4 if req.win_by == "rob_kong" else 1
            self._naturals = naturals
        return self._naturals


Counted = list[tuple[Item, int]]  # the items that hold, each with how many times
_TAI_CACHE: dict[tuple[Shape, int], tuple[bool, Counted, int]] = {}
_CONTEXT_IDS: dict[Context, int] = {}
_CACHE_SIZE = 100_000


def _context_id(ctx: Context) -> int:
    """A small number per distinct context, so cache keys hash cheaply."""
    found = _CONTEXT_IDS.get(ctx)
    if found is None:
        if len(_CONTEXT_IDS) >= _CACHE_SIZE:
            _CONTEXT_IDS.clear()
            _TAI_CACHE.clear()
        found = _CONTEXT_IDS[ctx] = len(_CONTEXT_IDS)
    return found


def _counted(items: tuple[Item, ...], shape: Shape, ctx: Context) -> Counted:
    """The items that hold for this reading, with how many times each."""
    out = []
    for item in items:
        times = item.count(shape, ctx)
        if times:
            out.append((item, int(times)))
    return out


def _legal_shape(shape: Shape, ctx: Context, ctx_id: int) -> tuple[bool, Counted, int]:
    """Whether the reading may win, its tai items and their total (cached)."""
    key = (shape, ctx_id)
    found = _TAI_CACHE.get(key)
    if found is not None:
        return found
    tai = _counted(TAI_ITEMS, shape, ctx)
    total = sum(item.value * times for item, times in tai)
    legal = is_pattern(shape) if ctx.options.require_pattern else total >= MIN_TAI
    if len(_TAI_CACHE) >= _CACHE_SIZE:
        _TAI_CACHE.clear()
    _TAI_CACHE[key] = result = (legal, tai, total)
    return result


def _candidates(
    setup: _Setup,
    counts: list[int],
    wilds: int,
    win_tile: int | None,
    pair_bits: bool,
    robbed: bool = False,
) -> dict[Shape, Recipe]:
    """The distinct scoring shapes of the concealed part, each with its wilds' faces."""
    room = None if setup.face_limit is None else bytes(min(3, n) for n in setup.face_limit)
    found = _search(setup, counts, wilds, win_tile, pair_bits, robbed, setup.honour_values, room)
    if setup.opts.wild_as_self_is_natural and wilds:
        _add_wilds_as_self(found, setup, counts, wilds, win_tile, pair_bits, robbed)
    return found


def _search(
    setup: _Setup,
    counts: list[int],
    wilds: int,
    win_tile: int | None,
    pair_bits: bool,
    robbed: bool,
    values: list[int],
    room: bytes | None = None,
) -> dict[Shape, Recipe]:
    """The search by parts, with the pair's features when ``pair_bits``."""
    scores = setup.opts.wild_honor_triplet_tai
    melds = setup.melds
    if not pair_bits:
        return best_shapes(counts, wilds, melds, values, scores, room=room)
    assert win_tile is not None
    if robbed:
        return robbed_shapes(counts, wilds, melds, values, scores, win_tile, room)
    return pair_wait_shapes(counts, wilds, melds, values, scores, win_tile, room)


def _add_wilds_as_self(
    found: dict[Shape, Recipe],
    setup: _Setup,
    counts: list[int],
    wilds: int,
    win_tile: int | None,
    pair_bits: bool,
    robbed: bool,
) -> None:
    """Add the readings where every wild is its own face (J-A5 b: then they count as natural).

    Those are the readings of the hand with the wilds turned into tiles of the wild kind; a
    triplet of that kind is all wilds, so it scores only if wild triplets score (J-A8).
    """
    kind = setup.wild_kind
    as_counts = list(counts)
    as_counts[kind] += wilds
    values = list(setup.honour_values)
    clear = 0
    if kind >= EAST and not setup.opts.wild_honor_triplet_tai:
        values[kind - EAST] = 0
        clear = 3 * triplet_unit(kind)  # its one triplet, all wilds
    win = kind if win_tile == WILD else win_tile
    faces = (kind,) * wilds
    for shape, recipe in _search(setup, as_counts, 0, win, pair_bits, robbed, values).items():
        key = shape._replace(wilds_as_self=True, triplets=shape.triplets & ~clear)
        if key not in found:
            found[key] = Recipe((recipe[0], recipe[1], recipe[2], recipe[3] + faces))


def _wins_on_any_tile(setup: _Setup, counts: list[int], wilds: int) -> bool:
    """Whether the 13-tile hand wins whatever tile it gets (seed 004's 抢杠 ban)."""
    from ..evaluator import is_complete

    for kind in range(NUM_KINDS):
        counts[kind] += 1
        complete = is_complete(counts, wilds)
        counts[kind] -= 1
        if not complete:
            return False
    # try first the tiles most likely to break the pattern: suits the hand does not hold
    present = setup.melds.suits
    for suit in range(3):
        if any(counts[9 * suit : 9 * suit + 9]):
            present |= 1 << suit
    order = sorted(range(NUM_KINDS), key=lambda k: k < 27 and bool(present & (1 << (k // 9))))
    saved = setup.face_limit
    setup.face_limit = None  # a hypothetical tile: no copy accounting
    try:
        for kind in order:
            counts[kind] += 1
            found = _candidates(setup, counts, wilds, None, False)
            counts[kind] -= 1
            if not any(_legal_shape(shape, setup.ctx, setup.ctx_id)[0] for shape in found):
                return False
    finally:
        setup.face_limit = saved
    return True


def _items_json(items: Counted) -> list[dict[str, Any]]:
    """One entry per item, its value times how often it holds (two 门风 triplets: 门风 2)."""
    return [{"name": item.name, "value": item.value * times} for item, times in items]


def _result(req: ScoreRequest, legal: bool, reason: str | None) -> dict[str, Any]:
    return {
        "legal": legal,
        "reason": reason,
        "tai": [],
        "fan": [],
        "base_items": None,
        "tai_total": 0,
        "fan_total": 0,
        "base_points": None,
        "raw": None,
        "points": 0,
        "totals": None,
        "payments": {seat: 0 for seat in SEAT_WINDS},
        "carry_pool_after": req.carry_pool,
        "wilds": [],
    }


def _illegal(req: ScoreRequest, reason: str) -> dict[str, Any]:
    return _result(req, False, reason)


def _rule_reason(req: ScoreRequest, opts: JiaxingOptions) -> str | None:
    """Why the win may not be declared, before looking at the tiles' shape."""
    if req.winner in req.gave_up and not opts.gaveup_can_win:
        return f"{SEAT_WINDS[req.winner]} gave up (放弃) after the 三摊 and cannot win this hand"
    if not opts.allow_chi and any(m.kind == "chi" for m in req.hand.melds):
        return "吃 is not allowed at this table, but the hand has a 吃 meld"
    if req.win_by == "discard":
        if not opts.allow_discard_win:
            return "硬自摸: no win on a discard"
        if req.win_tile == WILD:
            return "a discarded 百搭 is dead: nobody may win on it"
        if req.last_tile:
            return "the last discard of the hand cannot be claimed"
    return None


def _context(req: ScoreRequest, opts: JiaxingOptions, wilds: int, carry_fan: bool) -> Context:
    return Context(
        options=opts,
        seat_wind=EAST + req.winner,
        round_wind=EAST + req.round_wind,
        wilds=wilds,
        single_wait=len(req.hand.concealed) == 1 and len(req.hand.melds) == 4,
        after_kong=req.after_kong,
        last_tile=req.last_tile,
        heavenly=req.heavenly,
        earthly=req.earthly and (opts.dihu_mode == "first_draw" or req.win_by == "discard"),
        self_draw=req.win_by == "self_draw",
        carry_fan=carry_fan,
    )


def _split_concealed(req: ScoreRequest) -> tuple[list[int], int]:
    """The concealed part with the win tile: natural counts and the number of wilds."""
    counts = [0] * NUM_KINDS
    concealed = req.hand.concealed
    wilds = concealed.count(WILD)
    for kind in concealed:
        if kind != WILD:
            counts[kind] += 1
    win = req.win_tile
    if win is not None:
        if win == WILD:
            wilds += 1
        else:
            counts[win] += 1
    return counts, wilds


def score_jiaxing(req: ScoreRequest) -> dict[str, Any]:
    """Settle one Jiaxing win; see ``SCORING_API.md`` for the object returned."""
    opts = req.options
    assert isinstance(opts, JiaxingOptions)
    reason = _rule_reason(req, opts)
    if reason:
        return _illegal(req, reason)
    counts, wilds = _split_concealed(req)
    tian_di = req.heavenly or req.earthly
    carry_fan = (
        req.carry_pool > 0 and opts.carry_fans_enabled and (opts.carry_on_tian_di or not tian_di)
    )
    ctx = _context(req, opts, wilds, carry_fan)
    setup = _Setup(req, opts, ctx)
    rob = req.win_by == "rob_kong"
    pair_bits = opts.dandiao_mode == "pair_wait" or rob
    found = _candidates(setup, counts, wilds, req.win_tile, pair_bits, rob)
    if not found:
        return _illegal(req, _shape_reason(counts, wilds, setup))
    best: tuple[int, Counted, Counted, Recipe] | None = None
    legal_shapes: list[Shape] = []
    best_tai_short = 0
    # fan items look at a reading only through Shape.pair (单吊 as a pair wait)
    fans_by_pair: dict[int, tuple[Counted, int]] = {}
    for shape, faces in found.items():
        legal, tai, tai_total = _legal_shape(shape, ctx, setup.ctx_id)
        if not legal:
            best_tai_short = max(best_tai_short, tai_total)
            continue
        legal_shapes.append(shape)
        fan_entry = fans_by_pair.get(shape.pair)
        if fan_entry is None:
            fans = _counted(FAN_ITEMS, shape, ctx)
            fan_entry = fans_by_pair[shape.pair] = (fans, sum(i.value * n for i, n in fans))
        value = tai_total << fan_entry[1]
        if best is None or value > best[0]:
            best = (value, tai, fan_entry[0], faces)
    if best is None:
        if opts.require_pattern:
            return _illegal(req, PATTERN_REASON)
        return _illegal(req, f"两台起和: the hand makes only {best_tai_short} 台, 2 are needed")
    if rob:
        reason = _rob_refusal(req, setup, legal_shapes)
        if reason:
            return _illegal(req, reason)
    _, tai, fans, faces = best
    tai_total = sum(item.value * times for item, times in tai)
    fan_total = sum(item.value * times for item, times in fans)
    share = req.base * tai_total * (1 << fan_total)
    multipliers = share_multipliers(
        req.winner, req.win_by, req.from_seat, req.santan, req.gave_up, opts
    )
    paid = payments(req.winner, share, multipliers, opts.winner_bonus_points)
    out = _result(req, True, None)
    out.update(
        tai=_items_json(tai),
        fan=_items_json(fans),
        tai_total=tai_total,
        fan_total=fan_total,
        points=share,
        payments={SEAT_WINDS[seat]: amount for seat, amount in paid.items()},
        carry_pool_after=req.carry_pool - 1 if carry_fan else req.carry_pool,
        wilds=[tile_str(face) for face in recipe_faces(faces)],
    )
    return out


def _shape_reason(counts: list[int], wilds: int, setup: _Setup) -> str:
    """Why no reading wins: the shape, or (J-A18) only through a fifth copy."""
    from ..evaluator import is_complete

    if setup.face_limit is not None and wilds and is_complete(counts, wilds):
        return "not a winning hand: a 百搭 may not stand for a fifth copy of a tile at this table"
    return "not a winning hand: the tiles do not make four sets and a pair"


def _rob_refusal(req: ScoreRequest, setup: _Setup, legal_shapes: list[Shape]) -> str | None:
    """Why a 抢杠 is refused under ``qianggang_forbid`` (J-A9), or None."""
    forbid = setup.opts.qianggang_forbid
    if forbid in ("both", "wild_pair") and all(s.pair & PAIR_WITH_WILD for s in legal_shapes):
        return ("抢杠 refused: the robbed tile can only pair with a 百搭 as the 将"
                " (单吊抢杠 is forbidden)")
    if forbid in ("both", "universal_wait"):
        counts, wilds = _split_concealed(req)
        assert req.win_tile is not None
        counts[req.win_tile] -= 1
        if wilds and _wins_on_any_tile(setup, counts, wilds):
            return "抢杠 refused: the hand wins on any tile"
    return None

