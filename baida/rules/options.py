"""Rule options of both rulesets, named and valued as in RULES.md §9, and their validation.

Each ruleset validates its options with ``build_options`` (``baida.rulesets``: ``ruleset(name)
.make_options(given)``); ``jiaxing_options`` and ``wenling_options`` serve code that knows
which ruleset it holds.

>>> jiaxing_options({"allow_chi": False}).allow_chi
False
>>> try:
...     jiaxing_options({"flower_flip_specials": True})
... except OptionError as error:
...     print(error)
options.flower_flip_specials: not a Jiaxing option (it is Wenling's)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..quote import name_of, quote


class OptionError(ValueError):
    """An unknown option or a value that the option does not take."""


@dataclass(frozen=True, slots=True)
class JiaxingOptions:
    """嘉兴台头和 options (RULES.md §9, J-A items); defaults are the recommended ones."""

    allow_chi: bool = True
    allow_discard_win: bool = False
    discard_win_payment: str = "discarder_one_share"
    winner_bonus_points: int = 0
    dealer_keeps_on_draw: bool = True
    dandiao_mode: str = "structural"
    wild_as_self_is_natural: bool = False
    qlt_stacks_with_ddh: bool = True
    require_pattern: bool = True
    wild_honor_triplet_tai: bool = True
    wild_fifth_copy: bool = True
    qianggang_forbid: str = "both"
    rob_with_chengbao: str = "absorb"
    santan_enabled: bool = True
    santan_threshold: int = 3
    gaveup_can_win: bool = False
    carry_fans_enabled: bool = True
    carry_tokens_on_draw: bool = True
    carry_on_tian_di: bool = True
    dihu_mode: str = "first_draw"
    wall_reserve: int = 0
    rounds: int = 4


@dataclass(frozen=True, slots=True)
class WenlingOptions:
    """温岭麻将 options (RULES.md §9, W-A items); defaults are the recommended ones."""

    flower_flip_specials: bool = True
    nonwinner_base20: bool = True
    nonwinner_seat_flower: bool = False
    nonwinner_de: str = "sifeng_only"
    nonwinner_sifeng_lazi: bool = True
    baosanjia_exemption: bool = True
    sheng_chow_rule: str = "claimed_tile"
    huangpai_pairs: int = 8
    gangkai_on_flower: bool = False
    ron_triplet_concealed: bool = True
    panghe_selfdraw_only: bool = False
    rob_payment: str = "all"
    special_four_lazi: bool = True


# The allowed strings of the string options; ints carry their minimum and maximum.
CHOICES: dict[str, tuple[str, ...]] = {
    "discard_win_payment": ("discarder_one_share", "discarder_three_shares"),
    "dandiao_mode": ("structural", "pair_wait"),
    "qianggang_forbid": ("both", "universal_wait", "wild_pair"),
    "rob_with_chengbao": ("absorb", "additive"),
    "dihu_mode": ("first_draw", "dealer_first_discard"),
    "nonwinner_de": ("sifeng_only", "full"),
    "sheng_chow_rule": ("claimed_tile", "all_three"),
    "rob_payment": ("all", "robbed"),
}
MINIMUM: dict[str, int] = {
    "winner_bonus_points": 0,
    "santan_threshold": 1,
    "wall_reserve": 0,
    "rounds": 1,
    "huangpai_pairs": 0,
}
MAXIMUM: dict[str, int] = {  # far above any real table; a number has to end somewhere
    "winner_bonus_points": 1_000_000,
    "santan_threshold": 100,
    "wall_reserve": 100,
    "rounds": 100,
    "huangpai_pairs": 100,
}

Options = JiaxingOptions | WenlingOptions
OptionsClass = type[JiaxingOptions] | type[WenlingOptions]


def _check_value(name: str, value: Any, default: Any) -> Any:
    where = f"options.{name}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise OptionError(f"{where}: expected true or false, got {quote(value)}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"{where}: expected an integer, got {quote(value)}")
        if value < MINIMUM[name]:
            raise OptionError(f"{where}: must be at least {MINIMUM[name]}, got {quote(value)}")
        if value > MAXIMUM[name]:
            raise OptionError(f"{where}: must be at most {MAXIMUM[name]}, got {quote(value)}")
        return value
    allowed = CHOICES[name]
    if value not in allowed:
        expected = ", ".join(map(repr, allowed))
        raise OptionError(f"{where}: expected one of {expected}, got {quote(value)}")
    return value


def build_options(
    cls: OptionsClass,
    given: dict[str, Any] | None,
    title: str,
    elsewhere: Mapping[str, str] | None = None,
    prefixes: Sequence[str] = (),
) -> Options:
    """Validate ``given`` (names without prefix) as options of class ``cls``.

    ``title`` names the ruleset in messages; ``elsewhere`` maps the options of other rulesets
    to their title (for "it is Wenling's"); ``prefixes`` are the RULES.md §9 prefixes
    ("jx.", "wl.") that a name must be written without. ``baida.rulesets`` passes all three.
    """
    if given is None:
        return cls()
    if not isinstance(given, dict):
        raise OptionError(f"options: expected an object, got {type(given).__name__}")
    defaults = {f.name: f.default for f in fields(cls)}
    values: dict[str, Any] = {}
    for name, value in given.items():
        if name not in defaults:
            shown = name_of(name)
            if isinstance(name, str) and prefixes and name.startswith(tuple(prefixes)):
                raise OptionError(
                    f"options.{shown}: write options without the {quote(name[:3])} prefix"
                    f" (for example {quote(name[3:])})"
                )
            owner = (elsewhere or {}).get(name) if isinstance(name, str) else None
            if owner is not None:
                raise OptionError(f"options.{shown}: not a {title} option (it is {owner}'s)")
            raise OptionError(f"options.{shown}: unknown option for {title}")
        values[name] = _check_value(name, value, defaults[name])
    return cls(**values)


_PREFIXES = ("jx.", "wl.")


def jiaxing_options(given: dict[str, Any] | None = None) -> JiaxingOptions:
    """Jiaxing options from ``given`` (validated), for code that knows its ruleset."""
    elsewhere = {f.name: "Wenling" for f in fields(WenlingOptions)}
    result = build_options(JiaxingOptions, given, "Jiaxing", elsewhere, _PREFIXES)
    assert isinstance(result, JiaxingOptions)
    return result


def wenling_options(given: dict[str, Any] | None = None) -> WenlingOptions:
    """Wenling options from ``given`` (validated), for code that knows its ruleset."""
    elsewhere = {f.name: "Jiaxing" for f in fields(JiaxingOptions)}
    result = build_options(WenlingOptions, given, "Wenling", elsewhere, _PREFIXES)
    assert isinstance(result, WenlingOptions)
    return result


def options_to_json(options: Options) -> dict[str, Any]:
    """The options as a plain object (every option, defaults included)."""
    return {f.name: getattr(options, f.name) for f in fields(options)}
