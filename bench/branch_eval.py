"""Counterfactual decisions: what one class of a bot's decisions is worth, on the deal itself.

Four copies of a bot play a hand. At every decision of the chosen class, the hand is copied
and played to its end twice from there: once with the bot's own choice, once with the
alternative that the class names. Both branches are played by the same four bots, with the
same random state, on the same wall. The difference in the deciding seat's points
(alternative − the bot's choice) is what the alternative was worth on that deal. Averaged over
many deals, it estimates what changing that one rule would gain. The estimate is far less noisy
than an arena run of the changed bot, because everything before the decision is shared and
nothing else about the bot changes.

Classes (``--kind``):

* ``santan``: 坚持 against 放弃 (Jiaxing 三摊), whichever the bot did not choose (grouped by
  ``expert``'s value of 坚持);
* ``third``: a claim that would make the seat a 承包方 (Jiaxing), against passing, or passing
  against the claim the bot made;
* ``claim``: an ordinary 碰/吃 against passing, the same way;
* ``discard:NAME``: the bot's discard against bot NAME's, where the two differ;
* ``any:NAME``: any decision (a discard, a claim or a pass, a kong, 坚持 or 放弃) where bot
  NAME would choose otherwise, against NAME's choice (grouped by the two choices' types). With
  NAME a variant of the bot, this is what the variant's rule is worth where it applies. When
  NAME is a ``search``, each group is split by how clear the search's confirmed lead was (in
  standard errors of its fresh worlds).

With ``--others NAME`` two seats are played by bot NAME instead (alternating with the bot's, as
the arena seats two bots), and only the bot's own decisions are branched: what a choice is
worth against the opponent the arena measures it against.

Where the alternative is one of several claims, it is the one ``expert`` values highest.
Results are grouped by what the bot chose (for claims, whether ``expert`` counted the claim as
one it may make; for discards, whether the other discard leaves the hand nearer to ready,
further from it or as near, by ``efficient``'s distance). A positive mean says that the
alternative would have done better.

    python -m bench.branch_eval --ruleset jiaxing --kind santan --hands 400 --seed-start 700000
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from baida.bots.arena import engine_seed
from baida.bots.efficient import EfficientBot
from baida.bots.expert import ExpertBot
from baida.bots.features import read_view, view_dict
from baida.bots.policy import action_tile, action_type, make_bot
from baida.engine.round import Round

KINDS = ("santan", "third", "claim", "discard:NAME", "any:NAME")
CLAIMS = ("pon", "chi", "mkong")


@dataclass(frozen=True, slots=True)
class Branch:
    """One decision played both ways: the deciding seat's points after each."""

    tag: str
    seat: int
    chosen_points: int
    alternative_points: int

    @property
    def gain(self) -> int:
        return self.alternative_points - self.chosen_points


@dataclass(slots=True)
class HandBranches:
    seed: int
    payments: list[int]  # the hand as the bots played it
    branches: list[Branch] = field(default_factory=list)


class Alternatives:
    """Finds the decisions of one class and the alternative to each."""

    def __init__(self, kind: str, seed: int) -> None:
        if kind not in ("santan", "third", "claim") and not kind.startswith(("discard:", "any:")):
            raise ValueError(f"--kind: one of {', '.join(KINDS)}, not {kind!r}")
        self.kind = kind
        self.ranker = ExpertBot(seed=seed)  # values the claims for the alternative
        self.others: dict[int, Any] = {}
        if kind.startswith(("discard:", "any:")):
            name = kind.split(":", 1)[1]
            self.others = {s: make_bot(name, seed=seed * 4 + s) for s in range(4)}

    def find(
        self, seat: int, view: Any, legal: Sequence[Any], chosen: Any
    ) -> tuple[str, Any] | None:
        """(tag, alternative) when this decision belongs to the class, else None."""
        types = {action_type(a) for a in legal}
        if self.kind == "santan":
            if "give_up" not in types or "continue" not in types:
                return None
            other = "continue" if action_type(chosen) == "give_up" else "give_up"
            valued = self.ranker.evaluate(view, legal)
            worth = next(v.value for v in valued if action_type(v.action) == "continue")
            band = "below -2" if worth < -2 else "-2 to 0" if worth < 0 else "0 or more"
            return f"chose {action_type(chosen)} (坚持 valued {band})", _first(legal, other)
        if self.kind.startswith("any:"):
            other = self.others[seat].choose(view, legal)
            if other == chosen:
                return None
            tag = f"{action_type(chosen)} -> {action_type(other)}"
            return tag + _confirmation_band(self.others[seat]), other
        if self.kind.startswith("discard:"):
            if types != {"discard"}:
                return None
            other = self.others[seat].choose(view, legal)
            if other == chosen:
                return None
            return f"the other discard is {_speed(view, chosen, other)}", other
        if "pass" not in types or not types & set(CLAIMS) or "win" in types:
            return None
        seen = read_view(view_dict(view))
        source = seen.last_discard[0] if seen.last_discard else -1
        pair = source >= 0 and ExpertBot._makes_pair(seen, seen.seat, source)
        if pair != (self.kind == "third"):
            return None
        if action_type(chosen) != "pass":
            return "chose the claim", _first(legal, "pass")
        valued = [v for v in self.ranker.evaluate(view, legal) if action_type(v.action) in CLAIMS]
        best = max(valued, key=lambda v: v.value)
        return f"chose pass (claim eligible: {best.eligible})", best.action


def _confirmation_band(bot: Any) -> str:
    """For a ``search`` that overrode ``expert``: how clear its confirmed lead was, in standard
    errors of the fresh worlds (a band), so that clear and marginal overrides are told apart."""
    result = getattr(bot, "last", None)
    confirmed = getattr(result, "confirmed", None)
    if confirmed is None or not result.chosen:
        return ""
    mean, se = confirmed
    z = mean / se if se > 0 else math.inf
    band = "z < 3" if z < 3 else "z 3-5" if z < 5 else "z >= 5"
    return f" (search lead {band})"


def _speed(view: Any, chosen: Any, other: Any) -> str:
    """Whether ``other`` leaves the hand nearer to ready than ``chosen``, further, or as near
    (``efficient``'s distance)."""
    seen = read_view(view_dict(view))
    judge = EfficientBot(seed=0)
    planner = judge._planner(seen)
    distances = []
    for action in (chosen, other):
        kind = action_tile(action)
        if kind >= 34 or kind in seen.wild_faces:
            distances.append(99)
            continue
        seen.counts[kind] -= 1
        distances.append(judge._best(planner, seen.counts, seen.wilds, seen.melds)[0])
        seen.counts[kind] += 1
    if distances[1] == distances[0]:
        return "as near"
    return "nearer" if distances[1] < distances[0] else "further"


def _first(legal: Sequence[Any], kind: str) -> Any:
    return next(a for a in legal if action_type(a) == kind)


def _play(
    rnd: Round, bots: Sequence[Any], on_choice: Callable[..., None] | None = None
) -> list[int]:
    """Play the hand to its end with ``bots``; ``on_choice(seat, view, legal, chosen)`` hears
    every real choice before it is applied. Returns the payments."""
    while not rnd.ended:
        seat = rnd.to_act[0]
        legal = rnd.legal_actions(seat)
        if len(legal) == 1:
            rnd.apply(legal[0])
            continue
        view = rnd.view(seat)
        chosen = bots[seat].choose(view, legal)
        if on_choice is not None:
            on_choice(seat, view, legal, chosen)
        rnd.apply(chosen)
    assert rnd.result is not None
    return list(rnd.result.payments)


def seating(bot: str, others: str | None, seed: int) -> list[str]:
    """The bot of each seat: four ``bot``s, or ``bot`` and ``others`` alternating (``bot`` in
    the even seats for an even seed, in the odd ones for an odd seed), as the arena seats two."""
    if others is None:
        return [bot] * 4
    return [bot if (s + seed) % 2 == 0 else others for s in range(4)]


def branch_hand(
    ruleset: str, seed: int, bot: str, kind: str, others: str | None = None
) -> HandBranches:
    """Play arena seed ``seed``, branching at every decision of ``kind`` by a ``bot`` seat
    (the other seats played by ``others`` when given, else by ``bot`` too)."""
    rnd = Round.from_seed(ruleset, engine_seed(seed))
    names = seating(bot, others, seed)
    bots = [make_bot(name, seed=seed * 4 + s) for s, name in enumerate(names)]
    finder = Alternatives(kind, seed)
    found: list[tuple[str, int, Round, list[Any], Any, Any]] = []

    def branch_point(seat: int, view: Any, legal: Sequence[Any], chosen: Any) -> None:
        if names[seat] != bot:
            return
        alternative = finder.find(seat, view, legal, chosen)
        if alternative is not None:
            tag, other = alternative
            found.append((tag, seat, copy.deepcopy(rnd), copy.deepcopy(bots), chosen, other))

    out = HandBranches(seed, _play(rnd, bots, branch_point))
    for tag, seat, state, players, chosen, other in found:
        branches = []
        for action in (chosen, other):
            copy_rnd, copy_bots = copy.deepcopy(state), copy.deepcopy(players)
            copy_rnd.apply(action)
            branches.append(_play(copy_rnd, copy_bots)[seat])
        out.branches.append(Branch(tag, seat, branches[0], branches[1]))
    return out


def _job(args: tuple[str, int, str, str, str | None]) -> HandBranches:
    return branch_hand(*args)


def summarize(hands: Sequence[HandBranches]) -> dict[str, dict[str, float]]:
    """Per tag: how many decisions, and the mean gain of the alternative with a 95% interval."""
    gains: dict[str, list[int]] = defaultdict(list)
    for hand in hands:
        for b in hand.branches:
            gains[b.tag].append(b.gain)
    out = {}
    for tag, values in sorted(gains.items()):
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
        out[tag] = {"n": len(values), "mean": round(mean, 3), "low": round(mean - half, 3),
                    "high": round(mean + half, 3)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", choices=("jiaxing", "wenling"), default="jiaxing")
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--others", help="the bot of the other two seats (default: --bot)")
    parser.add_argument("--kind", required=True, help=f"one of {', '.join(KINDS)}")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed-start", type=int, default=700_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write every branch here")
    args = parser.parse_args(argv)
    try:
        Alternatives(args.kind, 0)
        for name in (args.bot, args.others):
            if name is not None:
                make_bot(name, seed=0)
    except ValueError as exc:  # an unknown kind or bot (UnknownBot is a ValueError)
        parser.error(str(exc))
    jobs = [(args.ruleset, s, args.bot, args.kind, args.others)
            for s in range(args.seed_start, args.seed_start + args.hands)]
    with Pool(args.workers) as pool:
        hands = pool.map(_job, jobs, chunksize=4)
    summary = summarize(hands)
    seats = f"{args.bot} ×2 and {args.others} ×2" if args.others else f"{args.bot} ×4"
    print(f"{args.ruleset}, {seats}, {args.hands} hands from seed {args.seed_start}, "
          f"kind {args.kind}: points of (alternative − {args.bot}'s choice) for the deciding seat")
    for tag, s in summary.items():
        interval = f"[{s['low']:+.2f}, {s['high']:+.2f}]"
        print(f"  {tag:38s} n={s['n']:5d}  mean {s['mean']:+7.2f}  {interval}")
    if args.json:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()},
                                         "summary": summary,
                                         "hands": [asdict(h) for h in hands]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
