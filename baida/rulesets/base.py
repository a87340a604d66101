"""What a ruleset is: the ``Ruleset`` base class, and the registry of rulesets by name.

A ruleset is one class (``jiaxing.Jiaxing``, ``wenling.Wenling``) holding every fact and policy
in which the variants differ, as python-chess holds a chess variant: class attributes for the
facts (tiles, hand size, sets, flowers, liability...), methods for what depends on the table's
options (how the wilds are chosen, where the draws stop, whether 吃 or a win on a discard is
allowed), and the ruleset's scorer and options class. Code that plays, scores, shows or bots a
hand asks the object (``rules.sets``, ``rules.draw_floor(options)``); it never compares a name.
A name is looked up once, where it comes in (a record, a request, a command-line flag):
``ruleset("jiaxing")``.

The class sits above ``scoring`` (it holds the scorer) and below ``engine`` (which asks it); the
engine's own hooks for a ruleset (``engine.jiaxing.JiaxingRound``) say which ruleset class they
play (``plays = Jiaxing``), so a subclass of ``Jiaxing`` that changes one fact plays with them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from functools import lru_cache
from typing import Any, ClassVar, TypeVar

from ..quote import quote
from ..rules.options import OptionError, Options, OptionsClass, build_options
from ..scoring.request import ScoreRequest
from ..tiles import FLOWERS, NUM_KINDS

Scorer = Callable[[ScoreRequest], dict[str, Any]]
T = TypeVar("T")
_NONE: Any = object()


class RulesetError(ValueError):
    """A name that is no registered ruleset."""


class Ruleset:
    """The facts and policies of one ruleset. Subclass it, set every fact, register it."""

    # -- who it is
    name: ClassVar[str]  # as records, views, requests and the command line write it
    title: ClassVar[str]  # in messages: "Jiaxing"
    options_class: ClassVar[OptionsClass]  # its rule options (``baida.rules.options``)
    option_prefix: ClassVar[str]  # as RULES.md §9 writes its options: "jx."

    # -- tiles and hands
    flowers: ClassVar[bool]  # the eight flowers are in the wall (144 tiles, else 136)
    sets: ClassVar[int]  # sets a complete hand makes besides its pair (4 or 5)
    wild_name: ClassVar[str]  # what a wild is called: 百搭, 得

    # -- play
    round_wind: ClassVar[bool]  # a 风圈 that moves on when the deal has gone round
    carry_pool: ClassVar[bool]  # a 黄番 pool carried from hand to hand
    discard_wins: ClassVar[bool]  # a win on a discard is part of the game (not an option)
    claims_by_option: ClassVar[bool]  # 吃 and a win on a discard are each table's choice
    last_discard_wins: ClassVar[bool]  # when no draw is left, the last discard may be won on
    lazi: ClassVar[bool]  # 腊子 hands are declared
    wild_discard_forfeits: ClassVar[bool]  # a seat that discards a wild can no longer win

    # -- liability: who pays for another
    santan: ClassVar[bool]  # 三摊: a third claim between two seats makes them 承包方
    baosanjia: ClassVar[bool]  # 包三家: a 生牌 won on late in the hand pays for all three

    # -- scoring
    unit: ClassVar[str]  # what a win scores: "tai" (台, paid as shares) or "he" (和 points)
    base_scales: ClassVar[bool]  # payments are multiples of the table's 底分 (base)
    request_fields: ClassVar[tuple[str, ...]]  # its scoring input fields (SCORING_API.md)
    nonwinner_size: ClassVar[int | None]  # a non-winner's hand in the input, if it is given

    # -- the bots' notes
    pattern_needed: ClassVar[bool]  # a win needs a pattern (台头和), not just any shape
    patterns: ClassVar[frozenset[str]]  # the pattern targets a hand may aim for
    least_win: ClassVar[float]  # the least a win is worth to each payer, in the bots' unit

    # ------------------------------------------------------------------ derived facts

    @property
    def hand_size(self) -> int:
        """Tiles dealt to each seat (the dealer takes one more): 13 or 16."""
        return 3 * self.sets + 1

    @property
    def winning_size(self) -> int:
        """Tiles of a winning hand, a kong counting 3."""
        return 3 * self.sets + 2

    def tiles(self) -> list[int]:
        """The canonical ordered tile set: kinds 0-33 four copies each, then the flowers."""
        out = [kind for kind in range(NUM_KINDS) for _ in range(4)]
        if self.flowers:
            out.extend(FLOWERS)
        return out

    # ------------------------------------------------------------------ policies by option

    def choose_wilds(self, indicator: int, options: Options) -> tuple[frozenset, frozenset]:
        """(wild kinds, special kinds) for the flipped ``indicator``."""
        raise NotImplementedError

    def draw_floor(self, options: Options) -> int:
        """Draws (normal or replacement) stop when this many tiles are left in the wall."""
        raise NotImplementedError

    def allows_chi(self, options: Options) -> bool:
        """Whether 吃 may be claimed at this table."""
        return True

    def allows_discard_win(self, options: Options) -> bool:
        """Whether a win on a discard is offered at this table."""
        return self.discard_wins

    def default_rounds(self, options: Options) -> int:
        """Rounds a match plays when neither hands nor rounds are given."""
        return 1

    def dealer_passes_on_draw(self, options: Options) -> bool:
        """Whether the deal passes on after a hand nobody wins."""
        return True

    # ------------------------------------------------------------------ options

    def make_options(self, given: dict[str, Any] | None) -> Options:
        """Validate ``given`` (names without prefix) as this ruleset's options."""
        elsewhere, prefixes = _others(self.options_class, rulesets())
        return build_options(self.options_class, given, self.title, elsewhere, prefixes)

    def view_options(self, given: Any) -> Options:
        """The options a view shows, as an options object: what a bot reads (the defaults when
        the view shows none, or ones that do not validate). Remembered: a table's views show
        the same options all match long."""
        try:
            key = tuple(given.items()) if given else ()
            return _view_options(self, key)
        except TypeError:  # not a mapping, or a value that cannot be a key
            return self.options_class()

    def resolve_options(self, options: Any) -> Options:
        """Options given as None, a dict (validated) or an options object of this ruleset."""
        if options is None or isinstance(options, dict):
            return self.make_options(options)
        if not isinstance(options, self.options_class):
            raise OptionError(f"options: not {self.name} options: {type(options).__name__}")
        return options

    # ------------------------------------------------------------------ scoring

    def score(self, req: ScoreRequest) -> dict[str, Any]:
        """Settle one well-formed request with this ruleset's scorer (SCORING_API.md)."""
        raise NotImplementedError

    def catalogue(self, options: Options) -> list[dict[str, Any]]:
        """Every item the scorer can award, by group, as data for people: ids, names in
        Chinese and English, meaning, value, and what this table's options say
        (``baida.scoring.catalogue``)."""
        raise NotImplementedError

    def awardable(self) -> dict[str, tuple[str, ...]]:
        """The item names the scorer can write, by group, read from its own tables."""
        raise NotImplementedError

    def catalogue_entries(self) -> dict[str, dict[str, Any]]:
        """The catalogue's entries by group, keyed by the name the scorer writes."""
        raise NotImplementedError

    def fill_request(self, req: ScoreRequest, obj: dict[str, Any]) -> None:
        """Read this ruleset's fields of a JSON scoring input into ``req``."""
        raise NotImplementedError

    def check_request(self, req: ScoreRequest) -> None:
        """This ruleset's checks of a parsed input (``ScoreInputError`` when malformed)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ plumbing

    def pick(self, table: Mapping[type[Ruleset], T], default: Any = _NONE) -> T:
        """The entry of ``table`` for this ruleset's class or its nearest ancestor (else
        ``default``): how a layer above keeps its own parts per ruleset (the engine's round
        classes, the bots' measured tables), so that a variant finds its parent's."""
        for klass in type(self).__mro__:
            if klass in table:
                return table[klass]  # type: ignore[index]
        if default is not _NONE:
            return default
        raise RulesetError(f"nothing here is made for {quote(self.name)}")

    def __repr__(self) -> str:
        return f"<ruleset {self.name}>"


@lru_cache(maxsize=64)
def _others(
    own: OptionsClass, registered: tuple[Ruleset, ...]
) -> tuple[dict[str, str], tuple[str, ...]]:
    """The other rulesets' options (name -> their title) and every option prefix."""
    elsewhere: dict[str, str] = {}
    for other in registered:
        if other.options_class is not own:
            for f in fields(other.options_class):
                elsewhere.setdefault(f.name, other.title)
    return elsewhere, tuple(r.option_prefix for r in registered)


@lru_cache(maxsize=256)
def _view_options(rules: Ruleset, key: tuple[tuple[Any, Any], ...]) -> Options:
    try:
        return rules.make_options(dict(key) if key else None)
    except (OptionError, TypeError, ValueError):
        return rules.options_class()


# ---------------------------------------------------------------------- the registry

_REGISTERED: dict[str, Ruleset] = {}


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Make ``cls`` known by its name (``baida.rulesets`` registers the built-in ones)."""
    if not getattr(cls, "name", ""):
        raise RulesetError(f"{cls.__name__} has no name")
    _REGISTERED[cls.name] = cls()
    return cls


def unregister(name: str) -> None:
    """Forget a registered ruleset (a test's own)."""
    _REGISTERED.pop(name, None)


def rulesets() -> tuple[Ruleset, ...]:
    """Every registered ruleset, in registration order."""
    return tuple(_REGISTERED.values())


def names() -> tuple[str, ...]:
    """The names of the registered rulesets, in registration order."""
    return tuple(_REGISTERED)


def expected_names() -> str:
    """The names as a message lists them: ``'jiaxing' or 'wenling'``."""
    return " or ".join(quote(name) for name in _REGISTERED)


def ruleset(name: Any) -> Ruleset:
    """The registered ruleset called ``name``; ``RulesetError`` names the known ones."""
    found = _REGISTERED.get(name) if isinstance(name, str) else None
    if found is None:
        raise RulesetError(f"unknown ruleset {quote(name)}; expected {expected_names()}")
    return found


def as_ruleset(value: str | Ruleset) -> Ruleset:
    """A ruleset given by name or as itself."""
    return value if isinstance(value, Ruleset) else ruleset(value)
