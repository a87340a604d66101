"""The published schemas type what the messages carry: every event, view, offered action and
match state of many bot hands (both rulesets, 三摊 and flowers included) matches them, and
messages with wrong content do not."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import jsonschema
import pytest

from baida.bots.policy import make_bot
from baida.engine import Match
from baida.server.tables import protocol as P
from baida.table import TableDriver, TableTiming, bot_modes

VALIDATORS = {kind: jsonschema.Draft202012Validator(model.model_json_schema())
              for kind, model in P.SERVER_MESSAGES.items()}


def check(message: dict[str, Any]) -> None:
    VALIDATORS[message["type"]].validate(message)


def refused(message: dict[str, Any]) -> bool:
    try:
        check(message)
    except jsonschema.ValidationError:
        return True
    return False


def traffic(ruleset: str, options: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """Every message a seat and a spectator get in one bot hand, plus each decision's prompt
    and a snapshot of that seat then (the content the hall sends)."""
    driver = TableDriver(Match(ruleset, options, hands=1), timing=TableTiming.instant(),
                         modes=bot_modes(None))
    driver.listeners.update({0, None})
    driver.start_hand(hashlib.sha256(f"schemas:{n}".encode()).digest(), 0.0)
    bots = [make_bot("random", seed=n * 4 + s) for s in range(4)]
    out: list[dict[str, Any]] = []
    for _ in range(2000):
        driver.advance(0.0)
        for _, message in driver.drain():
            out.append(message)
        turns = driver.bot_turns(0.0)
        if not turns:
            break
        for t in turns:
            prompt = driver.prompts[t.seat].to_json(0.0)
            out.append(prompt)
            # as a person reconnecting now would get it: with the open prompt
            out.append({**driver.snapshot(t.seat, 0.0), "prompt": prompt, "hand_id": 1,
                        "resync": True})
            driver.submit(t.seat, t.seq, bots[t.seat].choose(t.view, t.legal), 0.0)
    driver.advance(0.0)
    for _, message in driver.drain():
        out.append(message)
    out.append({**driver.snapshot(None, 0.0), "hand_id": 1, "resync": True})  # ended
    return out


@pytest.mark.parametrize("ruleset, options", [
    ("jiaxing", {"santan_threshold": 1, "allow_discard_win": True}),
    ("wenling", {}),
])
def test_real_content_matches_the_schemas(ruleset: str, options: dict[str, Any]) -> None:
    kinds: set[str] = set()
    actions: set[str] = set()
    for n in range(8):
        for message in traffic(ruleset, options, n):
            check(message)
            if message["type"] == "events":
                kinds.update(e["type"] for e in message["events"])
            if message["type"] == "prompt":
                actions.update(a["type"] for a in message["actions"])
    common = {"hand_start", "deal", "draw", "discard", "hand_end"}
    assert common <= kinds, kinds
    assert {"discard", "pass"} <= actions, actions
    if ruleset == "jiaxing":
        assert {"santan", "santan_choice"} <= kinds and {"continue", "give_up"} & actions
    else:
        assert "flower" in kinds


def sample(ruleset: str = "jiaxing") -> dict[str, dict[str, Any]]:
    """One message of each kind from a real hand."""
    found: dict[str, dict[str, Any]] = {}
    for message in traffic(ruleset, {}, 0):
        key = message["type"]
        if key == "events":
            key = "events:" + message["events"][0]["type"]
        found.setdefault(key, message)
    return found


@pytest.mark.parametrize("spoil", [
    lambda m: m["events"][0].pop("tile"),  # a discard without its tile
    lambda m: m["events"][0].update(tile="0m"),  # not a tile
    lambda m: m["events"][0].update(type="teleport"),  # no such event
    lambda m: m["events"][0].update(extra=1),  # a field no event has
    lambda m: m["events"][0].update(seat=4),
])
def test_events_are_typed(spoil: Any) -> None:
    message = copy.deepcopy(sample()["events:discard"])
    check(message)
    spoil(message)
    assert refused(message)


@pytest.mark.parametrize("spoil", [
    lambda m: m["view"].pop("wall_remaining"),
    lambda m: m["view"].update(wall=["1m"] * 80),  # a view never holds the wall
    lambda m: m["view"]["players"][1].update(concealed=[3]),  # tiles are faces
    lambda m: m["view"]["players"].pop(),  # four players
    lambda m: m["view"].update(phase="lunch"),
    lambda m: m["match"].pop("totals"),
    lambda m: m["match"].update(totals=[0, 0, 0]),
    lambda m: m["prompt"]["actions"].append({"type": "discard"}),  # a discard names a tile
    lambda m: m["prompt"]["actions"].append({"type": "pass", "seat": 1}),  # no seat
    lambda m: m["prompt"]["actions"].append({"type": "chi", "tiles": ["1m"]}),
    lambda m: m.update(modes=["player", "bot", "auto"]),
])
def test_snapshots_views_actions_and_the_match_are_typed(spoil: Any) -> None:
    message = copy.deepcopy(sample()["snapshot"])
    assert message["prompt"] is not None
    check(message)
    spoil(message)
    assert refused(message)


def test_client_actions_are_typed_the_same_way() -> None:
    for frame, ok in [
        ('{"type": "act", "seq": 1, "action": {"type": "discard", "tile": "5m"}}', True),
        ('{"type": "act", "seq": 1, "action": {"type": "discard"}}', False),
        ('{"type": "act", "seq": 1, "action": {"type": "pon", "tile": "5m"}}', False),
        ('{"type": "act", "seq": 1, "action": {"type": "chi", "tiles": ["3m", "4m"]}}', True),
        ('{"type": "act", "seq": 1, "action": {"type": "chi", "tile": "3m"}}', False),
        ('{"type": "act", "seq": 1, "action": {"type": "give_up"}}', True),
    ]:
        if ok:
            P.parse_client(frame)
        else:
            with pytest.raises(P.ProtocolError) as caught:
                P.parse_client(frame)
            assert caught.value.code == "malformed" and "action" in caught.value.message
    schema = P.CLIENT_MESSAGES["act"].model_json_schema()
    jsonschema.validate({"type": "act", "seq": 1, "action": {"type": "bukong", "tile": "E"}},
                        schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"type": "act", "seq": 1, "action": {"type": "bukong"}}, schema)
