"""Tile notation: parse, format, round trip and clear errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baida.tiles import (
    WILD,
    TileError,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_name,
    tile_str,
)


def test_all_42_kinds_round_trip_one_by_one():
    for kind in range(42):
        assert parse_tile(tile_str(kind)) == kind
    assert parse_tile("*") == WILD


def test_compressed_runs_and_spaces():
    assert parse_tiles("123m 45p EE C f1 *") == [0, 1, 2, 12, 13, 27, 27, 31, 34, WILD]
    assert parse_tiles("CCC") == [31, 31, 31]
    expected = [9, 10, WILD, 13, 14, 15, WILD, 17, WILD, 31, 31, 27, 27]
    assert parse_tiles("12p*56p7p*9p*CCEE") == expected


def test_format_merges_runs():
    assert format_tiles(parse_tiles("1m2m3m4p5p E F f8")) == "123m45pEFf8"


@given(st.lists(st.integers(min_value=0, max_value=42), max_size=20))
def test_round_trip(kinds):
    assert parse_tiles(format_tiles(kinds)) == kinds


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("123", "without a suit letter"),
        ("12x", "unknown tile character 'x'"),
        ("m", "without numbers"),
        ("f9", "flower is f1-f8"),
        ("0m", "unknown tile character '0'"),
        ("12*m", "without a suit letter"),
    ],
)
def test_bad_notation_names_the_problem(text, fragment):
    with pytest.raises(TileError, match=fragment.replace("(", r"\(")):
        parse_tiles(text)


def test_parse_tile_wants_exactly_one():
    with pytest.raises(TileError, match="expected one tile"):
        parse_tile("12m")


def test_names():
    assert tile_name(4) == "五万"
    assert tile_name(31) == "红中"
    assert tile_name(34, "en") == "Spring"
    assert tile_name(WILD) == "百搭"
