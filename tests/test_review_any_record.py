"""``baida review`` on any finished hand of either ruleset: random seeds, random rule options,
any dealer and round wind, and players from the random bot to ``strong``, so the records hold
claims, kongs, 三摊 answers, 腊子, draws and discard wins where the options allow them."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baida.bots.policy import make_bot
from baida.bots.review import FORMAT, review_record
from baida.cli import main
from baida.engine import Action, Round
from baida.engine.records import read_record
from baida.rules.options import CHOICES, JiaxingOptions, WenlingOptions

# Small ranges for the integer options: wide enough to change the play, small enough to end.
INT_RANGES = {
    "winner_bonus_points": (0, 5),
    "santan_threshold": (1, 4),
    "wall_reserve": (0, 16),
    "rounds": (1, 4),
    "huangpai_pairs": (0, 12),
}
PLAYERS = ["random", "greedy", "efficient", "strong"]


def _option_values(name: str, default: Any) -> st.SearchStrategy[Any]:
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, int):
        low, high = INT_RANGES[name]
        return st.integers(low, high)
    return st.sampled_from(CHOICES[name])


def _options(cls: type) -> st.SearchStrategy[dict[str, Any]]:
    """Any subset of the ruleset's options, each with any value it takes."""
    per_option = {f.name: _option_values(f.name, f.default) for f in fields(cls)}
    return st.fixed_dictionaries({}, optional=per_option)


HANDS = st.one_of(
    st.tuples(st.just("jiaxing"), _options(JiaxingOptions)),
    st.tuples(st.just("wenling"), _options(WenlingOptions)),
)


def _played(ruleset: str, options: dict, seed: int, players: list[str], dealer: int, wind: int):
    rnd = Round.from_seed(
        ruleset, f"review-{seed}".encode(), options=options, dealer=dealer, round_wind=wind
    )
    bots = [make_bot(name, seed=seed + i) for i, name in enumerate(players)]
    while not rnd.ended:
        seat = rnd.to_act[0]
        rnd.apply(bots[seat].choose(rnd.view(seat), rnd.legal_actions(seat)))
    return rnd


def _real_choices(record: dict) -> list[int]:
    """Indices of the record's actions taken with more than one legal action: counted here by
    replaying the record on a fresh ``Round``, independently of the review."""
    fresh, _, _ = read_record(record)
    indices = []
    for index, action in enumerate(record["actions"]):
        act = Action.from_json(action)
        if len(fresh.legal_actions(act.seat)) > 1:
            indices.append(index)
        fresh.apply(act)
    return indices


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hand=HANDS,
    seed=st.integers(0, 10**6),
    players=st.lists(st.sampled_from(PLAYERS), min_size=4, max_size=4),
    dealer=st.integers(0, 3),
    wind=st.integers(0, 3),
)
def test_any_finished_hand_reviews(hand, seed, players, dealer, wind) -> None:
    ruleset, options = hand
    rnd = _played(ruleset, options, seed, players, dealer, wind)
    record = json.loads(json.dumps(rnd.record()))  # as it travels: plain JSON
    review = review_record(record, budget_ms=1)
    assert review["format"] == FORMAT and review["ruleset"] == ruleset
    assert review["payments"] == record["settlement"]["payments"]
    assert [d["index"] for d in review["decisions"]] == _real_choices(record)
    for d in review["decisions"]:
        assert d["action"] == record["actions"][d["index"]]
        assert d["value"] is not None, d
        if d["best_alternative"] is not None:
            assert d["cost"] >= 0
    assert sum(s["decisions"] for s in review["seats"].values()) == len(review["decisions"])


def test_the_command_reviews_a_record_with_options(tmp_path, capsys) -> None:
    """The same through ``baida review``, one seat, on a record whose options are not defaults."""
    options = {"allow_chi": False, "allow_discard_win": True, "santan_threshold": 2}
    rnd = _played("jiaxing", options, 7, ["strong", "random", "efficient", "greedy"], 2, 1)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(rnd.record()), encoding="utf-8")
    assert main(["review", str(path), "--seat", "1", "--budget-ms", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decisions"] and {d["seat"] for d in out["decisions"]} == {1}
