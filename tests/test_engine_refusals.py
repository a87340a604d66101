"""Refusals reveal nothing a view hides (issue 10, fix 5): a probe over whole bot matches.

At many points of full matches played by the ``random`` and ``greedy`` bots, every seat sends
every kind of action. Each refusal must be built from what the sender's view shows: it names
no other seat, no tile the sender cannot see (the action's own tiles aside), and a seat that
has nothing to decide gets the very same text whether a claim or rob window is open for others
or not. A seat that does have a decision gets a reason from the code that builds its legal
actions (never the catch-all), and a refused action changes nothing.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict

import pytest
from hypothesis_budget import SCALE
from test_engine_helpers import snapshot

from baida.bots.greedy import GreedyBot
from baida.bots.random_bot import RandomBot
from baida.engine import Action, IllegalAction, Match
from baida.engine.explain import NOT_YOURS
from baida.tiles import tile_str

TILE_TOKEN = re.compile(r"(?<![A-Za-z0-9])([1-9][mps]|f[1-8]|[ESWNCFP])(?![A-Za-z0-9])")
OPTION_SETS = [
    ("jiaxing", {}),
    ("jiaxing", {"allow_discard_win": True, "santan_threshold": 1, "allow_chi": False,
                 "gaveup_can_win": True}),
    ("wenling", {}),
]
SIMPLE = ("win", "lazi", "pon", "mkong", "pass", "continue", "give_up")


def _visible_faces(view: dict) -> set[str]:
    """Every tile face the view shows."""
    faces = {view["indicator"], *view["wilds"], *view["specials"]}
    if view["last_discard"]:
        faces.add(view["last_discard"]["tile"])
    if view["robbable"]:
        faces.add(view["robbable"]["tile"])
    for p in view["players"]:
        faces.update(p["concealed"] or [])
        faces.update(p["discards"])
        faces.update(p["flowers"])
        if p["drawn"]:
            faces.add(p["drawn"])
        for meld in p["melds"]:
            faces.update(meld["tiles"] or [])
    return faces


def _probes(seat: int, rng: random.Random) -> list[Action]:
    out = [Action(kind, seat) for kind in SIMPLE]
    kinds = rng.sample(range(34), 6) + [rng.randrange(34, 42)]
    for kind in kinds:
        out += [Action("discard", seat, kind), Action("akong", seat, kind),
                Action("bukong", seat, kind)]
    for low in rng.sample(range(27), 2):
        out.append(Action("chi", seat, None, (low, min(low + 1, 33))))
    return out


def _check_refusal(shown: set[str], action: Action, text: str, others_asked: set[int]) -> None:
    shown = shown | {tile_str(t) for t in (action.tile, *(action.tiles or ())) if t is not None}
    tokens = TILE_TOKEN.findall(text)
    assert set(tokens) <= shown, (text, action, sorted(shown))
    assert not re.search(r"\d", TILE_TOKEN.sub("", text)), text  # no seat number at all
    for other in others_asked:
        assert f"seat {other}" not in text and f"seat(s) {other}" not in text, text


@pytest.mark.parametrize("ruleset,options", OPTION_SETS)
def test_refusals_are_built_from_the_senders_view(ruleset: str, options: dict) -> None:
    rng = random.Random(f"probe-{ruleset}-{sorted(options)}")
    hands = 2 if SCALE == 1 else 6
    match = Match(ruleset, options=options, hands=hands)
    bots = [RandomBot(1), GreedyBot(2), RandomBot(3), GreedyBot(4)]
    not_asked: dict[tuple, set[str]] = defaultdict(set)  # action (any seat) -> texts
    seen_phases: dict[str, int] = defaultdict(int)
    step = 0
    for hand in range(hands):
        rnd = match.start_hand(f"probe-{hand}".encode())
        while not rnd.ended:
            step += 1
            window = rnd.phase in ("claim", "rob", "santan")
            if window or step % 3 == 0:
                seen_phases[rnd.phase] += 1
                before = snapshot(rnd)
                waiting = set(rnd.to_act)
                for seat in range(4):
                    shown = _visible_faces(rnd.view(seat).to_json())
                    legal = rnd.legal_actions(seat)
                    for action in _probes(seat, rng):
                        if action in legal:
                            continue
                        with pytest.raises(IllegalAction) as refused:
                            rnd.apply(action)
                        text = str(refused.value)
                        _check_refusal(shown, action, text, waiting - {seat})
                        if seat in waiting:
                            assert "not possible now" not in text and text != NOT_YOURS, text
                        else:
                            key = (action.type, action.tile, action.tiles)
                            not_asked[key].add(text)
                assert snapshot(rnd) == before
            seat = rnd.to_act[0]
            choice = bots[seat].choose(rnd.view(seat), rnd.legal_actions(seat))
            rnd.apply(Action.from_json(choice) if isinstance(choice, dict) else choice)
        match.finish_hand()
    # a seat with nothing to decide: one answer per action, in every phase
    for key, texts in not_asked.items():
        assert len(texts) == 1, (key, texts)
    assert seen_phases["claim"] > 0 and seen_phases["turn"] > 0
    if options.get("santan_threshold") == 1:
        assert seen_phases["santan"] > 0
