"""A small learned value: a multilayer perceptron read from a JSON file, evaluated in pure
Python (a few dozen inputs, one hidden layer: tens of microseconds, no numerical library).

The file (written by ``bench.value_train``) holds the names of the inputs it was trained on,
their means and spreads, and the layers' weights; ``predict`` standardises a row and returns
the expected points of the seat that made the choice the row describes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class ModelError(ValueError):
    """A model file that cannot be used (names the problem)."""


@dataclass(frozen=True, slots=True)
class ValueModel:
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    layers: tuple[tuple[tuple[tuple[float, ...], ...], tuple[float, ...]], ...]  # (W rows, b)
    meta: dict[str, Any]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ValueModel:
        try:
            features = tuple(str(f) for f in data["features"])
            mean = tuple(float(x) for x in data["mean"])
            scale = tuple(float(x) or 1.0 for x in data["scale"])
            layers = tuple(
                (tuple(tuple(float(w) for w in row) for row in layer["w"]),
                 tuple(float(b) for b in layer["b"]))
                for layer in data["layers"]
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"not a value model: {exc!r}") from None
        width = len(features)
        if len(mean) != width or len(scale) != width or not layers:
            raise ModelError("a value model needs a mean and a scale per input and a layer")
        for rows, bias in layers:
            if len(rows) != len(bias) or any(len(r) != width for r in rows):
                raise ModelError("a layer's weights do not fit the layer before it")
            width = len(rows)
        if width != 1:
            raise ModelError("a value model's last layer has one output")
        return cls(features, mean, scale, layers, dict(data.get("meta") or {}))

    @classmethod
    def load(cls, path: str | Path) -> ValueModel:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ModelError(f"cannot read value model {path}: {exc}") from None
        return cls.from_json(data)

    def predict(self, row: Sequence[float]) -> float:
        if len(row) != len(self.features):
            raise ModelError(f"expected {len(self.features)} inputs, got {len(row)}")
        x = [(v - m) / s for v, m, s in zip(row, self.mean, self.scale, strict=True)]
        last = len(self.layers) - 1
        for i, (rows, bias) in enumerate(self.layers):
            y = [b + sum(w * v for w, v in zip(r, x, strict=True)) for r, b in zip(rows, bias,
                                                                                 strict=True)]
            x = y if i == last else [v if v > 0.0 else 0.0 for v in y]
        return x[0]
