"""The Wenling scorer against a brute force written straight from RULES.md part B.

The reference tries every face of every 得 (all kinds but the specials), every split of the
concealed tiles into sets and a pair (its own recursion, not ``baida.evaluator``), and every
group that the winning tile can complete, and keeps the highest total. It also scores the
non-winners and settles, so random hands check the whole answer, 包三家 included, and the
scorer's restriction of 得 faces to "those that can matter".
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement, product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from baida.hand import Hand, make_meld
from baida.rules.options import wenling_options
from baida.rules.wenling_tiles import wenling_wilds_and_specials
from baida.scoring.request import ScoreRequest
from baida.scoring.wenling import score_wenling
from baida.tiles import WILD, parse_tile

E, S, W, N, C, F, P = 27, 28, 29, 30, 31, 32, 33
WINDS = (E, S, W, N)
DRAGONS = (C, F, P)


def heavy(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


def round_cap(raw: int) -> int:
    return min(500, (raw + 9) // 10 * 10)


# --- splits: every way to cut a 34-count vector into triplets, sequences and one pair -----------

@cache
def splits(counts: tuple[int, ...], pair_left: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
    i = next((k for k in range(34) if counts[k]), None)
    if i is None:
        return ((),) if not pair_left else ()
    out = []
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        out += [(("triplet", i),) + rest for rest in splits(tuple(c), pair_left)]
        c[i] += 3
    if pair_left and c[i] >= 2:
        c[i] -= 2
        out += [(("pair", i),) + rest for rest in splits(tuple(c), False)]
        c[i] += 2
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        out += [(("seq", i),) + rest for rest in splits(tuple(c), pair_left)]
    return tuple(out)


def group_tiles(shape: str, kind: int) -> tuple[int, ...]:
    if shape == "seq":
        return (kind, kind + 1, kind + 2)
    return (kind,) * (3 if shape == "triplet" else 2)


# --- the reference winner -------------------------------------------------------------------------

def ref_winner(req: ScoreRequest, specials: frozenset[int]) -> int | None:
    """The highest total over every 得 face, split and winning group; None if no split."""
    o = req.options
    hand = req.hand
    seat_wind = WINDS[req.winner]
    faces = [k for k in range(34) if k not in specials]
    naturals = [t for t in hand.concealed if t != WILD]
    wild_in_hand = hand.concealed.count(WILD)
    win_wild = req.win_tile == WILD
    n_wild = wild_in_hand + win_wild
    self_draw = req.win_by == "self_draw"
    # what does not depend on the reading
    base0 = 2 if self_draw else 0
    fan0 = 0
    for m in hand.melds:
        if m.kind == "pon":
            base0 += 4 if heavy(m.tile) else 2
        elif m.kind in ("mkong", "bukong"):
            base0 += 16 if heavy(m.tile) else 8
        elif m.kind == "akong":
            base0 += 32 if heavy(m.tile) else 16
    for t in hand.flowers:
        if t in DRAGONS:
            base0 += 4
            fan0 += 1
        elif t - 34 in (req.winner, req.winner + 4):
            fan0 += 1
    fan0 += (n_wild == 0) + (n_wild == 2)
    if self_draw and (req.after_kong or (
        req.after_special and o.gangkai_on_flower and any(t >= 34 for t in hand.flowers)
    )):
        fan0 += 1
    fan0 += req.win_by == "rob_kong"
    fan0 += self_draw and win_wild
    best = None
    for hand_faces in combinations_with_replacement(faces, wild_in_hand):
        for win_face in faces if win_wild else [req.win_tile]:
            counts = [0] * 34
            for t in naturals + list(hand_faces) + [win_face]:
                counts[t] += 1
            for split in splits(tuple(counts), True):
                for gi, (shape, kind) in enumerate(split):
                    if win_face not in group_tiles(shape, kind):
                        continue
                    total = ref_reading(req, split, gi, win_face, base0, fan0, seat_wind)
                    best = total if best is None else max(best, total)
    return best


def ref_reading(req, split, gi, win_face, base0, fan0, seat_wind) -> int:
    o = req.options
    base, fan = base0, fan0
    all_groups = list(split) + [
        ("seq" if m.kind == "chi" else "triplet", m.tile) for m in req.hand.melds
    ]
    for i, (shape, kind) in enumerate(split):
        if shape == "pair" and (kind == seat_wind or kind in DRAGONS):
            base += 2
        if shape == "triplet":
            ron = i == gi and req.win_by in ("discard", "rob_kong")
            if ron and not o.ron_triplet_concealed:
                base += 4 if heavy(kind) else 2
            else:
                base += 8 if heavy(kind) else 4
    for shape, kind in all_groups:
        if shape == "triplet" and (kind == seat_wind or kind in DRAGONS):
            fan += 1
    kinds = {t for shape, kind in all_groups for t in group_tiles(shape, kind)}
    suits = {k // 9 for k in kinds if k < 27}
    honours = any(k >= 27 for k in kinds)
    if len(suits) == 1 and not honours:
        fan += 4
    if honours and len(suits) <= 1:
        fan += 2
    shapes = [shape for shape, _ in all_groups if shape != "pair"]
    if "seq" not in shapes:
        fan += 2
    shape, kind = split[gi]
    wait = None
    if shape == "pair":
        wait = "单吊"
    elif shape == "seq":
        if win_face == kind + 1:
            wait = "嵌档"
        elif (kind % 9 == 0 and win_face == kind + 2) or (kind % 9 == 6 and win_face == kind):
            wait = "靠柄"
        else:
            wait = "two-sided"
    if wait in ("单吊", "嵌档", "靠柄"):
        base += 2
    if (
        "triplet" not in shapes
        and wait == "two-sided"
        and (req.win_by == "self_draw" or not o.panghe_selfdraw_only)
    ):
        fan += 1
    if all(w in kinds for w in WINDS):
        return 500
    return round_cap((base + 20) * 2**fan)


# --- the reference non-winners and settlement ----------------------------------------------------

def ref_nonwinner(hand: Hand, seat: int, specials: frozenset[int], options) -> int:
    seat_wind = WINDS[seat]
    wilds = hand.concealed.count(WILD)
    exposed = set(hand.flowers)
    if wilds == 3 or exposed >= {34, 35, 36, 37} or exposed >= {38, 39, 40, 41}:
        return 500
    for d in DRAGONS:
        if hand.flowers.count(d) == 4 and (d == P or options.special_four_lazi):
            return 500
    if any(m.kind == "akong" and (m.tile == seat_wind or m.tile in DRAGONS) for m in hand.melds):
        return 500
    melded = {m.tile for m in hand.melds if m.kind != "chi"}
    if options.nonwinner_sifeng_lazi:
        need = 0
        for w in WINDS:
            have = 3 if w in melded else min(3, hand.concealed.count(w))
            need += max(0, (2 if w == seat_wind else 3) - have)
        if need <= wilds:
            return 500
    best = 0
    faces_options = [()]
    if options.nonwinner_de == "full" and wilds:
        faces_options = list(
            combinations_with_replacement([k for k in range(34) if k not in specials], wilds)
        )
    for faces in faces_options:
        base = fan = 0
        for m in hand.melds:
            h = heavy(m.tile)
            if m.kind == "pon":
                base += 4 if h else 2
            elif m.kind in ("mkong", "bukong"):
                base += 16 if h else 8
            elif m.kind == "akong":
                base += 32 if h else 16
            if m.kind != "chi" and (m.tile == seat_wind or m.tile in DRAGONS):
                fan += 1
        for t in hand.flowers:
            if t in DRAGONS:
                base += 4
                fan += 1
            elif options.nonwinner_seat_flower and t - 34 in (seat, seat + 4):
                fan += 1
        tiles = [t for t in hand.concealed if t < 34 and t not in specials] + list(faces)
        for k in set(tiles):
            n = tiles.count(k)
            if n >= 3:
                base += 8 if heavy(k) else 4
                if k == seat_wind or k in DRAGONS:
                    fan += 1
            elif n == 2 and (k == seat_wind or k in DRAGONS):
                base += 2
        raw = (base + (20 if options.nonwinner_base20 else 0)) * 2**fan
        best = max(best, round_cap(raw))
    return best


def ref_payments(req: ScoreRequest, totals: dict[int, int]) -> dict[int, int]:
    pay = dict.fromkeys(range(4), 0)
    win = req.winner
    losers = [s for s in range(4) if s != win]
    t = totals[win] // 10
    if req.liable is not None:
        d = req.liable
        pay[d] -= 3 * t
        pay[win] += 3 * t
        x, y = [s for s in losers if s != d]
        for s in (x, y):
            pay[d] -= totals[s] // 10
            pay[s] += totals[s] // 10
        hi, lo = (x, y) if totals[x] >= totals[y] else (y, x)
        pay[d] -= (totals[hi] - totals[lo]) // 10
        pay[hi] += (totals[hi] - totals[lo]) // 10
        return pay
    robbed = req.win_by == "rob_kong" and req.options.rob_payment == "robbed"
    for s in losers:
        payer = req.from_seat if robbed else s
        pay[payer] -= t
        pay[win] += t
    for a in losers:
        for b in losers:
            if totals[a] > totals[b]:
                pay[b] -= (totals[a] - totals[b]) // 10
                pay[a] += (totals[a] - totals[b]) // 10
    return pay


def reference(req: ScoreRequest) -> tuple[bool, dict[int, int], dict[int, int]]:
    """(legal, totals, payments) straight from RULES.md."""
    _, specials = wenling_wilds_and_specials(req.indicator, req.options.flower_flip_specials)
    zero = dict.fromkeys(range(4), 0)
    if req.discarded_wild or any(t in specials for t in req.hand.concealed + [req.win_tile]):
        return False, zero, zero
    if req.win_tile == WILD and req.win_by != "self_draw":
        return False, zero, zero
    t_win = ref_winner(req, specials)
    if t_win is None:
        return False, zero, zero
    totals = {req.winner: t_win}
    for seat in range(4):
        if seat != req.winner:
            hand = req.others.get(seat, Hand())
            totals[seat] = 0 if seat == req.liable else ref_nonwinner(
                hand, seat, specials, req.options
            )
    return True, totals, ref_payments(req, totals)


# --- random hands ---------------------------------------------------------------------------------

RARE = {n: st.integers(0, n).map(lambda x, n=n: x == n // 2 + 1) for n in (2, 5, 30, 40)}
OPTION_VALUES = {
    "flower_flip_specials": st.booleans(),
    "nonwinner_base20": st.booleans(),
    "nonwinner_seat_flower": st.booleans(),
    "nonwinner_de": st.sampled_from(["sifeng_only", "full"]),
    "nonwinner_sifeng_lazi": st.booleans(),
    "gangkai_on_flower": st.booleans(),
    "ron_triplet_concealed": st.booleans(),
    "panghe_selfdraw_only": st.booleans(),
    "rob_payment": st.sampled_from(["all", "robbed"]),
    "special_four_lazi": st.booleans(),
}


@st.composite
def requests(
    draw, max_wilds: int = 2, honours_bias: bool = False, winds: bool = False
) -> ScoreRequest:
    opts = wenling_options(draw(st.fixed_dictionaries({}, optional=OPTION_VALUES)))
    indicator = draw(st.sampled_from(range(42)))
    de, specials = wenling_wilds_and_specials(indicator, opts.flower_flip_specials)
    left = [0 if (k in de or k in specials) else 4 for k in range(34)]
    if indicator < 34:
        left[indicator] = 0
    playable = [k for k in range(34) if left[k]]
    winner = draw(st.integers(0, 3))
    suit = draw(st.integers(0, 2))
    n_melds = draw(st.sampled_from([0, 0, 1, 1, 2, 3, 4, 5]))
    groups = []
    if winds:  # three or four wind triplets: 四风会齐 is near
        for w in draw(st.permutations(WINDS))[: draw(st.integers(3, 4))]:
            if left[w] >= 3:
                left[w] -= 3
                groups.append(("triplet", w))
    while len(groups) < 5:
        shape = draw(st.sampled_from(["seq", "triplet", "triplet" if honours_bias else "seq"]))
        one_suit = draw(st.booleans())
        pool = [k for k in playable if not one_suit or k // 9 in (suit, 3)]
        if honours_bias and shape == "triplet" and draw(st.booleans()):
            pool = [k for k in playable if k >= (27 if draw(st.booleans()) else 31)]
        if shape == "seq":
            pool = [k for k in pool if k < 27 and k % 9 <= 6]
        if not pool:
            continue
        kind = draw(st.sampled_from(pool))
        tiles = group_tiles(shape, kind)
        if all(left[t] >= tiles.count(t) for t in tiles):
            for t in tiles:
                left[t] -= 1
            groups.append((shape, kind))
        elif draw(RARE[2]):
            break
    pair_pool = [k for k in playable if left[k] >= 2]
    if winds and draw(st.booleans()):
        pair_pool = [k for k in pair_pool if k in WINDS] or pair_pool
    if len(groups) < 5 or not pair_pool:
        return draw(requests(max_wilds, honours_bias, winds))
    pair = draw(st.sampled_from(pair_pool))
    left[pair] -= 2
    melds = []
    concealed = [pair, pair]
    for i, (shape, kind) in enumerate(groups):
        if i < n_melds:
            if shape == "seq":
                melds.append(make_meld("chi", group_tiles(shape, kind)))
                continue
            meld_kind = draw(st.sampled_from(["pon", "pon", "mkong", "bukong", "akong"]))
            if meld_kind != "pon":
                if not left[kind]:
                    meld_kind = "pon"
                else:
                    left[kind] -= 1
            melds.append(make_meld(meld_kind, [kind]))
        else:
            concealed += group_tiles(shape, kind)
    concealed = draw(st.permutations(concealed))
    n_wild = draw(st.integers(0, min(max_wilds, len(concealed))))
    concealed = [WILD] * n_wild + list(concealed[n_wild:])
    win_index = draw(st.integers(0, len(concealed) - 1))
    win_tile = concealed.pop(win_index)
    ways = ["self_draw", "discard"]
    if win_tile != WILD and win_tile not in concealed and all(
        win_tile not in m.tiles for m in melds
    ):
        ways.append("rob_kong")  # the other three copies are in the robbed player's 碰
        left[win_tile] = 0
    win_by = "self_draw" if win_tile == WILD else draw(st.sampled_from(ways))
    if draw(RARE[30]) and concealed[0] != WILD:  # a hand that does not split
        swap = [k for k in playable if left[k] and k != concealed[0]]
        if swap:
            kind = draw(st.sampled_from(swap))
            left[kind] -= 1
            left[concealed[0]] += 1
            concealed[0] = kind
    special_pool = sorted(specials) + [k for k in specials if k < 34]
    flowers = draw(st.lists(st.sampled_from(special_pool), max_size=draw(st.sampled_from([0, 3]))))
    flowers = [t for i, t in enumerate(flowers) if t < 34 or t not in flowers[:i]]
    if any(flowers.count(k) > 4 for k in set(flowers)):
        return draw(requests(max_wilds, honours_bias, winds))
    after = draw(st.sampled_from(["", "", "kong", "special"])) if win_by == "self_draw" else ""
    from_seat = None if win_by == "self_draw" else (winner + draw(st.integers(1, 3))) % 4
    liable = from_seat if win_by == "discard" and draw(st.booleans()) else None
    spare_flowers = [k for k in specials if k >= 34 and k not in flowers]
    spare_flowers += [k for k in specials if k < 34 for _ in range(4 - flowers.count(k))]
    if draw(RARE[40]) and spare_flowers:  # now and then a held special
        concealed[-1] = draw(st.sampled_from(spare_flowers))
        spare_flowers.remove(concealed[-1])
    # the non-winners, from what is left of the wall
    wall = [k for k in range(34) for _ in range(left[k])]
    wilds_left = 3 - n_wild
    others = {}
    for seat in range(4):
        if seat == winner or draw(RARE[5]):
            continue
        wall = list(draw(st.permutations(wall)))
        take = draw(st.integers(0, min(wilds_left, 3 if honours_bias else 2)))
        wilds_left -= take
        tiles = [WILD] * take + wall[: 16 - take]
        wall = wall[16 - take:]
        hand_melds = []
        for k in sorted(set(tiles) - {WILD}, reverse=True):
            if tiles.count(k) >= 3 and draw(RARE[2]):
                kind = "akong" if tiles.count(k) == 4 and wall and draw(st.booleans()) else "pon"
                for _ in range(4 if kind == "akong" else 3):
                    tiles.remove(k)
                if kind == "akong":
                    tiles.append(wall.pop())
                hand_melds.append(make_meld(kind, [k]))
        fl = []
        for _ in range(draw(st.integers(0, 4))):
            if spare_flowers:
                fl.append(draw(st.sampled_from(spare_flowers)))
                spare_flowers.remove(fl[-1])
        others[seat] = Hand(tiles, hand_melds, fl)
    req = ScoreRequest(
        ruleset="wenling", options=opts, indicator=indicator, winner=winner,
        hand=Hand(list(concealed), melds, flowers), win_tile=win_tile, win_by=win_by,
        from_seat=from_seat, after_kong=after == "kong", after_special=after == "special",
        others=others, liable=liable, discarded_wild=draw(RARE[40]),
    )
    return req


def _check(req: ScoreRequest) -> None:
    legal, totals, payments = reference(req)
    out = score_wenling(req)
    assert out["legal"] is legal, out["reason"]
    seats = "ESWN"
    assert out["totals"] == {seats[s]: totals[s] for s in range(4)}
    assert out["payments"] == {seats[s]: payments[s] for s in range(4)}
    assert sum(out["payments"].values()) == 0
    if legal:
        assert out["points"] == totals[req.winner]
        items_fan = sum(i["value"] for i in out["fan"])
        assert items_fan == out["fan_total"]
        assert sum(i["value"] for i in out["base_items"]) == out["base_points"]
        assert out["raw"] == (out["base_points"] + 20) * 2 ** out["fan_total"]
        if req.win_by == "lazi":
            return
        # the reported faces of the 得 make the concealed part a complete hand
        faces = [parse_tile(f) for f in out["wilds"]]
        assert len(faces) == req.hand.concealed.count(WILD) + (req.win_tile == WILD)
        counts = [0] * 34
        for t in [t for t in req.hand.concealed + [req.win_tile] if t != WILD] + faces:
            counts[t] += 1
        assert splits(tuple(counts), True)
        if "四风会齐" in [i["name"] for i in out["fan"]]:
            assert out["points"] == 500
        else:
            assert out["points"] == round_cap(out["raw"])


SETTINGS = settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)


@SETTINGS
@given(requests())
def test_scorer_matches_brute_force(req: ScoreRequest) -> None:
    _check(req)


@SETTINGS
@given(requests(honours_bias=True))
def test_scorer_matches_brute_force_honour_hands(req: ScoreRequest) -> None:
    """Triplet-heavy hands with honours: 字牌刻, 门风刻, 对对和, 混一色, non-winner 腊子."""
    _check(req)


@SETTINGS
@given(requests(winds=True))
def test_scorer_matches_brute_force_wind_hands(req: ScoreRequest) -> None:
    """Hands with three or four wind sets: 四风会齐 for the winner (500) or not."""
    _check(req)


@settings(SETTINGS, max_examples=examples(25))
@given(requests(max_wilds=3))
def test_three_wilds_match_brute_force(req: ScoreRequest) -> None:
    """A normal win holding all three 得 is still scored by its best reading (every face)."""
    _check(req)


def test_reference_splits_sanity() -> None:
    counts = [0] * 34
    for t in (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3):
        counts[t] += 1
    shapes = {tuple(sorted(s)) for s in splits(tuple(counts), True)}
    assert (("pair", 3), ("seq", 0), ("seq", 0), ("seq", 0)) in shapes
    assert (("pair", 3), ("triplet", 0), ("triplet", 1), ("triplet", 2)) in shapes
    assert list(product([1], [2])) == [(1, 2)]
