"""Display names: what passes, what is refused and with which message, and the uniqueness key."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from baida.server.store.names import (
    MAX_LENGTH,
    MIN_LENGTH,
    InvalidName,
    check_new_name,
    name_key,
    name_skeleton,
    normalize_name,
)


@pytest.mark.parametrize("name", [
    "Alice", "小明", "游客1234", "麻将_高手", "a-b", "Zoë", "Ωμέγα", "Иван", "ナナ",
    "김철수", "अनु", "ab", "x" * MAX_LENGTH, "李_2-b",
])
def test_valid_names_are_kept(name: str) -> None:
    assert normalize_name(name) == unicodedata.normalize("NFKC", name)


@pytest.mark.parametrize(("raw", "normal"), [
    ("ＡＢＣ１２", "ABC12"),  # fullwidth letters and digits
    ("ﾅﾅ", "ナナ"),  # halfwidth katakana
    ("Zoe\u0308", "Zoë"),  # a combining diaeresis composes
])
def test_names_are_nfkc_normalised(raw: str, normal: str) -> None:
    assert normalize_name(raw) == normal


@pytest.mark.parametrize(("raw", "message"), [
    ("", "empty"),
    ("   ", "empty"),
    (" Alice", "begin or end with a space"),
    ("Alice ", "begin or end with a space"),
    ("\u3000小明", "begin or end with a space"),  # an ideographic space
    ("Al ice", "cannot contain spaces"),
    ("Al\u200bice", "invisible or control"),  # zero-width space (Cf)
    ("Al\u202eice", "invisible or control"),  # right-to-left override (Cf)
    ("Al\x07ice", "invisible or control"),
    ("Alice\n", "invisible or control"),
    ("\u0301ab", "combining mark"),
    ("a", f"at least {MIN_LENGTH}"),
    ("x" * (MAX_LENGTH + 1), f"at most {MAX_LENGTH}"),
    ("Alice!", "letters, digits, '_' and '-' only, not '!'"),
    ("a.b", "not '.'"),
    ("a😀b", "not '😀'"),
    ("<b>", "not '<'"),
    (None, "must be text"),
    (12, "must be text"),
])
def test_invalid_names_say_what_is_wrong(raw: object, message: str) -> None:
    with pytest.raises(InvalidName, match=re.escape(message)):
        normalize_name(raw)


def test_the_key_ignores_case() -> None:
    assert name_key("Alice") == name_key("ALICE") == name_key("alice")
    assert name_key(normalize_name("ＡＬＩＣＥ")) == name_key("alice")
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("小明") != name_key("小红")


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=24))
def test_any_text_is_accepted_only_when_every_rule_holds(raw: str) -> None:
    try:
        name = normalize_name(raw)
    except InvalidName as exc:
        assert str(exc)  # a message for the player
        return
    assert MIN_LENGTH <= len(name) <= MAX_LENGTH
    assert name == unicodedata.normalize("NFKC", raw)
    assert not unicodedata.category(name[0]).startswith("M")
    for char in name:
        category = unicodedata.category(char)
        assert category[0] in "LM" or category == "Nd" or char in "_-", (name, char)


# ---------------------------------------------------------------- names a player chooses


@pytest.mark.parametrize(("raw", "code", "message"), [
    ("\u1160\u1160", "name_invisible", "U+1160 HANGUL JUNGSEONG FILLER"),  # renders blank
    ("\u3164\u3164", "name_invisible", "HANGUL"),  # the compatibility filler, the same
    ("ab\uffa0", "name_invisible", "U+1160"),  # the halfwidth one (NFKC: U+1160)
    ("a\u034fb", "name_invisible", "U+034F COMBINING GRAPHEME JOINER"),
    ("ab\ufe0f", "name_invisible", "U+FE0F"),  # a variation selector
    ("Al\u200dice", "name_invisible", "U+200D ZERO WIDTH JOINER"),
    ("a" + "\u0301" * 15, "name_marks", "at most 3 accents"),
    ("ab" + "\u0301\u0302\u0303\u0304", "name_marks", "at most 3 accents"),
    ("bot", "name_reserved", "reserved word 'bot'"),
    ("BOT", "name_reserved", "reserved word 'bot'"),
    ("Bot_7", "name_reserved", "reserved word 'bot'"),
    ("bоt", "name_reserved", "reserved word 'bot'"),  # a Cyrillic о
    ("机器人", "name_reserved", "reserved word '机器人'"),
    ("机器人007", "name_reserved", "reserved word '机器人'"),
    ("游客1234", "name_reserved", "reserved word '游客'"),
    ("游客", "name_reserved", "reserved word '游客'"),
    ("Guest1234", "name_reserved", "reserved word 'guest'"),
    ("guest-42", "name_reserved", "reserved word 'guest'"),
    ("ＧＵＥＳＴ1", "name_reserved", "reserved word 'guest'"),  # fullwidth
    ("admin", "name_reserved", "reserved word 'admin'"),
    ("аdmin", "name_reserved", "reserved word 'admin'"),  # a Cyrillic а
    ("管理员", "name_reserved", "reserved word '管理员'"),
])
def test_chosen_names_refuse_blank_stacked_and_reserved(raw: str, code: str,
                                                        message: str) -> None:
    with pytest.raises(InvalidName, match=re.escape(message)) as refused:
        check_new_name(raw)
    assert refused.value.code == code


@pytest.mark.parametrize("name", [
    "robot", "b0t", "botany", "Guesthouse", "游客们好", "小机器", "Nguyễn", "ab\u0301\u0302\u0303",
    "Ωμέγα", "Иван", "admiral",
])
def test_chosen_names_that_only_contain_a_reserved_word_pass(name: str) -> None:
    assert check_new_name(name) == unicodedata.normalize("NFKC", name)


@pytest.mark.parametrize(("a", "b"), [
    ("alice", "аlice"),  # Cyrillic а
    ("paypal", "раураl"),  # Cyrillic р, а, у
    ("bob", "bоb"),  # Cyrillic о
    ("ALICE", "АLICE"),  # Cyrillic А among capitals
    ("admiral", "admiraI"),  # a capital I for a small l
    ("Alice", "ａlice"),  # width (and the key's NFKC)
    ("lily", "1ily"),  # digit one and small l
    ("corn", "com"),  # rn and m
    ("Ivan", "Ιvan"),  # Greek capital iota
])
def test_look_alike_names_share_a_skeleton(a: str, b: str) -> None:
    assert name_skeleton(a) == name_skeleton(b)


@pytest.mark.parametrize(("a", "b"), [
    ("alice", "alicia"), ("小明", "小红"), ("bob", "b0b"), ("李四", "季四"), ("ab", "ac"),
])
def test_different_names_keep_different_skeletons(a: str, b: str) -> None:
    assert name_skeleton(a) != name_skeleton(b)
