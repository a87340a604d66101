"""Display names: what passes, what is refused and with which message, and the uniqueness key."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from baida.server.store.names import MAX_LENGTH, MIN_LENGTH, InvalidName, name_key, normalize_name


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
