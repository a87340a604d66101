"""Display names: validation, normalisation, the key that makes them unique and the
look-alike check (``skeletons``)."""

from __future__ import annotations

import unicodedata

from .errors import InvalidRequest, NameTaken
from .skeletons import skeleton

MIN_LENGTH = 2
MAX_LENGTH = 16
MAX_MARKS = 3  # combining marks on one letter (Vietnamese and Thai need two or three)
_PUNCTUATION = frozenset("_-")
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) that are not format,
# control or unassigned characters (those are refused anyway): the Hangul fillers render as
# nothing ("\u1160\u1160" is a blank name), the rest are joiners and variation selectors.
_IGNORABLE = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xE0100, 0xE01EF),
)
# Words no display name may be, with digits, '_' and '-' taken away and looks compared: what
# the lobby calls a bot seat, what guests are called (游客1234), the operator.
RESERVED = ("bot", "机器人", "guest", "游客", "admin", "管理员")


class InvalidName(InvalidRequest):
    """A display name that breaks a rule; the message names the rule, for the player.
    ``code`` names the rule for clients that translate it."""

    def __init__(self, message: str, code: str = "name_invalid") -> None:
        super().__init__(message)
        self.code = code


class NameLookalike(NameTaken):
    """The name looks like another account's name (the same TR 39 skeleton)."""

    code = "name_lookalike"


def _describe(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def _ignorable(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in _IGNORABLE)


def _check_marks(name: str) -> None:
    run = 0
    for char in name:
        run = run + 1 if unicodedata.category(char).startswith("M") else 0
        if run > MAX_MARKS:
            raise InvalidName(f"a name may put at most {MAX_MARKS} accents or other combining "
                              f"marks on one letter", "name_marks")


def _core(key: str) -> str:
    """A key without its digits, '_' and '-': what is compared with the reserved words."""
    return "".join(c for c in key if c not in _PUNCTUATION and unicodedata.category(c) != "Nd")


_RESERVED_SKELETONS: dict[str, str] = {}  # skeleton -> the reserved word, filled on first use


def _check_reserved(name: str) -> None:
    if not _RESERVED_SKELETONS:
        _RESERVED_SKELETONS.update({skeleton(name_key(w)): w for w in RESERVED})
    word = _RESERVED_SKELETONS.get(skeleton(_core(name_key(name))))
    if word is not None:
        raise InvalidName(f"a name cannot be the reserved word {word!r} (nor that word with "
                          f"digits, '_' or '-', nor a look-alike of it)", "name_reserved")


def normalize_name(raw: object) -> str:
    """The NFKC form of a valid display name; ``InvalidName`` says what is wrong otherwise
    (``check_new_name`` adds the rules for names given now, not those already held)."""
    if not isinstance(raw, str):
        raise InvalidName("a name must be text")
    name = unicodedata.normalize("NFKC", raw)
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs", "Cn") or _ignorable(char):
            raise InvalidName(f"a name cannot contain invisible or control characters "
                              f"({_describe(char)})", "name_invisible")
    if not name.strip():
        raise InvalidName("a name cannot be empty", "name_empty")
    if name != name.strip():
        raise InvalidName("a name cannot begin or end with a space")
    if any(unicodedata.category(char).startswith("Z") for char in name):
        raise InvalidName("a name cannot contain spaces")
    if unicodedata.category(name[0]).startswith("M"):
        raise InvalidName("a name cannot begin with a combining mark", "name_marks")
    for char in name:
        category = unicodedata.category(char)
        if not (category[0] in "LM" or category == "Nd" or char in _PUNCTUATION):
            raise InvalidName(f"a name may hold letters, digits, '_' and '-' only, "
                              f"not {char!r}")
    if len(name) < MIN_LENGTH:
        raise InvalidName(f"a name needs at least {MIN_LENGTH} characters", "name_length")
    if len(name) > MAX_LENGTH:
        raise InvalidName(f"a name has at most {MAX_LENGTH} characters, this one has "
                          f"{len(name)}", "name_length")
    _check_marks(name)
    return name


def check_new_name(raw: object) -> str:
    """``normalize_name`` and the rules for a name a player chooses: no reserved word."""
    name = normalize_name(raw)
    _check_reserved(name)
    return name


def name_key(name: str) -> str:
    """What two names must differ in to be different names (case-insensitive)."""
    return unicodedata.normalize("NFKC", name.casefold())


def name_skeleton(name: str) -> str:
    """What two names must differ in to look different: the TR 39 skeleton of the name, then
    of its key (so "admiraI" with a capital I is "admiral", and "ADMIRAL" is too)."""
    return skeleton(name_key(skeleton(unicodedata.normalize("NFKC", name))))
