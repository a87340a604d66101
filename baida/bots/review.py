"""Review of a finished hand: every decision a player made, valued by the ``expert`` bot beside
the best alternative it saw (docs/bots.md, "Review").

The record is replayed action by action; before each action that was a real choice (its seat
had more than one legal action) the seat's view and legal actions go to
``ExpertBot.evaluate``, exactly what the bot would have seen at the table.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action
from ..engine.errors import EngineError, RecordError
from ..engine.records import read_record
from .expert import ActionValue, ExpertBot

FORMAT = "baida-review-v1"


def review_record(
    record: Any, seats: set[int] | None = None, budget_ms: float | None = None
) -> dict[str, Any]:
    """The review JSON of a finished hand's record; ``RecordError`` when it cannot be read,
    does not replay, or the hand is not finished."""
    rnd, actions, _ = read_record(record)  # the checks of ``baida replay``, settlement too
    bot = ExpertBot(seed=0) if budget_ms is None else ExpertBot(seed=0, budget_ms=budget_ms)
    scale = rnd.base if rnd.rules.base_scales else 1  # the bot values in shares of the 底分
    decisions: list[dict[str, Any]] = []
    for index, action in enumerate(actions):
        try:
            legal = rnd.legal_actions(action.seat)
            wanted = seats is None or action.seat in seats
            if wanted and len(legal) > 1 and action in legal:
                decisions.append(_decision(index, rnd, action, legal, bot, scale))
            rnd.apply(action)
        except EngineError as exc:
            raise RecordError(f"record.actions[{index}] ({action.to_json()}): {exc}") from None
    if not rnd.ended:
        raise RecordError("record: the hand is not finished (a review needs the whole hand)")
    return {
        "format": FORMAT,
        "ruleset": rnd.ruleset,
        "bot": bot.name,
        "budget_ms": bot.budget_ms,
        "unit": f"points (base {rnd.base})" if rnd.rules.base_scales else "points",
        "decisions": decisions,
        "seats": _summary(decisions),
        "payments": list(rnd.result.payments),
    }


def _decision(
    index: int, rnd: Any, action: Action, legal: list[Action], bot: ExpertBot, scale: float
) -> dict[str, Any]:
    view = rnd.view(action.seat)
    scored = bot.evaluate(view, legal)
    chosen = next((s for s in scored if s.action == action), None)
    others = [s for s in scored if s.action != action]
    others = [s for s in others if s.eligible] or others  # what the bot would have played
    best_other = max(others, key=lambda s: s.value, default=None)
    out: dict[str, Any] = {
        "index": index,
        "event_index": len(rnd.events),  # the hand's events before it: the state decided in
        "seat": action.seat,
        "phase": rnd.phase,
        "wall_remaining": rnd.remaining,
        "action": action.to_json(),
        "value": None if chosen is None else round(scale * chosen.value, 3),
        "parts": None if chosen is None else _parts(chosen, scale),
        "best_alternative": None
        if best_other is None
        else {
            "action": best_other.action.to_json(),
            "value": round(scale * best_other.value, 3),
            "parts": _parts(best_other, scale),
        },
    }
    if chosen is not None and best_other is not None:
        out["cost"] = round(max(0.0, best_other.value - chosen.value) * scale, 3)
        out["best"] = out["cost"] == 0
    else:  # a win, or an action the bot does not value (the review cannot compare it)
        out["cost"] = 0.0
        out["best"] = True
    return out


def _parts(av: ActionValue, scale: float) -> dict[str, float]:
    return {k: round(scale * v, 3) for k, v in av.parts.items()}


def _summary(decisions: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per seat: decisions reviewed, how many were the bot's best, total cost."""
    out: dict[str, dict[str, Any]] = {}
    for d in decisions:
        s = out.setdefault(str(d["seat"]), {"decisions": 0, "best": 0, "cost": 0.0})
        s["decisions"] += 1
        s["best"] += bool(d["best"])
        s["cost"] = round(s["cost"] + d["cost"], 3)
    return out


def describe_decision(d: dict[str, Any]) -> str:
    """One line of text for a reviewed decision (``baida replay --review``)."""
    act = _action_text(d["action"])
    line = f"#{d['index']:<3} seat {d['seat']} {act}"
    if d["value"] is not None:
        line += f": {d['value']:+.2f}"
    alt = d.get("best_alternative")
    if alt is not None:
        line += f"; best other {_action_text(alt['action'])}: {alt['value']:+.2f}"
    if not d["best"]:
        line += f"  (cost {d['cost']:.2f})"
    return line


def _action_text(a: dict[str, Any]) -> str:
    text = a["type"]
    if a.get("tile"):
        text += " " + a["tile"]
    if a.get("tiles"):
        text += " " + "".join(a["tiles"])
    return text
