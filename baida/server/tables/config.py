"""A table's settings, validated from what a player or the operator asked for."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from baida import rulesets

from ...rules.options import OptionError, options_to_json
from ...table import TableTiming, TimingError

RULESETS = rulesets.names()
STAKES = ("points", "silver")
MAX_BASE = 1000
MAX_HANDS = 64
MAX_ROUNDS = 4


class ConfigError(ValueError):
    """A table setting that cannot be used; the message names it."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What kind of game a table plays. ``base`` is the 底分 (Jiaxing: per 台; Wenling: the
    stake per point); at a 银子 table payments are 银子 and each person pays ``fee`` per hand."""

    ruleset: str = "jiaxing"
    options: dict[str, Any] = field(default_factory=dict)  # every rule option, validated
    base: int = 1
    fee: int = 0
    stakes: str = "points"
    hands: int | None = None
    rounds: int | None = 1
    private: bool = False
    timing: TableTiming = field(default_factory=TableTiming)
    bot: str = "strong"
    escape_penalty: int = 0  # 银子 an escaper pays the others, on top of the hand

    @property
    def min_balance(self) -> int:
        """The 银子 a person needs to sit at this table."""
        return 0 if self.stakes == "points" else 20 * self.base + self.fee

    def badges(self) -> list[str]:
        """Short labels for the lobby: 吃/不吃, 硬自摸/抓铳, stakes, 底分, length, private,
        and ``uniform_window`` (the table waits the whole claim window after every discard)."""
        out = [self.ruleset]
        if rulesets.ruleset(self.ruleset).claims_by_option:
            out.append("chi" if self.options.get("allow_chi", True) else "no_chi")
            out.append("discard_win" if self.options.get("allow_discard_win") else "self_draw")
        out.append(self.stakes)
        out.append(f"base:{self.base}")
        out.append(f"hands:{self.hands}" if self.hands else f"rounds:{self.rounds}")
        if self.private:
            out.append("private")
        if self.timing.uniform_window:
            out.append("uniform_window")  # every discard waits the whole claim window
        return out

    def length_json(self) -> dict[str, Any]:
        return {"hands": self.hands, "rounds": self.rounds}

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["timing"] = self.timing.to_json()
        return out

    @classmethod
    def from_json(cls, obj: Any) -> TableConfig:
        """Validate a request (or a stored config); unknown fields are errors."""
        if not isinstance(obj, dict):
            raise ConfigError("a table config is a JSON object")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(obj) - known)
        if unknown:
            raise ConfigError(f"unknown table setting: {_short(unknown[0])}")
        ruleset = obj.get("ruleset", "jiaxing")
        if ruleset not in RULESETS:
            raise ConfigError(f"ruleset: {rulesets.expected_names()}, got {_short(ruleset)}")
        try:
            rules = rulesets.ruleset(ruleset)
            options = options_to_json(rules.make_options(obj.get("options") or {}))
        except OptionError as exc:
            raise ConfigError(str(exc)) from None
        stakes = obj.get("stakes", "points")
        if stakes not in STAKES:
            raise ConfigError(f"stakes: 'points' or 'silver', got {_short(stakes)}")
        base = _int(obj, "base", 1, 1, MAX_BASE)
        fee = _int(obj, "fee", 0, 0, 10 * MAX_BASE)
        penalty = _int(obj, "escape_penalty", 0, 0, 1000 * MAX_BASE)
        hands = obj.get("hands")
        rounds = obj.get("rounds", 1 if hands is None else None)
        if hands is not None:
            hands = _int(obj, "hands", 1, 1, MAX_HANDS)
        if rounds is not None:
            rounds = _int(obj, "rounds", 1, 1, MAX_ROUNDS)
        if (hands is None) == (rounds is None):
            raise ConfigError("length: give either hands or rounds")
        private = obj.get("private", False)
        if not isinstance(private, bool):
            raise ConfigError("private: true or false")
        timing_in = obj.get("timing") or {}
        if isinstance(timing_in, TableTiming):
            timing = timing_in
        elif isinstance(timing_in, dict):
            allowed = set(TableTiming.__dataclass_fields__)
            bad = sorted(set(timing_in) - allowed)
            if bad:
                raise ConfigError(f"unknown timing setting: {_short(bad[0])}")
            try:
                timing = TableTiming(**timing_in)
            except TimingError as exc:
                raise ConfigError(str(exc)) from None
        else:
            raise ConfigError("timing: a JSON object")
        bot = obj.get("bot", "strong")
        if not isinstance(bot, str):
            raise ConfigError("bot: a bot name")
        from ...bots.policy import bot_names

        if bot not in bot_names():
            raise ConfigError(f"bot: unknown bot {_short(bot)}")
        if stakes == "points" and (fee or penalty):
            raise ConfigError("fee and escape_penalty apply to 银子 tables only")
        return cls(ruleset, options, base, fee, stakes, hands, rounds, private, timing, bot,
                   penalty)


def new_table_refusal(cfg: TableConfig) -> str | None:
    """Why a new table (a player's or the operator's) may not be made with ``cfg``, beyond
    what ``from_json`` checks (None: it may). Only new tables: a stored one is opened as it is.

    At a 银子 table every hand's payments must sum to 0 (the ledger moves 银子 from losers to
    winners and takes nothing from the house), so the house's bonus to every winner
    (``winner_bonus_points``, a platform reward in one rule document) is for 积分 tables: at a
    银子 table the first win could not be paid, and the table stood still."""
    if cfg.stakes == "silver" and cfg.options.get("winner_bonus_points"):
        return ("options.winner_bonus_points: the house pays no bonus at a 银子 table "
                "(payments there sum to 0); use it at a 积分 table (stakes 'points')")
    return None


def _int(obj: dict[str, Any], name: str, default: int, lo: int, hi: int) -> int:
    value = obj.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ConfigError(f"{name}: a whole number from {lo} to {hi}, got {_short(value)}")
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"
