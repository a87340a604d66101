"""The table protocol, version 1: JSON messages over one WebSocket per table and client.

The client's messages are parsed here into typed values (``parse_client``); anything else is a
``ProtocolError`` whose text names the problem and nothing else. The server's messages are
built as plain dicts by the table (hot path); their shapes are the models below (what they
carry, events, views and tables, in ``shapes``), from which ``schemas()`` makes the JSON
Schemas of ``docs/protocol.md`` (tests validate real traffic against them).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .shapes import (
    EventJson,
    Face,
    MatchJson,
    Mode,
    Seat,
    TableInfo,
    UserJson,
    ViewJson,
    _Out,
)

PROTOCOL = 1
MAX_FRAME = 4096  # bytes of one client message
CHAT_MAX = 80  # characters of a chat text
ID_MAX = 32  # characters of a client's ``id``


class ProtocolError(ValueError):
    """A client message that is not one of this protocol (``id``: its own, if valid)."""

    def __init__(self, code: str, message: str, id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.id = id


def _valid_id(obj: dict[str, Any]) -> str | None:
    """The ``id`` of a message object if it is one the protocol takes (a short string)."""
    value = obj.get("id")
    return value if isinstance(value, str) and len(value) <= ID_MAX else None


def sent_id(frame: str | bytes) -> str | None:
    """The valid ``id`` of a frame not parsed as a message (a refusal echoes it), else None."""
    try:
        obj = orjson.loads(frame) if _size(frame) <= MAX_FRAME else None
    except orjson.JSONDecodeError:
        return None
    return _valid_id(obj) if isinstance(obj, dict) else None


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# ---------------------------------------------------------------- client → server


class Hello(_Message):
    """The first message on a connection: the protocol version the client speaks. With
    ``batch``, the hall may send several messages in one frame, as a JSON array."""

    type: Literal["hello"]
    protocol: int
    batch: bool = False


class Sit(_Message):
    """Take a seat (``seat`` null: any free seat)."""

    type: Literal["sit"]
    seat: Seat | None = None


class Stand(_Message):
    """Leave one's seat. During a match at a 银子 table this is an escape (with a penalty):
    ``escape`` must then be true."""

    type: Literal["stand"]
    escape: bool = False


class Ready(_Message):
    """Ready for the next match or hand (``ready`` false takes it back)."""

    type: Literal["ready"]
    ready: bool = True


class Start(_Message):
    """The host starts the match now: empty seats get bots if ``bots``, every seated person
    must be ready."""

    type: Literal["start"]
    bots: bool = False


class AddBots(_Message):
    """Fill every empty seat with a bot."""

    type: Literal["add_bots"]


# An action, as a prompt offers it and as ``act`` answers it (no seat: it is the connection's).
# Each type has exactly its own fields.


class TileAction(_Message):
    """Discard a tile, or declare a concealed kong (``akong``, 暗杠) or an added kong
    (``bukong``, 补杠) of it."""

    type: Literal["discard", "akong", "bukong"]
    tile: Face


class ChiAction(_Message):
    """吃: the last discard with two of your own tiles (``tiles``) as a run."""

    type: Literal["chi"]
    tiles: Annotated[list[Face], Field(min_length=2, max_length=2)]


class PlainAction(_Message):
    """An action with nothing to choose: ``win`` (自摸 or on the discard), ``lazi`` (Wenling's
    辣子 win), ``pon`` (碰), ``mkong`` (明杠 on the discard), ``pass`` (let a window go),
    ``continue`` / ``give_up`` (the 三摊 question: 坚持 or 放弃)."""

    type: Literal["win", "lazi", "pon", "mkong", "pass", "continue", "give_up"]


ActionJson = Annotated[TileAction | ChiAction | PlainAction, Field(discriminator="type")]


class Act(_Message):
    """The answer to prompt ``seq``; ``id`` (optional) comes back in the ack or refusal."""

    type: Literal["act"]
    seq: int
    action: ActionJson
    id: Annotated[str, Field(max_length=ID_MAX)] | None = None


class Resume(_Message):
    """Take the seat back from 托管."""

    type: Literal["resume"]


class Chat(_Message):
    """A short text or one of the quick phrases (``phrase``: its id)."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=CHAT_MAX)] | None = None
    phrase: Annotated[str, Field(max_length=32)] | None = None


class Report(_Message):
    """Report the person in ``seat`` to the hall's operator (abuse in the chat, say)."""

    type: Literal["report"]
    seat: Seat


class Ping(_Message):
    type: Literal["ping"]
    id: Annotated[str, Field(max_length=ID_MAX)] | None = None


ClientMessage = Annotated[
    Hello | Sit | Stand | Ready | Start | AddBots | Act | Resume | Chat | Report | Ping,
    Field(discriminator="type"),
]
_CLIENT = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "sit", "stand", "ready", "start", "add_bots", "act", "resume", "chat",
                "report", "ping")


def _size(frame: str | bytes) -> int:
    """Bytes of a frame, text counted as UTF-8 (a Chinese character is three)."""
    if isinstance(frame, bytes) or len(frame) * 4 <= MAX_FRAME:  # short: within the limit
        return len(frame)
    return len(frame.encode("utf-8", "surrogatepass"))


def parse_client(frame: str | bytes) -> Any:
    """A client message from one frame; ``ProtocolError`` for anything else."""
    if _size(frame) > MAX_FRAME:
        raise ProtocolError("too_large", f"a message is at most {MAX_FRAME} bytes")
    try:
        obj = orjson.loads(frame)
    except orjson.JSONDecodeError:
        raise ProtocolError("malformed", "not JSON") from None
    if not isinstance(obj, dict):
        raise ProtocolError("malformed", "a message is a JSON object")
    kind = obj.get("type")
    if kind not in CLIENT_TYPES:
        shown = kind if isinstance(kind, str) and len(kind) <= 20 else "?"
        raise ProtocolError("malformed", f"unknown message type {shown!r}", _valid_id(obj))
    try:
        return _CLIENT.validate_python(obj)
    except ValidationError as exc:
        raise ProtocolError("malformed", _describe(exc), _valid_id(obj)) from None


def _describe(exc: ValidationError) -> str:
    """The first problem of a message, naming the field (never echoing long input)."""
    error = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(p) for p in error["loc"][1:]) or "message"
    return f"{where}: {error['msg']}"[:120]


def encode(message: dict[str, Any]) -> str:
    return orjson.dumps(message).decode()


# ---------------------------------------------------------------- server → client
# (what the messages carry: ``shapes``)


class Welcome(_Out):
    type: Literal["welcome"]
    protocol: int
    user: UserJson
    seat: Seat | None
    table: TableInfo


class TableMessage(_Out):
    type: Literal["table"]
    table: TableInfo


class PromptMessage(_Out):
    """A decision the seat owes: answer with ``act`` and this ``seq`` (each seat numbers its
    own prompts). ``time_ms``: the free time left; ``bank_ms``: the bank after it (null: no
    limit)."""

    type: Literal["prompt"]
    seq: int
    kind: Literal["turn", "claim", "rob", "santan"]
    actions: Annotated[list[ActionJson], Field(min_length=1)]
    time_ms: int | None
    bank_ms: int | None


class Snapshot(_Out):
    """A seat's view of the hand (on joining or reconnecting); events follow from
    ``event_index``; ``resync`` true when it replaces what the client had (no sounds)."""

    type: Literal["snapshot"]
    match: MatchJson
    modes: Annotated[list[Mode], Field(min_length=4, max_length=4)]
    view: ViewJson | None
    event_index: int
    prompt: PromptMessage | None
    hand_id: int | None
    resync: bool


class EventsMessage(_Out):
    """Events of the hand in order, as the recipient may see them; ``index`` is the position
    of the first in the hand's event list."""

    type: Literal["events"]
    index: int
    events: Annotated[list[EventJson], Field(min_length=1)]


class PromptClosed(_Out):
    """Prompt ``seq`` ran out of time (a window passed for you, or 托管 took the seat)."""

    type: Literal["prompt_closed"]
    seq: int
    reason: Literal["timeout"]


class Ack(_Out):
    type: Literal["ack"]
    seq: int | None
    id: str | None


class Refusal(_Out):
    """A message the table did not take, nothing changed (codes, reasons: docs/protocol.md)."""

    type: Literal["refused"]
    code: str
    message: str
    id: str | None
    reason: str | None = None


class SeatMode(_Out):
    type: Literal["seat_mode"]
    seat: Seat
    mode: Mode
    reason: str | None


class SilverChange(_Out):
    seat: Seat
    owed: int
    paid: int
    fee: int
    balance: int | None  # only in the message to that seat's own player


class HandResultMessage(_Out):
    """After a hand: its number, stored id, the match totals and (银子 tables) the ledger."""

    type: Literal["hand_result"]
    hand_id: int | None
    number: int
    totals: list[int]
    silver: list[SilverChange] | None
    match_over: bool
    # seconds until the hall deals the next hand by itself (null: no limit, or the match is
    # over); counted when this message is sent, so a reloaded page shows the true countdown
    next_in: float | None = None


class ChatMessage(_Out):
    type: Literal["chat"]
    seat: Seat | None
    name: str
    text: str | None
    phrase: str | None


class Reported(_Out):
    """Your report of the person in ``seat`` reached the hall's operator."""

    type: Literal["reported"]
    seat: Seat


class Pong(_Out):
    type: Literal["pong"]
    id: str | None


class ErrorMessage(_Out):
    """Sent before the server closes the connection."""

    type: Literal["error"]
    code: str
    message: str


class Notice(_Out):
    """Something the table tells, not part of the game: ``storage_down`` (the hall cannot
    store the table's moves just now: the table waits, clocks stopped, and takes the answers
    sent meanwhile when it goes on) and ``storage_back``, to everyone; ``match_abandoned``,
    to a person of a match that ended while nobody was at the table, when they come back."""

    type: Literal["notice"]
    code: Literal["storage_down", "storage_back", "match_abandoned"]
    message: str


SERVER_MESSAGES: dict[str, type[BaseModel]] = {
    "welcome": Welcome,
    "table": TableMessage,
    "snapshot": Snapshot,
    "events": EventsMessage,
    "prompt": PromptMessage,
    "prompt_closed": PromptClosed,
    "ack": Ack,
    "refused": Refusal,
    "seat_mode": SeatMode,
    "hand_result": HandResultMessage,
    "chat": ChatMessage,
    "reported": Reported,
    "pong": Pong,
    "error": ErrorMessage,
    "notice": Notice,
}
CLIENT_MESSAGES: dict[str, type[BaseModel]] = {
    "hello": Hello,
    "sit": Sit,
    "stand": Stand,
    "ready": Ready,
    "start": Start,
    "add_bots": AddBots,
    "act": Act,
    "resume": Resume,
    "chat": Chat,
    "report": Report,
    "ping": Ping,
}


def schemas() -> dict[str, Any]:
    """The JSON Schema of every message, by direction and type."""
    return {
        "protocol": PROTOCOL,
        "client": {k: m.model_json_schema() for k, m in CLIENT_MESSAGES.items()},
        "server": {k: m.model_json_schema() for k, m in SERVER_MESSAGES.items()},
    }


def schemas_json() -> str:
    """``schemas()`` as the text of ``docs/protocol-schemas.json``."""
    text = orjson.dumps(schemas(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode()
    return text + "\n"


if __name__ == "__main__":  # python -m baida.server.tables.protocol > docs/protocol-schemas.json
    print(schemas_json(), end="")
