"""Measure the self-play quantities the ``expert`` bot reads.

Plays hands of four bots (``strong`` by default) from seeds away from the arena's, and prints:

* ``--measure wins`` (``baida.bots.opponents``): at every turn, for each seat, its exposed melds
  and the wall tiles left (in steps of 8); the share of those seat-turns whose seat went on to
  win the hand, as Python rows, melds 0-4 by wall step;
* ``--measure pairs`` (Jiaxing, ``expert.PAIR_CLAIMER_WIN``): when a hand's first 承包 pair forms,
  who went on to win: the seat that made the third claim, its partner, another seat, nobody;
* ``--measure own`` (Jiaxing, ``expert.JIAXING_OWN_SCALE``): at every discard, the ``expert``
  estimate of the hand's own worth before that scale, against the points the seat then won;
* ``--measure discards`` (Wenling, ``planner.DISCARD_RATIOS``): at every discard decision past
  the first third of the wall, each kind's live copies as that seat sees them, against how many
  of them the three other seats discard before its next decision; the rate per live copy over
  this seat's own chance of drawing one (1 / unseen), by category and copies seen.

    .venv/bin/python -m bench.calibrate_opponents --ruleset jiaxing --hands 600
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from baida.bots.arena import engine_seed
from baida.bots.planner import DISCARD_RATIOS, discard_category
from baida.bots.policy import make_bot
from baida.engine import Round

SEED_OFFSET = 100_000  # away from the arena's seeds, so the table is not fitted to them
WALL_STEP = 8
MIN_SAMPLES = 40  # cells with fewer seat-turns borrow from their neighbours


def collect(ruleset: str, hands: int, bot: str) -> dict[tuple[int, int], list[int]]:
    """(melds, wall step) -> [seat-turns, of which the seat won]."""
    cells: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    for index in range(hands):
        rnd = Round.from_seed(ruleset, engine_seed(SEED_OFFSET + index))
        bots = [make_bot(bot, seed=index * 4 + s) for s in range(4)]
        samples: list[tuple[int, int, int]] = []
        while not rnd.ended:
            seat = rnd.to_act[0]
            if rnd.phase == "turn":
                view = rnd.view(None).to_json()
                step = view["wall_remaining"] // WALL_STEP
                samples += [(p["seat"], len(p["melds"]), step) for p in view["players"]]
            rnd.apply(bots[seat].choose(rnd.view(seat), rnd.legal_actions(seat)))
        winner = rnd.result.winner
        for seat, melds, step in samples:
            cell = cells[(min(melds, 4), step)]
            cell[0] += 1
            cell[1] += winner == seat
    return cells


def table(cells: dict[tuple[int, int], list[int]]) -> list[list[float]]:
    """Rows by melds. A thin cell is pooled with its neighbours; one still thin then takes
    the cell one meld fewer (or, in the first row, the previous wall step)."""
    steps = max(s for _, s in cells) + 1
    rows: list[list[float]] = []
    for melds in range(5):
        row: list[float] = []
        for step in range(steps):
            n = w = 0
            for dm, ds in ((0, 0), (0, 1), (0, -1)):
                c = cells.get((melds + dm, step + ds))
                if c:
                    n, w = n + c[0], w + c[1]
                if n >= MIN_SAMPLES:
                    break
            if n >= MIN_SAMPLES:
                row.append(round(w / n, 3))
            elif melds:
                row.append(rows[-1][step])
            else:
                row.append(row[-1] if row else 0.0)
        rows.append(row)
    return rows


def _self_play(ruleset: str, index: int, bot: str, watch=None) -> Round:
    """One hand of four ``bot``; ``watch(rnd, seat, view, legal, action)`` sees each decision."""
    rnd = Round.from_seed(ruleset, engine_seed(SEED_OFFSET + index))
    bots = [make_bot(bot, seed=index * 4 + s) for s in range(4)]
    while not rnd.ended:
        seat = rnd.to_act[0]
        view, legal = rnd.view(seat), rnd.legal_actions(seat)
        action = bots[seat].choose(view, legal)
        if watch is not None:
            watch(rnd, seat, view, legal, action)
        rnd.apply(action)
    return rnd


def pairs(ruleset: str, hands: int, bot: str) -> dict[str, int]:
    """Who won the hands in which a 承包 pair formed (the first pair of each hand)."""
    out = {"pairs": 0, "claimer_won": 0, "partner_won": 0, "other_won": 0, "drawn": 0}
    for index in range(hands):
        rnd = _self_play(ruleset, index, bot)
        events = [e.to_json() for e in rnd.events]
        first = next((i for i, e in enumerate(events) if e["type"] == "santan"), None)
        if first is None:
            continue
        claimer, partner = events[first]["pair"]
        winner = rnd.result.winner
        out["pairs"] += 1
        key = (
            "drawn"
            if winner is None
            else "claimer_won"
            if winner == claimer
            else "partner_won"
            if winner == partner
            else "other_won"
        )
        out[key] += 1
    return out


def own_scale(ruleset: str, hands: int, bot: str) -> dict[str, float]:
    """Mean ``expert`` own estimate (unscaled) at each discard against the points then won."""
    from baida.bots.expert import JIAXING_OWN_SCALE, ExpertBot

    judge = ExpertBot(seed=0)
    samples: list[tuple[int, float]] = []
    won = total = 0.0
    for index in range(hands):
        notes: list[tuple[int, float]] = []

        def watch(rnd, seat, view, legal, action, notes=notes):
            if rnd.phase != "turn" or len(legal) < 2 or action.type != "discard":
                return
            chosen = next(s for s in judge.evaluate(view, legal) if s.action == action)
            notes.append((seat, chosen.parts["own"] / JIAXING_OWN_SCALE))

        rnd = _self_play(ruleset, index, bot, watch)
        for seat, own in notes:
            gain = rnd.result.payments[seat] if rnd.result.winner == seat else 0
            won, total = won + gain, total + own
        samples += notes
    n = max(1, len(samples))
    return {
        "discards": len(samples),
        "mean_own": total / n,
        "mean_won": won / n,
        "scale": won / total if total else 0.0,
    }


def discard_ratios(ruleset: str, hands: int, bot: str) -> dict[str, list[float]]:
    """Per category, per copies seen (0-3): the others' discards per live copy per turn
    cycle over this seat's own draw chance per live copy."""
    from baida.bots.features import read_view

    discarded: dict[tuple[str, int], float] = defaultdict(float)
    expected_draws: dict[tuple[str, int], float] = defaultdict(float)
    for index in range(hands):
        log: list[tuple] = []

        def watch(rnd, seat, view, legal, action, log=log):
            if action.type == "discard":
                log.append(("discard", seat, action.tile))
            if rnd.phase == "turn" and any(a.type == "discard" for a in legal):
                seen = read_view(view)
                log.append(("decide", seat, seen.live, seen.visible, seen.unseen,
                            seen.wall_remaining))

        _self_play(ruleset, index, bot, watch)
        tally_discards(log, discarded, expected_draws)
    return {
        category: [
            round(discarded[(category, v)] / expected_draws[(category, v)], 2)
            if expected_draws[(category, v)] else 0.0
            for v in range(4)
        ]
        for category in DISCARD_RATIOS
    }


def tally_discards(
    log: list[tuple],
    discarded: dict[tuple[str, int], float],
    expected_draws: dict[tuple[str, int], float],
) -> None:
    """Add one hand's log to the tallies (in place). ``log`` holds, in order of play,
    ``("discard", seat, kind)`` and ``("decide", seat, live, visible, unseen, wall)`` for every
    decision that could discard. From each decision past the first third of the wall until the
    same seat's next one, the other seats' discards of each live kind are counted, beside the
    chance of drawing one (live / unseen), by category and copies seen."""
    start_wall = max((e[5] for e in log if e[0] == "decide"), default=0)
    for i, entry in enumerate(log):
        if entry[0] != "decide" or entry[5] > start_wall * 2 // 3:
            continue
        _, seat, live, visible, unseen, _ = entry
        thrown: list[int] = []
        for later in log[i + 1:]:
            if later[0] == "decide" and later[1] == seat:
                break
            if later[0] == "discard" and later[1] != seat:
                thrown.append(later[2])
        for k in range(34):
            if live[k] <= 0:
                continue
            cell = (discard_category(k), min(3, visible[k]))
            discarded[cell] += thrown.count(k)
            expected_draws[cell] += live[k] / max(1, unseen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", choices=("jiaxing", "wenling"), required=True)
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--bot", default="strong")
    parser.add_argument("--measure", choices=("wins", "pairs", "own", "discards"), default="wins")
    args = parser.parse_args()
    print(f"# {args.ruleset}: {args.hands} hands of four {args.bot}, {args.measure}")
    if args.measure == "pairs":
        print(pairs(args.ruleset, args.hands, args.bot))
        return
    if args.measure == "own":
        print(own_scale(args.ruleset, args.hands, args.bot))
        return
    if args.measure == "discards":
        for category, row in discard_ratios(args.ruleset, args.hands, args.bot).items():
            print(f"    {category!r}: ({', '.join(str(x) for x in row)}),")
        return
    for row in table(collect(args.ruleset, args.hands, args.bot)):
        print("    (" + ", ".join(f"{x:.3f}" for x in row) + "),")


if __name__ == "__main__":
    main()
