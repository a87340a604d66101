"""Where a Wenling bot's points come from, over duplicate sets of two bots.

Plays the arena's seatings (``baida.bots.arena``: every bot in every seat of the same deal) and
splits each bot's points per hand into what it won (``win``), what it paid winners (``paid``:
the winner's T/10, or the 包三家 payment) and the settlement between non-winners
(``settle``: ``(T_self - T_other)/10`` with each other non-winner). Beside them: the win rate,
the winner's average total, how many wins carried a pattern fan (混一色, 清一色, 对对和), the
average non-winner total and its share at 250 or more (mostly three or four exposed specials),
and the melds a non-winner shows.

    .venv/bin/python -m bench.wenling_points --bots expert,strong --hands 300 --seed-start 120000
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from baida.bots.arena import BotTally, play_hand, seatings

PATTERNS = ("混一色", "清一色", "对对和")
WINDS = "ESWN"


def tally_hand(result: dict[str, Any], seating: Sequence[str], out: dict[str, Counter]) -> None:
    """Add one hand's result to the per-bot counters."""
    payments = result["payments"]
    for seat, bot in enumerate(seating):
        out[bot]["hands"] += 1
        out[bot]["points"] += payments[seat]
    if result["outcome"] != "win":
        return
    score = result["score"]
    totals = [score["totals"][WINDS[s]] for s in range(4)]
    winner, liable = result["winner"], result["liable"]
    for seat, bot in enumerate(seating):
        c = out[bot]
        if seat == winner:
            c["wins"] += 1
            c["win"] += payments[seat]
            c["win_total"] += totals[seat]
            c["pattern_wins"] += any(f["name"] in PATTERNS for f in score["fan"])
            continue
        c["losers"] += 1
        c["loser_total"] += totals[seat]
        c["loser_total_250"] += totals[seat] >= 250
        melds = result["hands"][seat]["melds"]
        c["pon"] += sum(m["type"] == "pon" for m in melds)
        c["chi"] += sum(m["type"] == "chi" for m in melds)
        c["kong"] += sum("kong" in m["type"] for m in melds)
        if liable is None:
            c["paid"] += totals[winner] / 10
            c["settle"] += payments[seat] + totals[winner] / 10
        elif seat == liable:
            c["liable"] += 1
            c["paid"] -= payments[seat]
        else:  # a liable player paid this seat's share
            c["settle"] += payments[seat]


def run(bots: Sequence[str], hands: int, seed_start: int) -> dict[str, Counter]:
    out: dict[str, Counter] = defaultdict(Counter)
    for seed in range(seed_start, seed_start + hands):
        for rotation, seating in enumerate(seatings(bots)):
            tallies = {b: BotTally() for b in bots}
            result = play_hand("wenling", seed, seating, rotation, None, tallies)
            tally_hand(result, seating, out)
    return out


def report(out: dict[str, Counter]) -> list[str]:
    head = ("bot", "pts/hand", "win", "paid", "settle", "win%", "win T", "pattern wins",
            "loser T", "loser T>=250", "pon/chi/kong per loser", "包三家")
    rows = [" | ".join(head), " | ".join("---" for _ in head)]
    for bot, c in out.items():
        n, wins, losers = c["hands"], max(1, c["wins"]), max(1, c["losers"])
        rows.append(" | ".join([
            bot,
            f"{c['points'] / n:+.2f}",
            f"{c['win'] / n:.2f}",
            f"{-c['paid'] / n:.2f}",
            f"{c['settle'] / n:+.2f}",
            f"{100 * c['wins'] / n:.1f}%",
            f"{c['win_total'] / wins:.0f}",
            f"{c['pattern_wins']} of {c['wins']}",
            f"{c['loser_total'] / losers:.1f}",
            f"{100 * c['loser_total_250'] / losers:.1f}%",
            f"{c['pon'] / losers:.2f} / {c['chi'] / losers:.2f} / {c['kong'] / losers:.2f}",
            str(c["liable"]),
        ]))
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="expert,strong")
    parser.add_argument("--hands", type=int, default=100, help="duplicate sets")
    parser.add_argument("--seed-start", type=int, default=120_000)
    args = parser.parse_args(argv)
    print("\n".join(report(run(args.bots.split(","), args.hands, args.seed_start))))


if __name__ == "__main__":
    main()
