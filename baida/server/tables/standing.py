"""The hall's standing tables: the operator's numbered rows of tables of each ruleset, and
their numbers, split between 吃 and no 吃 where the ruleset's hall does so."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from baida import rulesets

from .config import ConfigError, TableConfig, new_table_refusal


@dataclass(frozen=True, slots=True)
class StandingTables:
    """A row of the hall's numbered tables of one ruleset (stakes, 底分, fee, length).

    The rows of a ruleset share one sequence of table numbers; ``standing_configs`` numbers
    them so that, in Jiaxing, the first half of the numbers allow 吃 and the second half
    forbid it, as the rule documents' hall does."""

    ruleset: str
    count: int
    stakes: str = "silver"
    base: int = 1
    fee: int = 1
    escape_penalty: int = 20
    rounds: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    def config(self, allow_chi: bool | None) -> TableConfig:
        """One table of this row (``allow_chi``: None leaves the ruleset's default)."""
        options: dict[str, Any] = {}
        if allow_chi is not None:
            options["allow_chi"] = allow_chi
        obj: dict[str, Any] = {
            "ruleset": self.ruleset,
            "options": options,
            "stakes": self.stakes,
            "base": self.base,
            "rounds": self.rounds,
            **self.extra,
        }
        if self.stakes == "silver":
            obj["fee"] = self.fee
            obj["escape_penalty"] = self.escape_penalty
        cfg = TableConfig.from_json(obj)
        refusal = new_table_refusal(cfg)
        if refusal is not None:
            raise ConfigError(f"standing tables: {refusal}")
        return cfg


# Rulesets whose hall splits its numbers between 吃 and no 吃. The Jiaxing document (seed 000,
# 硬自摸和吃牌选择) says: 一个游戏大厅被分为二个区域，前一半桌号允许吃牌，后一半桌号禁止吃牌.
# Wenling's documents make 吃 (from the player before you) a rule of the game, with no choice.
CHI_SPLIT = frozenset(r.name for r in rulesets.rulesets() if r.claims_by_option)


def standing_configs(rows: tuple[StandingTables, ...]) -> list[tuple[int, TableConfig]]:
    """(number, config) of every standing table. The numbers run per ruleset across all its
    rows (1..N); in a ruleset of ``CHI_SPLIT`` numbers 1..ceil(N/2) allow 吃 and the rest
    forbid it, and every row (银子, 积分...) has tables on both sides, in proportion."""
    out: list[tuple[int, TableConfig]] = []
    for ruleset in dict.fromkeys(r.ruleset for r in rows):
        mine = [r for r in rows if r.ruleset == ruleset]
        if ruleset not in CHI_SPLIT:
            number = 0
            for row in mine:
                for _ in range(row.count):
                    number += 1
                    out.append((number, row.config(None)))
            continue
        total = sum(r.count for r in mine)
        chi_numbers = iter(range(1, (total + 1) // 2 + 1))
        plain_numbers = iter(range((total + 1) // 2 + 1, total + 1))
        seen = 0
        for row in mine:
            # the row's share of the first half: rounding the running total keeps the halves
            chi = (seen + row.count + 1) // 2 - (seen + 1) // 2
            seen += row.count
            out.extend((next(chi_numbers), row.config(True)) for _ in range(chi))
            out.extend((next(plain_numbers), row.config(False)) for _ in range(row.count - chi))
    return out


DEFAULT_STANDING = (
    StandingTables("jiaxing", 12),
    StandingTables("wenling", 6),
    StandingTables("jiaxing", 4, stakes="points", base=1),
    StandingTables("wenling", 2, stakes="points", base=1),
)
