"""Train the learned value of ``baida.bots.learned`` on ``bench.value_data``'s decisions.

A small perceptron (one hidden layer, ReLU) is fitted by Adam to the points each seat finally
got, from the row of the discard it played. One hand in five is held out (by hand, so that no
hand's decisions are on both sides); on the held-out hands it reports:

* the squared error beside a line fitted to ``expert``'s value alone;
* what choosing by the model would gain over ``expert``'s choice, per decision, estimated from
  the decisions where the played candidate was drawn at random (``--explore``): for a
  candidate drawn uniformly from ``n``, ``n * y * [played is the policy's]`` is an unbiased
  estimate of the policy's points, so the gain and its standard error need no model of the
  rest of the hand.

    python -m bench.value_train /tmp/jx_value.npz --out bench/models/jiaxing_value_mc.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

HELD_OUT = 5  # one hand in HELD_OUT


def _played(data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    x = data["x"][np.arange(len(data["chosen"])), data["chosen"]]
    return x, data["points"]


class Perceptron:
    """One hidden layer; trained with Adam on the squared error (numpy only)."""

    def __init__(self, inputs: int, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = rng.normal(0, math.sqrt(2 / inputs), (hidden, inputs))
        self.b1 = np.zeros(hidden)
        self.w2 = rng.normal(0, math.sqrt(1 / hidden), (1, hidden))
        self.b2 = np.zeros(1)

    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def predict(self, x: np.ndarray) -> np.ndarray:
        h = np.maximum(0.0, x @ self.w1.T + self.b1)
        return (h @ self.w2.T + self.b2)[:, 0]

    def fit(self, x: np.ndarray, y: np.ndarray, xv: np.ndarray, yv: np.ndarray, *,
            epochs: int, batch: int, lr: float, l2: float, seed: int,
            warm: bool = False) -> list[float]:
        """Adam on minibatches; keeps the epoch with the lowest held-out error. ``warm``
        goes on from the current weights (else the output starts at the targets' mean)."""
        rng = np.random.default_rng(seed)
        params = self.params()
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        step, best, kept, history = 0, math.inf, [p.copy() for p in params], []
        if not warm:
            self.b2[:] = y.mean()
        for _ in range(epochs):
            order = rng.permutation(len(y))
            for start in range(0, len(y), batch):
                idx = order[start:start + batch]
                xb, yb = x[idx], y[idx]
                z = xb @ self.w1.T + self.b1
                h = np.maximum(0.0, z)
                out = (h @ self.w2.T + self.b2)[:, 0]
                g = (2.0 / len(idx)) * (out - yb)[:, None]
                gw2 = g.T @ h + l2 * self.w2
                gb2 = g.sum(0)
                gh = (g @ self.w2) * (z > 0)
                gw1 = gh.T @ xb + l2 * self.w1
                gb1 = gh.sum(0)
                step += 1
                for p, gp, mp, vp in zip(params, (gw1, gb1, gw2, gb2), m, v, strict=True):
                    mp *= 0.9
                    mp += 0.1 * gp
                    vp *= 0.999
                    vp += 0.001 * gp * gp
                    p -= lr * (mp / (1 - 0.9 ** step)) / (np.sqrt(vp / (1 - 0.999 ** step)) + 1e-8)
            err = float(np.mean((self.predict(xv) - yv) ** 2))
            history.append(err)
            if err < best:
                best, kept = err, [p.copy() for p in params]
        for p, k in zip(params, kept, strict=True):
            p[:] = k
        return history


def next_decision(data: dict[str, np.ndarray]) -> np.ndarray:
    """For each decision, the index of the same seat's next one in the same hand (-1: none).

    ``bench.value_data`` writes each hand's decisions in the order they were made."""
    nxt = np.full(len(data["hand"]), -1)
    last: dict[tuple[int, int], int] = {}
    for i in range(len(nxt) - 1, -1, -1):
        key = (int(data["hand"][i]), int(data["seat"][i]))
        nxt[i] = last.get(key, -1)
        last[key] = i
    return nxt


def lambda_returns(points: np.ndarray, values: np.ndarray, nxt: np.ndarray,
                   lam: float) -> np.ndarray:
    """TD(λ) targets: the final points at a seat's last decision, else (1 − λ) × the value of
    its next decision + λ × that decision's target."""
    out = points.astype(float).copy()
    for i in range(len(out) - 1, -1, -1):  # a next decision always comes later in the arrays
        j = nxt[i]
        if j >= 0:
            out[i] = (1 - lam) * values[j] + lam * out[j]
    return out


def policy_gain(data: dict[str, np.ndarray], rows: np.ndarray, score) -> tuple[float, float, int]:
    """Mean and standard error of (policy's points − ``expert``'s) per explored decision,
    where the policy plays the candidate ``score`` rates highest."""
    explored = np.flatnonzero(data["explored"])
    n = data["count"][explored]
    chosen = data["chosen"][explored]
    y = data["points"][explored]
    picks = np.array([int(np.argmax(score(rows[i, : data["count"][i]]))) for i in explored])
    est = n * y * ((chosen == picks).astype(float) - (chosen == 0).astype(float))
    return float(est.mean()), float(est.std(ddof=1) / math.sqrt(len(est))), int(
        (picks != 0).sum())


def candidate_costs(data: dict[str, np.ndarray]) -> list[tuple[float, float]]:
    """Over the random decisions with three candidates: the mean points after playing
    ``expert``'s second and third choice, less after its first, each with its standard error
    (what re-ranking ``expert``'s candidates has to work with)."""
    sel = data["explored"] & (data["count"] == 3)
    y, chosen = data["points"][sel], data["chosen"][sel]
    first = y[chosen == 0]
    out = []
    for c in (1, 2):
        other = y[chosen == c]
        if len(other) < 2 or len(first) < 2:
            out.append((math.nan, math.nan))
            continue
        se = math.sqrt(other.var(ddof=1) / len(other) + first.var(ddof=1) / len(first))
        out.append((float(other.mean() - first.mean()), se))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", help="npz files from bench.value_data")
    parser.add_argument("--out", help="write the model (JSON) here")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--td", type=float, default=1.0,
                        help="λ of TD(λ) targets (1: the final points, the default)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --td below 1: refits on targets from the last fit")
    a = parser.parse_args(argv)
    parts = [dict(np.load(p)) for p in a.data]
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if k != "features"}
    features = [str(f) for f in parts[0]["features"]]
    hold = data["hand"] % HELD_OUT == 0
    x, y = _played(data)
    mean = x[~hold].mean(0)
    scale = x[~hold].std(0)
    scale[scale == 0] = 1.0
    xs = (x - mean) / scale
    net = Perceptron(len(features), a.hidden, a.seed)
    history = net.fit(xs[~hold], y[~hold], xs[hold], y[hold], epochs=a.epochs, batch=512,
                      lr=a.lr, l2=a.l2, seed=a.seed)
    if a.td < 1.0:
        nxt = next_decision(data)
        for r in range(a.rounds):
            target = lambda_returns(y, net.predict(xs), nxt, a.td)
            history = net.fit(xs[~hold], target[~hold], xs[hold], target[hold],
                              epochs=a.epochs, batch=512, lr=a.lr, l2=a.l2,
                              seed=a.seed + r + 1, warm=True)
    mse = float(np.mean((net.predict(xs[hold]) - y[hold]) ** 2))
    ev = x[:, features.index("expert_value")]
    line = np.polyfit(ev[~hold], y[~hold], 1)
    mse_line = float(np.mean((np.polyval(line, ev[hold]) - y[hold]) ** 2))
    held = {k: val[hold] for k, val in data.items()}
    rows = (held["x"] - mean) / scale
    gain, se, overrides = policy_gain(held, rows, lambda r: net.predict(r))
    explored = int(held["explored"].sum())
    report = {
        "decisions": int(len(y)), "hands": int(len(np.unique(data["hand"]))),
        "held_out_decisions": int(hold.sum()), "explored_held_out": explored,
        "mse_model": round(mse, 4), "mse_expert_line": round(mse_line, 4),
        "variance": round(float(y[hold].var()), 4),
        "gain_per_explored_decision": round(gain, 4), "gain_se": round(se, 4),
        "model_differs_from_expert": round(overrides / max(1, explored), 4),
        "epochs": history.index(min(history)) + 1, "td": a.td,
        "second_and_third_cost": [[round(m, 3), round(e, 3)] for m, e in candidate_costs(data)],
    }
    print(json.dumps(report, indent=1))
    if a.out:
        model = {
            "features": features, "mean": mean.tolist(), "scale": scale.tolist(),
            "layers": [{"w": net.w1.tolist(), "b": net.b1.tolist()},
                       {"w": net.w2.tolist(), "b": net.b2.tolist()}],
            "meta": {"trained_by": "bench.value_train", "data": [Path(p).name for p in a.data],
                     "hidden": a.hidden, **report},
        }
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(json.dumps(model, separators=(",", ":")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
