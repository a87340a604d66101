"""The learned value: the model file, the bot that reads it, the data and the trainer."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from baida.bots.arena import engine_seed
from baida.bots.expert import ExpertBot
from baida.bots.learned import LearnedBot
from baida.bots.policy import action_tile
from baida.bots.value_features import FEATURES
from baida.bots.value_model import ModelError, ValueModel
from baida.engine.round import Round
from bench import value_train
from bench.value_data import collect, play_hand

WIDTH = len(FEATURES)


def linear_model(weights: dict[str, float]) -> ValueModel:
    """A model whose value is a weighted sum of named inputs (a hidden layer of two ReLUs
    that pass the sum through: relu(s) - relu(-s) = s)."""
    row = [weights.get(f, 0.0) for f in FEATURES]
    return ValueModel.from_json({
        "features": list(FEATURES), "mean": [0.0] * WIDTH, "scale": [1.0] * WIDTH,
        "layers": [{"w": [row, [-w for w in row]], "b": [0.0, 0.0]},
                   {"w": [[1.0, -1.0]], "b": [0.0]}],
    })


def test_predict_matches_the_arithmetic() -> None:
    rng = np.random.default_rng(1)
    w1, b1 = rng.normal(size=(4, WIDTH)), rng.normal(size=4)
    w2, b2 = rng.normal(size=(1, 4)), rng.normal(size=1)
    mean, scale = rng.normal(size=WIDTH), rng.uniform(0.5, 2, size=WIDTH)
    model = ValueModel.from_json({
        "features": list(FEATURES), "mean": mean.tolist(), "scale": scale.tolist(),
        "layers": [{"w": w1.tolist(), "b": b1.tolist()}, {"w": w2.tolist(), "b": b2.tolist()}],
    })
    x = rng.normal(size=WIDTH)
    z = (x - mean) / scale
    expected = (np.maximum(0, z @ w1.T + b1) @ w2.T + b2)[0]
    assert model.predict(x.tolist()) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("data, problem", [
    ({}, "not a value model"),
    ({"features": ["a"], "mean": [0, 0], "scale": [1], "layers": [{"w": [[1]], "b": [0]}]},
     "a mean and a scale per input"),
    ({"features": ["a"], "mean": [0], "scale": [1], "layers": [{"w": [[1, 2]], "b": [0]}]},
     "do not fit"),
    ({"features": ["a"], "mean": [0], "scale": [1],
      "layers": [{"w": [[1], [2]], "b": [0, 0]}]}, "one output"),
])
def test_a_bad_model_file_is_named(data, problem) -> None:
    with pytest.raises(ModelError, match=problem):
        ValueModel.from_json(data)


def test_an_unreadable_file_is_named(tmp_path) -> None:
    path = tmp_path / "m.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ModelError, match="cannot read value model"):
        ValueModel.load(path)


def play_seat_zero(bot, seed: int, decisions: int = 400):
    """Play a Jiaxing hand with ``bot`` in seat 0 and ``expert`` elsewhere; yield each of
    seat 0's decisions after it is made."""
    rnd = Round.from_seed("jiaxing", seed=engine_seed(seed))
    others = [ExpertBot(seed=s) for s in range(4)]
    for _ in range(decisions):
        if rnd.ended:
            return
        seat = rnd.to_act[0]
        player = bot if seat == 0 else others[seat]
        action = player.choose(rnd.view(seat), rnd.legal_actions(seat))
        if seat == 0:
            yield action
        rnd.apply(action)


def test_without_a_model_it_is_expert() -> None:
    learned, expert = LearnedBot(seed=3, model=None), ExpertBot(seed=3)
    rnd = Round.from_seed("jiaxing", seed=engine_seed(11))
    while not rnd.ended:
        seat = rnd.to_act[0]
        view, legal = rnd.view(seat), rnd.legal_actions(seat)
        a, b = learned.choose(view, legal), expert.choose(view, legal)
        assert a == b
        rnd.apply(a)


def test_it_plays_the_candidate_the_model_rates_highest() -> None:
    # a model that likes seen copies of the thrown tile: it overrides expert where the
    # candidates differ in that, and plays the candidate with the most copies seen
    bot = LearnedBot(seed=0, model=linear_model({"seen_copies": 1.0}))
    col = FEATURES.index("seen_copies")
    overrides = 0
    for _action in play_seat_zero(bot, 5):
        last = bot.last
        if last is None:
            continue
        assert len(last.rows) >= 2 and len(last.values) == len(last.rows)
        seen = [r[col] for r in last.rows]
        assert last.values == pytest.approx(seen)
        best = max(range(1, len(seen)), key=lambda i: seen[i])
        assert last.chosen == (best if seen[best] > seen[0] else 0)
        overrides += last.chosen != 0
    assert overrides > 0


def test_a_margin_keeps_expert_unless_the_model_is_sure() -> None:
    bot = LearnedBot(seed=0, model=linear_model({"seen_copies": 1.0}), margin=10.0)
    for _ in play_seat_zero(bot, 5):
        assert bot.last is None or bot.last.chosen == 0


def test_the_rows_describe_the_candidates() -> None:
    bot = LearnedBot(seed=0, model=None, explore=1.0)
    for action in play_seat_zero(bot, 6):
        last = bot.last
        if last is None:
            continue
        assert last.explored and all(len(r) == WIDTH for r in last.rows)
        assert all(math.isfinite(v) for r in last.rows for v in r)
        # the row of the played discard is the one of the tile thrown
        tile = action_tile(action)
        played = last.rows[last.chosen]
        assert played[FEATURES.index("honour")] == (1.0 if tile >= 27 else 0.0)


def test_data_and_training_round_trip(tmp_path) -> None:
    assert play_hand(("jiaxing", 9, 0.5))  # a hand gives decisions
    data = collect("jiaxing", 12, 8_100_000, 0.5, workers=1)
    n = len(data["points"])
    assert data["x"].shape == (n, 3, WIDTH) and data["explored"].any()
    assert set(np.unique(data["hand"])) <= set(range(8_100_000, 8_100_012))
    path = tmp_path / "d.npz"
    np.savez_compressed(path, **data)
    out = tmp_path / "m.json"
    assert value_train.main([str(path), "--epochs", "2", "--hidden", "4", "--out", str(out)]) == 0
    model = ValueModel.load(out)
    assert model.features == FEATURES and model.meta["decisions"] == n
    assert math.isfinite(model.predict(list(data["x"][0, 0])))
    meta = json.loads(out.read_text())["meta"]
    assert meta["trained_by"] == "bench.value_train" and len(meta["second_and_third_cost"]) == 2


def test_the_policy_gain_is_unbiased() -> None:
    # three candidates drawn uniformly; candidate 2 is worth one point more than the others:
    # a policy that always picks it gains one point over expert's (candidate 0)
    rng = np.random.default_rng(0)
    n = 60_000
    chosen = rng.integers(0, 3, size=n)
    points = rng.normal(0, 3, size=n) + (chosen == 2)
    data = {"explored": np.ones(n, bool), "count": np.full(n, 3), "chosen": chosen,
            "points": points}
    rows = np.zeros((n, 3, 1))
    rows[:, 2] = 1.0
    gain, se, overrides = value_train.policy_gain(data, rows, lambda r: r[:, 0])
    assert overrides == n
    assert abs(gain - 1.0) < 4 * se and se < 0.1


def test_td_targets_follow_each_seat_through_its_hand() -> None:
    # two hands, two seats; decisions interleaved as they were made
    data = {"hand": np.array([1, 1, 1, 1, 2, 2]), "seat": np.array([0, 1, 0, 1, 0, 0])}
    nxt = value_train.next_decision(data)
    assert nxt.tolist() == [2, 3, -1, -1, 5, -1]
    points = np.array([10.0, -3.0, 10.0, -3.0, 4.0, 4.0])
    values = np.array([0.0, 0.0, 2.0, 1.0, 0.0, 1.0])
    got = value_train.lambda_returns(points, values, nxt, 0.5)
    # a last decision is worth the points; an earlier one half the next value, half its target
    assert got.tolist() == [0.5 * 2 + 0.5 * 10, 0.5 * 1 + 0.5 * -3, 10, -3, 0.5 * 1 + 0.5 * 4, 4]
    assert value_train.lambda_returns(points, values, nxt, 1.0).tolist() == points.tolist()


def test_candidate_costs_compare_the_random_picks() -> None:
    rng = np.random.default_rng(2)
    n = 30_000
    chosen = rng.integers(0, 3, size=n)
    points = rng.normal(0, 2, size=n) - 0.5 * chosen
    data = {"explored": np.ones(n, bool), "count": np.full(n, 3), "chosen": chosen,
            "points": points}
    (m1, se1), (m2, se2) = value_train.candidate_costs(data)
    assert abs(m1 + 0.5) < 4 * se1 and abs(m2 + 1.0) < 4 * se2


def test_the_measured_jiaxing_candidate_loads() -> None:
    from bench.variants import LearnedJiaxing

    bot = LearnedJiaxing(seed=1)
    assert bot.model is not None and bot.model.features == FEATURES
    assert bot.model.meta["hands"] == 10_000


def test_a_model_of_other_inputs_is_refused() -> None:
    other = ValueModel.from_json({"features": ["a"], "mean": [0], "scale": [1],
                                  "layers": [{"w": [[1.0]], "b": [0.0]}]})
    with pytest.raises(ModelError, match="other inputs"):
        LearnedBot(model=other)
