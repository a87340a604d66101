"""Display names: validation, normalisation and the key that makes them unique."""

from __future__ import annotations

import unicodedata

from .errors import InvalidRequest

MIN_LENGTH = 2
MAX_LENGTH = 16
_PUNCTUATION = frozenset("_-")


class InvalidName(InvalidRequest):
    """A display name that breaks a rule; the message names the rule, for the player."""


def _describe(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def normalize_name(raw: object) -> str:
    """The NFKC form of a valid display name; ``InvalidName`` says what is wrong otherwise."""
    if not isinstance(raw, str):
        raise InvalidName("a name must be text")
    name = unicodedata.normalize("NFKC", raw)
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs", "Cn"):
            raise InvalidName(f"a name cannot contain invisible or control characters "
                              f"({_describe(char)})")
    if not name.strip():
        raise InvalidName("a name cannot be empty")
    if name != name.strip():
        raise InvalidName("a name cannot begin or end with a space")
    if any(unicodedata.category(char).startswith("Z") for char in name):
        raise InvalidName("a name cannot contain spaces")
    if unicodedata.category(name[0]).startswith("M"):
        raise InvalidName("a name cannot begin with a combining mark")
    for char in name:
        category = unicodedata.category(char)
        if not (category[0] in "LM" or category == "Nd" or char in _PUNCTUATION):
            raise InvalidName(f"a name may hold letters, digits, '_' and '-' only, "
                              f"not {char!r}")
    if len(name) < MIN_LENGTH:
        raise InvalidName(f"a name needs at least {MIN_LENGTH} characters")
    if len(name) > MAX_LENGTH:
        raise InvalidName(f"a name has at most {MAX_LENGTH} characters, this one has "
                          f"{len(name)}")
    return name


def name_key(name: str) -> str:
    """What two names must differ in to be different names (case-insensitive)."""
    return unicodedata.normalize("NFKC", name.casefold())
