"""Quoting input in an error message: a short prefix, never the whole of a huge value."""

from __future__ import annotations

import reprlib
from typing import Any

LIMIT = 40  # characters of a refused value shown in a message

_SHORT = reprlib.Repr()
_SHORT.maxstring = LIMIT
_SHORT.maxother = LIMIT
_SHORT.maxlong = LIMIT
_SHORT.maxlevel = 3
for _name in ("maxlist", "maxtuple", "maxdict", "maxset", "maxfrozenset"):
    setattr(_SHORT, _name, 4)


def quote(value: Any, limit: int = LIMIT) -> str:
    """``repr(value)`` cut to about ``limit`` characters ("…" marks a cut): for messages."""
    if isinstance(value, str):
        return repr(value[:limit]) + ("…" if len(value) > limit else "")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a {value.bit_length()}-bit number"
    try:
        return _SHORT.repr(value)
    except (ValueError, RecursionError):  # e.g. an integer past Python's digit limit
        return f"a {type(value).__name__}"


def name_of(key: Any, limit: int = LIMIT) -> str:
    """A field or option name from the input, as a message shows it: as it is when short and
    printable, else quoted and cut."""
    if isinstance(key, str) and len(key) <= limit and key.isprintable():
        return key
    return quote(key, limit)
