"""The Wenling winner's total (RULES.md §B4.1-B4.2): the best reading of a legal winning hand.

The server must find the highest total ("服务器会自动为玩家算出最高的汇点"), so every reading
(得 faces × split into sets × the group the winning tile completes) is scored and the best
kept. 得 faces are limited to those that can change a score (``relevant_faces``) and that
complete the hand with the other 得 still wild (``completing_faces``); the brute force in
``tests/test_wenling_bruteforce.py`` checks that limit against every face. Copies of a kind
are interchangeable, so the winning tile may complete any group that holds its kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from itertools import combinations_with_replacement

from ..evaluator import (
    PAIR,
    SEQ,
    TRIPLET,
    Group,
    Reading,
    is_complete,
    readings,
    wild_faces_of,
)
from ..hand import Hand, Meld
from ..rules.options import WenlingOptions
from ..rules.wenling_tiles import WenlingTiles, is_heavy, seat_flowers
from ..tiles import DRAGONS, GREEN, NUM_KINDS, RED, WHITE, WILD, WINDS, counts34, rank_of
from .wenling_items import (
    CONCEALED_PUNG,
    EXPOSED_SPECIAL,
    LIMIT,
    MELD_ITEMS,
    PUNG,
    SELF_DRAW,
    SIFENG,
    WAIT_ITEMS,
    HandFacts,
    fan_items,
    total_points,
)
from .wenling_items import PAIR as PAIR_ITEM

NO_FACES: frozenset[int] = frozenset()
FACT_FIELDS = tuple(f.name for f in fields(HandFacts))
BASE_ORDER = ("对子", "刻子", "暗刻", "明杠", "暗杠", "翻白板", "翻红中", "翻发财",
              "单吊", "嵌档", "靠柄", "自摸")


@dataclass(slots=True)
class WinnerScore:
    """The chosen reading of the winner's hand and what it scores."""

    total: int
    raw: int
    base_points: int
    fan_total: int
    base_items: list[tuple[str, int]]
    fan_items: list[tuple[str, int]]
    wilds: list[int] = field(default_factory=list)  # the faces of the 得, in order


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything about the win that does not depend on the reading."""

    seat_wind: int
    win_tile: int  # a kind, or WILD for a self-drawn 得
    discard_win: bool  # the winning tile came from another player (discard or robbed kong)
    ron_triplet_concealed: bool
    fixed_base: tuple[tuple[str, int], ...]
    template: tuple  # the HandFacts fields that do not depend on the reading
    meld_winds: frozenset[int]


def _suit_bit(kind: int) -> int:
    return 1 << (kind // 9) if kind < 27 else 0


def _set_facts(facts: HandFacts, kind: int, seat_wind: int) -> None:
    """Count one triplet or kong of ``kind`` in the facts."""
    facts.triplet_sets += 1
    if kind == seat_wind:
        facts.seat_wind_sets += 1
    elif kind in DRAGONS:
        facts.dragon_sets += 1
    if kind < 27:
        facts.suits |= _suit_bit(kind)
    else:
        facts.honours = True


def meld_items(hand: Hand, seat_wind: int, facts: HandFacts) -> list[tuple[str, int]]:
    """Base items of the melds, counting them into ``facts`` as well."""
    out = []
    for meld in hand.melds:
        if meld.is_chi:
            facts.sequence_sets += 1
            facts.suits |= _suit_bit(meld.tile)
            continue
        item = MELD_ITEMS[meld.kind]
        out.append((item.name, item.value(is_heavy(meld.tile))))
        _set_facts(facts, meld.tile, seat_wind)
    return out


def special_items(hand: Hand, seat: int, facts: HandFacts) -> list[tuple[str, int]]:
    """Base items of the exposed specials (翻白板 ...) and the facts of specials and flowers."""
    out = []
    exposed = [hand.flowers.count(WHITE), hand.flowers.count(RED), hand.flowers.count(GREEN)]
    for kind, n in zip((WHITE, RED, GREEN), exposed, strict=True):
        if n:
            item = EXPOSED_SPECIAL[kind]
            out.append((item.name, item.value * n))
    facts.exposed = (exposed[0], exposed[1], exposed[2])
    mine = seat_flowers(seat)
    facts.seat_flowers = sum(1 for f in hand.flowers if f in mine)
    return out


def win_context(
    hand: Hand, seat: int, win_tile: int, win_by: str, options: WenlingOptions,
    after_kong: bool, after_special: bool,
) -> WinContext:
    """Precompute the reading-independent part of the winner's score."""
    seat_wind = WINDS[seat]
    facts = HandFacts()
    fixed = meld_items(hand, seat_wind, facts) + special_items(hand, seat, facts)
    self_draw = win_by == "self_draw"
    if self_draw:
        fixed.append((SELF_DRAW.name, SELF_DRAW.value))
    facts.wilds_held = hand.wild_count + (win_tile == WILD)
    facts.self_draw = self_draw
    facts.rob_kong = win_by == "rob_kong"
    facts.win_tile_wild = win_tile == WILD
    facts.panghe_selfdraw_only = options.panghe_selfdraw_only
    facts.kong_flower = self_draw and (
        after_kong
        or (after_special and options.gangkai_on_flower and any(f >= 34 for f in hand.flowers))
    )
    meld_winds = frozenset(m.tile for m in hand.melds if m.tile in WINDS)
    summed: dict[str, int] = {}
    for name, value in fixed:
        summed[name] = summed.get(name, 0) + value
    return WinContext(
        seat_wind=seat_wind,
        win_tile=win_tile,
        discard_win=win_by in ("discard", "rob_kong"),
        ron_triplet_concealed=options.ron_triplet_concealed,
        fixed_base=tuple(summed.items()),
        template=tuple(getattr(facts, name) for name in FACT_FIELDS),
        meld_winds=meld_winds,
    )


def relevant_faces(
    counts: list[int], wilds: int, tiles: WenlingTiles, seat: int, melds: Iterable[Meld] = ()
) -> frozenset[int]:
    """The faces a 得 can take that may change the best total.

    With at most two 得, a 得 either joins natural tiles (a kind within two ranks of a natural
    tile of the same suit, or the honour itself) or pairs with the other 得. Such a pair
    scores only by its class: the own seat wind, a 字牌 (any one: they score alike), a wind
    that completes 四风会齐, or a suit of the hand (a suit the hand lacks is never better
    than a 字牌 pair). Three 得 may form a whole set of their own: every face is kept.
    """
    if wilds > 2:
        return tiles.faces
    keep = {WINDS[seat]}
    dragons = tiles.scoring_dragons()
    if dragons:
        keep.add(dragons[0])
    present: set[int] = set()
    for meld in melds:
        present.add(meld.tile)
    for kind in range(NUM_KINDS):
        if counts[kind]:
            present.add(kind)
            if kind >= 27:
                keep.add(kind)
                continue
            low = kind - kind % 9
            keep.update(range(max(low, kind - 2), min(low + 8, kind + 2) + 1))
    for kind in present:
        if kind < 27:
            keep.add(kind - kind % 9)
    if sum(1 for w in WINDS if w in present) >= 3:
        keep.update(WINDS)
    return frozenset(keep) & tiles.faces


def completing_faces(counts: list[int], wilds: int, faces: Iterable[int]) -> frozenset[int]:
    """The faces one 得 can take in some complete reading: with the others still wild,
    the hand must stay complete (so each 得's face is a wait of the rest)."""
    out = []
    work = list(counts)
    for face in faces:
        work[face] += 1
        if is_complete(work, wilds - 1):
            out.append(face)
        work[face] -= 1
    return frozenset(out)


def _wait(group: Group, tile: int) -> str:
    """The wait type when ``tile`` completes ``group``."""
    if group.shape == PAIR:
        return "single"
    if group.shape == TRIPLET:
        return "triplet"
    pos = tile - group.tile
    if pos == 1:
        return "closed"
    if (pos == 2 and rank_of(group.tile) == 1) or (pos == 0 and rank_of(group.tile) == 7):
        return "edge"
    return "open"


def _win_choices(reading: Reading, win_kinds: Iterable[int]) -> list[tuple[int, str, int]]:
    """(group index, wait, face) for every group the winning tile can complete.

    Tiles of one kind are interchangeable, so the winning tile (a natural tile, or a 得 with
    one of the faces ``win_kinds``) may sit in any group that holds its kind.
    """
    out: list[tuple[int, str, int]] = []
    seen: set[tuple[Group, int]] = set()
    for index, group in enumerate(reading):
        for face in win_kinds:
            if face in group.tiles and (group, face) not in seen:
                seen.add((group, face))
                out.append((index, _wait(group, face), face))
    return out


def score_reading(
    ctx: WinContext, reading: Reading, faces: tuple[int, ...]
) -> WinnerScore | None:
    """The best way to score one reading whose 得 took ``faces`` (over the groups the
    winning tile can complete)."""
    facts = HandFacts(*ctx.template)
    base = dict(ctx.fixed_base)
    winds = set(ctx.meld_winds)
    triplet_values: list[int] = []
    for group in reading:
        kind = group.tile
        if group.shape == SEQ:
            facts.sequence_sets += 1
            facts.suits |= _suit_bit(kind)
            triplet_values.append(0)
            continue
        if kind in WINDS:
            winds.add(kind)
        if group.shape == PAIR:
            if kind == ctx.seat_wind or kind in DRAGONS:
                base[PAIR_ITEM.name] = base.get(PAIR_ITEM.name, 0) + PAIR_ITEM.value
            if kind < 27:
                facts.suits |= _suit_bit(kind)
            else:
                facts.honours = True
            triplet_values.append(0)
            continue
        value = CONCEALED_PUNG.value(is_heavy(kind))
        base[CONCEALED_PUNG.name] = base.get(CONCEALED_PUNG.name, 0) + value
        triplet_values.append(value)
        _set_facts(facts, kind, ctx.seat_wind)
    sifeng = len(winds) == 4
    base_sum = sum(base.values())
    fans_by_wait: dict[bool, list[tuple[str, int]]] = {}  # 旁和 is the only wait-dependent fan
    best: WinnerScore | None = None
    win_kinds = set(faces) if ctx.win_tile == WILD else (ctx.win_tile,)
    for index, wait, face in _win_choices(reading, win_kinds):
        base_points = base_sum
        downgrade = 0
        if wait in WAIT_ITEMS:
            base_points += WAIT_ITEMS[wait].value
        elif wait == "triplet" and ctx.discard_win and not ctx.ron_triplet_concealed:
            # W-A13 off: a triplet completed by another player's tile is an exposed 刻子
            downgrade = triplet_values[index]
            base_points += PUNG.value(downgrade == CONCEALED_PUNG.heavy) - downgrade
        is_open = wait == "open"
        fans = fans_by_wait.get(is_open)
        if fans is None:
            facts.wait = wait
            fans = fans_by_wait[is_open] = fan_items(facts)
        fan_total = sum(v for _, v in fans)
        raw, total = total_points(base_points, fan_total)
        if sifeng:
            total = LIMIT
        if best is not None and (total, raw) <= (best.total, best.raw):
            continue
        items = dict(base)
        if wait in WAIT_ITEMS:
            items[WAIT_ITEMS[wait].name] = WAIT_ITEMS[wait].value
        if downgrade:
            items[CONCEALED_PUNG.name] -= downgrade
            items[PUNG.name] = items.get(PUNG.name, 0) + PUNG.value(
                downgrade == CONCEALED_PUNG.heavy
            )
        shown = list(faces)
        if ctx.win_tile == WILD:
            shown.remove(face)
            shown.append(face)
        best = WinnerScore(
            total=total,
            raw=raw,
            base_points=base_points,
            fan_total=fan_total,
            base_items=[(n, items[n]) for n in BASE_ORDER if items.get(n)],
            fan_items=fans + [(SIFENG, 0)] if sifeng else list(fans),
            wilds=shown,
        )
    return best


def concealed_part(hand: Hand, win_tile: int) -> tuple[list[int], int]:
    """(34-count vector, 得 count) of the concealed tiles plus the winning tile."""
    tiles: Iterable[int] = hand.concealed + [win_tile]
    counts = counts34(tiles)
    return counts, hand.wild_count + (win_tile == WILD)


def candidate_readings(
    counts: list[int], wilds: int, faces: frozenset[int]
) -> Iterator[tuple[Reading, tuple[int, ...]]]:
    """Every (reading, faces of the 得) of a complete concealed part.

    Up to two 得: each choice of faces that completes the hand (the table-driven win test
    rejects the others at once), then the splits of the natural hand that results. Three 得:
    the evaluator's readings with wilds.
    """
    if wilds > 2:
        for reading in readings(counts, wilds, faces):
            yield reading, tuple(wild_faces_of(reading))
        return
    work = list(counts)
    for chosen in combinations_with_replacement(sorted(faces), wilds):
        for face in chosen:
            work[face] += 1
        if is_complete(work, 0):
            for reading in readings(work, 0, NO_FACES):
                yield reading, chosen
        for face in chosen:
            work[face] -= 1


def best_reading(
    hand: Hand, seat: int, win_tile: int, win_by: str, options: WenlingOptions,
    tiles: WenlingTiles, after_kong: bool = False, after_special: bool = False,
) -> WinnerScore | None:
    """The highest-scoring reading of a winning hand, or None if it is not a complete hand."""
    ctx = win_context(hand, seat, win_tile, win_by, options, after_kong, after_special)
    counts, wilds = concealed_part(hand, win_tile)
    best: WinnerScore | None = None
    faces = NO_FACES
    if wilds:
        faces = relevant_faces(counts, wilds, tiles, seat, hand.melds)
        faces = completing_faces(counts, wilds, faces)
    for reading, chosen in candidate_readings(counts, wilds, faces):
        scored = score_reading(ctx, reading, chosen)
        if scored is None:
            continue
        if best is None or (scored.total, scored.raw) > (best.total, best.raw):
            best = scored
            if best.total == LIMIT:
                break
    return best
