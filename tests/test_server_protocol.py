"""The protocol's messages: parsing of client input, and the published schemas."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from baida.server.tables import protocol as P

DOCS = Path(__file__).resolve().parent.parent / "docs" / "protocol-schemas.json"


def test_the_published_schemas_are_current() -> None:
    assert DOCS.read_text() == P.schemas_json(), (
        f"run: python -m baida.server.tables.protocol > {DOCS.relative_to(DOCS.parent.parent)}")


def test_every_message_type_has_a_schema() -> None:
    schemas = P.schemas()
    assert set(schemas["client"]) == set(P.CLIENT_TYPES)
    assert {"welcome", "table", "snapshot", "events", "prompt", "refused", "hand_result"} <= set(
        schemas["server"]
    )


@pytest.mark.parametrize(
    "frame, code",
    [
        ("", "malformed"),
        ("not json", "malformed"),
        ("[]", "malformed"),
        ('{"type": "nope"}', "malformed"),
        ('{"type": "act"}', "malformed"),
        ('{"type": "act", "seq": "1", "action": {"type": "pass"}}', "malformed"),
        ('{"type": "act", "seq": true, "action": {"type": "pass"}}', "malformed"),
        ('{"type": "act", "seq": 1, "action": {"type": "pass", "seat": 2}}', "malformed"),
        ('{"type": "act", "seq": 1, "action": {"type": "discard", "tile": "0m"}}', "malformed"),
        ('{"type": "act", "seq": 1, "action": {"type": "chi", "tiles": ["1m"]}}', "malformed"),
        ('{"type": "sit", "seat": 4}', "malformed"),
        ('{"type": "chat", "text": ""}', "malformed"),
        ('{"type": "hello", "protocol": 1, "extra": 1}', "malformed"),
        ('{"type": "ping", "id": "' + "x" * 5000 + '"}', "too_large"),
        # 1,400 characters, but 4,200 bytes of UTF-8: the limit is in bytes
        ('{"type": "chat", "text": "' + "中" * 1400 + '"}', "too_large"),
    ],
)
def test_malformed_client_messages_are_named(frame: str, code: str) -> None:
    with pytest.raises(P.ProtocolError) as caught:
        P.parse_client(frame)
    assert caught.value.code == code
    assert len(caught.value.message) <= 120


def test_good_client_messages_parse() -> None:
    msg = P.parse_client(
        '{"type": "act", "seq": 3, "action": {"type": "chi", "tiles": ["3m", "4m"]}}'
    )
    assert isinstance(msg, P.Act) and msg.action.tiles == ["3m", "4m"]
    for frame in ('{"type": "hello", "protocol": 1}', '{"type": "sit", "seat": null}',
                  '{"type": "chat", "phrase": "hello"}', '{"type": "resume"}'):
        P.parse_client(frame)


@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=20,
))
@settings(max_examples=examples(100), deadline=None)
def test_any_json_is_a_message_or_a_clean_refusal(value: object) -> None:
    import json

    try:
        frame = json.dumps(value)
    except ValueError:
        return
    for candidate in (frame, json.dumps({"type": "act", "seq": 1, "action": value})):
        try:
            P.parse_client(candidate)
        except P.ProtocolError as exc:
            assert exc.code in ("malformed", "too_large") and exc.message


_VALIDATORS: dict[str, jsonschema.Draft202012Validator] = {}


def validate(message: dict) -> None:
    """A server message against its published schema (each type's validator made once: the
    schemas type every event and view, so checking one against the meta-schema takes ~80 ms)."""
    kind = message["type"]
    validator = _VALIDATORS.get(kind)
    if validator is None:
        schema = P.SERVER_MESSAGES[kind].model_json_schema()
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = _VALIDATORS[kind] = jsonschema.Draft202012Validator(schema)
    validator.validate(message)
