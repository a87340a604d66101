"""Hashed game records: proof that a change leaves play untouched, action for action.

For every ruleset and every bot of the ladder, four copies of the bot play fixed seeds through
the table loop exactly as the arena does (``Match`` + ``TableDriver`` on an instant table +
``play_bots``), in matches of ``--match-hands`` hands so that the carry pool, the dealer's
rotation and the round wind are exercised too. Each hand contributes its game record (options,
actions, settlement), every engine event, every seat's and a spectator's final view, and every
message the table sent to each seat; each match its state between hands. One SHA-256 over all
of it is printed per (table, bot), with the number of hands and how many were won:

    python -m bench.record_digest            # the full run (a few hundred hands per line)
    python -m bench.record_digest --quick    # twenty hands per line, for a quick check

Run it before and after a refactoring: the output must not change. ``--each`` also prints one
digest per hand, to find the first hand that differs. The tables are the two rulesets with
their default options and each with a set of house options that takes the other branches
(discard wins, a lower 三摊 threshold, no 翻牌 specials...).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from typing import Any

from baida.bots.arena import engine_seed
from baida.bots.policy import make_bot
from baida.engine.match import Match
from baida.table import TableDriver, TableTiming, bot_modes, play_bots

BOTS = ("random", "greedy", "efficient", "strong", "expert")
# (label, ruleset, options): the default tables, and house options taking the other branches
TABLES: tuple[tuple[str, str, dict[str, Any] | None], ...] = (
    ("jiaxing", "jiaxing", None),
    ("wenling", "wenling", None),
    ("jiaxing-house", "jiaxing", {
        "allow_discard_win": True,
        "discard_win_payment": "discarder_three_shares",
        "santan_threshold": 2,
        "dealer_keeps_on_draw": False,
        "dihu_mode": "dealer_first_discard",
        "require_pattern": False,
        "wall_reserve": 14,
    }),
    ("wenling-house", "wenling", {
        "flower_flip_specials": False,
        "sheng_chow_rule": "all_three",
        "baosanjia_exemption": False,
        "huangpai_pairs": 4,
        "rob_payment": "robbed",
    }),
)
HOUSE_BOTS = ("random", "greedy", "strong")  # the house tables are played by these
FULL_HANDS = 240
QUICK_HANDS = 20
SEED_BASE = 910_000  # arena seed of the first hand (apart from the arena's usual 0...)
SEATS: tuple[int | None, ...] = (0, 1, 2, 3, None)


def canonical(value: Any) -> bytes:
    """A stable byte form of plain JSON data."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def _messages(driver: TableDriver) -> dict[str, list[Any]]:
    """The messages the table sent since the last call, by recipient (a set's order is not
    stable across processes, so recipients are keyed, not interleaved)."""
    out: dict[str, list[Any]] = {}
    for recipient, message in driver.drain():
        out.setdefault(str(recipient), []).append(message)
    return out


def play_match(
    ruleset: str, options: dict[str, Any] | None, bots: list[str], first: int, hands: int
) -> Iterator[dict[str, Any]]:
    """Play one match of ``hands`` hands from arena seed ``first`` on; yield what each hand
    leaves behind, as plain JSON data."""
    match = Match(ruleset, options, hands=hands)
    driver = TableDriver(match, timing=TableTiming.instant(), modes=bot_modes(None))
    driver.listeners = set(SEATS)
    for index in range(hands):
        seed = first + index
        policies = [make_bot(name, seed=seed * 16 + s) for s, name in enumerate(bots)]
        rnd = driver.start_hand(engine_seed(seed), 0.0)
        play_bots(driver, policies)
        driver.advance(0.0)
        assert rnd.ended and rnd.result is not None, f"seed {seed}: the hand did not end"
        yield {
            "seed": seed,
            "record": rnd.record(),
            "events": [event.to_json() for event in rnd.events],
            "views": [rnd.view(seat).to_json() for seat in SEATS],
            "messages": _messages(driver),
            "match": match.state() | {"shown": match.to_json()},
            "won": rnd.result.outcome == "win",
        }


def digest(
    ruleset: str,
    options: dict[str, Any] | None,
    bot: str,
    hands: int,
    match_hands: int,
    each: bool = False,
) -> tuple[str, int, int]:
    """(SHA-256 hex, hands, wins) of ``hands`` hands of four ``bot``s at one table."""
    total = hashlib.sha256()
    wins = played = 0
    for first in range(SEED_BASE, SEED_BASE + hands, match_hands):
        count = min(match_hands, SEED_BASE + hands - first)
        for hand in play_match(ruleset, options, [bot] * 4, first, count):
            wins += hand.pop("won")
            data = canonical(hand)
            total.update(hashlib.sha256(data).digest())
            played += 1
            if each:
                print(f"    seed {hand['seed']}: {hashlib.sha256(data).hexdigest()[:16]}")
    return total.hexdigest(), played, wins


def line(label: str, bot: str, sha: str, played: int, wins: int) -> str:
    """One line of the output: table, bot, hands, hands won, digest."""
    return f"{label:<13} {bot:<9} {played:>4} {wins:>4}  {sha}"


def rows(hands: int) -> Iterator[tuple[str, str, dict[str, Any] | None, str]]:
    """(label, ruleset, options, bot) of every digest line, in print order."""
    for label, ruleset, options in TABLES:
        for bot in BOTS if options is None else HOUSE_BOTS:
            yield label, ruleset, options, bot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.record_digest",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK_HANDS} hands per line instead of {FULL_HANDS}")
    parser.add_argument("--hands", type=int, help="hands per line (overrides --quick)")
    parser.add_argument("--match-hands", type=int, default=4, help="hands per match (4)")
    parser.add_argument("--only", help="only the lines whose table or bot is this")
    parser.add_argument("--each", action="store_true", help="also print a digest per hand")
    args = parser.parse_args(argv)
    hands = args.hands or (QUICK_HANDS if args.quick else FULL_HANDS)
    if hands < 1 or args.match_hands < 1:
        parser.error("--hands and --match-hands are at least 1")
    start = time.perf_counter()
    print("# table       bot      hands wins  SHA-256 of the records, events, views and messages")
    for label, ruleset, options, bot in rows(hands):
        if args.only and args.only not in (label, bot):
            continue
        sha, played, wins = digest(ruleset, options, bot, hands, args.match_hands, args.each)
        print(line(label, bot, sha, played, wins), flush=True)
    print(f"# {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
