"""One line of text per event, for ``baida replay`` and terminal play."""

from __future__ import annotations

from typing import Any

_WINDS = "ESWN"
_WIN_BY = {
    "self_draw": "自摸 self-draw",
    "discard": "on a discard",
    "rob_kong": "抢杠 robbing a kong",
    "lazi": "腊子 limit hand",
}


def _tiles(value: Any) -> str:
    if value is None:
        return "?"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def _meld(meld: dict[str, Any] | None) -> str:
    if not meld:
        return ""
    return f"{meld['type']} {''.join(meld['tiles'] or ['?'])}"


def describe_event(event: dict[str, Any]) -> str:
    """A short English line for an event given as JSON (as ``Event.to_json`` or ``for_seat``)."""
    kind = event.get("type")
    seat = event.get("seat")
    who = f"seat {seat}" if seat is not None else ""
    if kind == "hand_start":
        wind = f", round wind {event['round_wind']}" if event.get("round_wind") else ""
        carry = ""
        if event.get("carry_pool") is not None:
            carry = f", carry pool {event['carry_pool']}"
            if event.get("carry_tokens"):
                carry += f" ({' '.join(event['carry_tokens'])})"
        specials = f", specials {_tiles(event['specials'])}" if event.get("specials") else ""
        return (
            f"{event['ruleset']} hand: dealer seat {event['dealer']}{wind}, dice {event['dice']},"
            f" indicator {event['indicator']}, wilds {_tiles(event['wilds'])}{specials}{carry}"
        )
    if kind == "deal":
        return f"{who} is dealt {event.get('count')} tiles: {_tiles(event.get('tiles'))}"
    if kind == "draw":
        left = event.get("remaining")
        return f"{who} draws {_tiles(event.get('tile'))} ({event.get('source')}, {left} left)"
    if kind == "flower":
        return f"{who} exposes special {event['tile']}"
    if kind == "discard":
        return f"{who} discards {event['tile']}"
    if kind in ("chi", "pon", "mkong"):
        return f"{who} claims {event['tile']} from seat {event['from']}: {_meld(event.get('meld'))}"
    if kind == "akong":
        return f"{who} declares 暗杠 {_tiles(event.get('tile'))}"
    if kind == "bukong":
        return f"{who} adds {event['tile']} to a 碰 (补杠)"
    if kind == "kong_robbed":
        return f"{who}'s 补杠 of {event['tile']} is robbed by seat {event['by']}"
    if kind == "santan":
        x, y = event["pair"]
        return f"三摊: seats {x} and {y} are mutual 承包方; asking {event['asks']}"
    if kind == "santan_choice":
        return (
            f"{who} chooses {'坚持 continue' if event['choice'] == 'continue' else '放弃 give up'}"
        )
    if kind == "sheng_phase":
        return f"生牌阶段 begins ({event['remaining']} tiles left)"
    if kind == "win":
        src = f" from seat {event['from']}" if event.get("from") is not None else ""
        tile = f" with {event['tile']}" if event.get("tile") else ""
        return f"{who} wins {_WIN_BY.get(event['win_by'], event['win_by'])}{tile}{src}"
    if kind == "hand_end":
        if event.get("outcome") == "draw":
            return "the hand is drawn (流局/黄牌): no payments"
        return f"hand over: payments by seat {event.get('payments')}"
    return f"{kind} {who}".strip()


def describe_settlement(settlement: dict[str, Any] | None) -> list[str]:
    """Lines for a settlement: the outcome, the scoring items, the payments by seat."""
    if settlement is None:
        return ["the hand has not ended"]
    if settlement["outcome"] == "draw":
        lines = ["outcome: drawn hand (流局 / 黄牌), no payments"]
    else:
        lines = [
            f"outcome: seat {settlement['winner']} wins"
            f" {_WIN_BY.get(settlement['win_by'], settlement['win_by'])}"
            + (f" with {settlement['win_tile']}" if settlement.get("win_tile") else "")
            + (f" from seat {settlement['from']}" if settlement.get("from") is not None else "")
        ]
        score = settlement.get("score") or {}
        items = [f"{i['name']} {i['value']}" for i in score.get("tai") or []]
        items += [f"{i['name']} {i['value']}番" for i in score.get("fan") or []]
        items += [f"{i['name']} {i['value']}和" for i in score.get("base_items") or []]
        if items:
            lines.append("items: " + ", ".join(items))
        lines.append(f"points: {score.get('points')}")
        if settlement.get("liable") is not None:
            lines.append(f"包三家: seat {settlement['liable']} is liable")
    lines.append(
        "payments by seat: "
        + ", ".join(f"{s}: {p:+d}" for s, p in enumerate(settlement["payments"]))
    )
    if settlement.get("carry_pool_after") is not None:
        lines.append(f"carry pool after: {settlement['carry_pool_after']}")
    return lines
