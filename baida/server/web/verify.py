"""Fairness: checking a hand from its record, as anyone can.

A hand's wall comes from a 32-byte seed by the public procedure ``baida-wall-v1``; the hall
shows ``SHA-256(seed)`` (the commitment) at the deal and reveals the seed at the end. Anyone
can then check that the revealed seed matches the commitment they saw, and that replaying the
recorded actions on that wall gives the recorded settlement (``baida replay`` does the same).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ...engine.errors import EngineError
from ...engine.records import replay


def verify_record(record: Any) -> dict[str, Any]:
    """``{"ok", "commitment", "seed", "replay", "problems"}`` for a record."""
    out: dict[str, Any] = {"ok": False, "commitment": None, "seed": None, "replay": None,
                           "problems": []}
    if not isinstance(record, dict):
        out["problems"].append("a record is a JSON object")
        return out
    seed, commitment = record.get("seed"), record.get("commitment")
    out["commitment"] = commitment if isinstance(commitment, str) else None
    out["seed"] = seed if isinstance(seed, str) else None
    if isinstance(seed, str) and isinstance(commitment, str):
        try:
            matches = hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
        except ValueError:
            matches = False
        if not matches:
            out["problems"].append("the seed does not match the commitment shown at the deal")
    elif seed is None:
        out["problems"].append("the seed is not revealed yet (the hand has not ended)")
    try:
        result = replay(record)
    except (EngineError, ValueError, TypeError, RecursionError) as exc:
        out["replay"] = "failed"
        out["problems"].append(str(exc)[:200])
        return out
    if result.matches:
        out["replay"] = "same" if result.expected is not None else "no settlement to compare"
    else:
        out["replay"] = "differs"
        out["problems"].extend(result.differences()[:10])
    out["ok"] = not out["problems"] and result.expected is not None
    return out
