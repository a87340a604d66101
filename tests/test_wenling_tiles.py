"""Wenling 得 and specials from the indicator (RULES.md §B1.1, W-A1), and the small helpers."""

import pytest

from baida.rules.wenling_tiles import (
    flower_group,
    is_heavy,
    seat_flowers,
    seat_wind_kind,
    wenling_tiles,
    wenling_wilds_and_specials,
)
from baida.tiles import format_tiles, parse_tile, parse_tiles


def roles(indicator: str, flip: bool = True) -> tuple[str, str]:
    wilds, specials = wenling_wilds_and_specials(parse_tile(indicator), flip)
    return format_tiles(sorted(wilds)), format_tiles(sorted(specials))


ALL_FLOWERS = "f1f2f3f4f5f6f7f8"


@pytest.mark.parametrize("indicator", ["1m", "7m", "5p", "9s", "E", "N", "C", "F"])
def test_ordinary_indicator_its_kind_is_de_and_flowers_and_white_are_specials(indicator):
    assert roles(indicator) == (indicator, "P" + ALL_FLOWERS)
    assert roles(indicator, flip=False) == (indicator, "P" + ALL_FLOWERS)


def test_white_indicator_makes_red_and_green_the_specials():
    # "如白板是得的话，就用红中与发财替代白板做特殊牌"
    assert roles("P") == ("P", "CF" + ALL_FLOWERS)
    assert roles("P", flip=False) == ("P", "CF" + ALL_FLOWERS)


@pytest.mark.parametrize(
    "indicator, wilds, other_group",
    [
        ("f1", "f2f3f4", "f5f6f7f8"),  # "如翻出春，则夏秋冬为得"
        ("f3", "f1f2f4", "f5f6f7f8"),
        ("f5", "f6f7f8", "f1f2f3f4"),
        ("f8", "f5f6f7", "f1f2f3f4"),
    ],
)
def test_flower_indicator(indicator, wilds, other_group):
    # W-A1 (a): the other group, 白板, 红中 and 发财 are the specials
    assert roles(indicator) == (wilds, "CFP" + other_group)
    # W-A1 (b): only the 得 group changes; 红中 and 发财 stay ordinary tiles
    assert roles(indicator, flip=False) == (wilds, "P" + other_group)


def test_every_indicator_gives_three_de_copies_and_disjoint_roles():
    for kind in range(42):
        for flip in (True, False):
            wilds, specials = wenling_wilds_and_specials(kind, flip)
            assert not wilds & specials
            copies = 1 if kind >= 34 else 3  # flowers are single tiles, other kinds have 3 left
            assert copies * len(wilds) == 3
            assert kind not in specials


def test_bad_indicator():
    with pytest.raises(ValueError):
        wenling_wilds_and_specials(42, True)
    with pytest.raises(ValueError):
        flower_group(5)


def test_faces_exclude_specials_only():
    tiles = wenling_tiles(parse_tile("P"))
    assert tiles.faces == frozenset(range(34)) - {31, 32}
    assert 33 in tiles.faces  # a 得 may stand for its own kind
    assert tiles.scoring_dragons() == (33,)
    assert tiles.special_dragons == frozenset({31, 32})
    ordinary = wenling_tiles(parse_tile("7m"))
    assert ordinary.scoring_dragons() == (31, 32)
    assert 6 not in ordinary.natural_kinds() and 33 not in ordinary.natural_kinds()
    assert ordinary.is_wild(6) and ordinary.is_special(34) and not ordinary.is_special(31)
    flower = wenling_tiles(parse_tile("f2"))
    assert flower.scoring_dragons() == ()
    assert flower.faces == frozenset(range(31))


def test_seat_flowers_and_winds():
    # 春和梅相应东风家 夏和兰相应南风家 秋和竹相应西风家 冬和菊相应北风家
    assert [format_tiles(seat_flowers(s)) for s in range(4)] == ["f1f5", "f2f6", "f3f7", "f4f8"]
    assert [seat_wind_kind(s) for s in "ESWN"] == parse_tiles("ESWN")


def test_heavy_kinds():
    heavy = [k for k in range(34) if is_heavy(k)]
    assert heavy == parse_tiles("19m19p19sESWNCFP")
