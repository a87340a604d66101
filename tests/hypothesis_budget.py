"""How many random examples the property tests draw: ``examples(n)`` is ``n`` times the scale.

``BAIDA_TEST_SCALE`` (default 1) multiplies every brute-force comparison; ``make test`` and CI
run with a larger scale so that each reference sees thousands of random hands.
"""

from __future__ import annotations

import os

SCALE = max(1, int(os.environ.get("BAIDA_TEST_SCALE", "1") or "1"))


def examples(n: int) -> int:
    """``n`` scaled by ``BAIDA_TEST_SCALE``."""
    return n * SCALE
