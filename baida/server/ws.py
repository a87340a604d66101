"""The table WebSocket: ``/ws/tables/{id}``. Authenticates the connection from its session
cookie, checks the browser's origin, waits for ``hello``, then hands every well-formed
message to the table's actor; malformed, oversized and flooding messages are refused here
and never reach the table.

It is a plain ASGI handler (the hall's hottest path: no framework layer on each frame);
``app.HallApp`` sends it the WebSocket requests for ``/ws/tables/``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from starlette.requests import cookie_parser

from . import protocol as P
from .auth import COOKIE
from .connection import Connection
from .logs import fields
from .runtime import Runtime
from .table_actor import CLOSED

log = logging.getLogger(__name__)

PREFIX = "/ws/tables/"
HELLO_SECONDS = 15.0

Receive = Any
Send = Any


class Disconnected(Exception):
    """The client went away."""


@dataclass(frozen=True, slots=True)
class _Turned:
    """Why a connection is turned away."""

    code: str
    message: str
    close_code: int


async def table_socket(scope: dict[str, Any], receive: Receive, send: Send,
                       runtime: Runtime) -> None:
    first = await receive()
    if first["type"] != "websocket.connect":
        return
    checked = await _check(scope, runtime)
    await send({"type": "websocket.accept"})
    if isinstance(checked, _Turned):  # say why, so that a browser page can tell the player
        await send({"type": "websocket.send",
                    "text": P.encode({"type": "error", "code": checked.code,
                                      "message": checked.message})})
        await send({"type": "websocket.close", "code": checked.close_code,
                    "reason": checked.code})
        return
    user, actor = checked
    settings = runtime.settings

    async def send_text(text: str) -> None:
        await send({"type": "websocket.send", "text": text})

    async def close(code: int, reason: str) -> None:
        try:
            await send({"type": "websocket.close", "code": code, "reason": reason})
        except Exception:  # already closed by the peer
            pass

    conn = Connection(user, send_text, close, time.monotonic,
                      rate=settings.client_rate, burst=settings.client_burst)
    conn.start()
    if not await _hello(receive, conn):
        await conn.finish()
        return
    metrics = runtime.metrics
    metrics.connections.inc()
    runtime.directory.online(user.id, +1)
    actor.connect(conn)
    try:
        while not conn.closed:
            frame = await receive()
            if frame["type"] != "websocket.receive":
                break
            metrics.pending_in += 1
            text = frame.get("text")
            if text is None:
                _refuse(conn, "malformed", "send text frames of JSON", actor.id)
                continue
            if not conn.allow():
                _refuse(conn, "rate_limited", "too many messages; slow down", actor.id)
                metrics.refused("rate_limited")
                continue
            try:
                message = P.parse_client(text)
            except P.ProtocolError as exc:
                metrics.refused(exc.code)
                _refuse(conn, exc.code, exc.message, actor.id)
                continue
            actor.receive(conn, message)
    finally:
        metrics.connections.dec()
        runtime.directory.online(user.id, -1)
        if actor.status != CLOSED:  # a closed table's task has ended: nobody to tell
            actor.disconnect(conn)
        await conn.finish()
        conn.closed = True


async def _check(scope: dict[str, Any], runtime: Runtime) -> Any:
    """(user, table actor) for a connection the hall takes, else why not."""
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
    if not runtime.origin_ok(headers.get("origin"), headers.get("host")):
        return _Turned("origin", "this connection did not come from the hall's own page", 4403)
    cookies = cookie_parser(headers.get("cookie", ""))
    found = await runtime.user_of(cookies.get(COOKIE))
    if found is None:
        return _Turned("unauthorized", "sign in first (or play as a guest)", 4401)
    tail = scope["path"][len(PREFIX):]
    table_id = int(tail) if tail.isdigit() and len(tail) < 12 else -1
    assert runtime.hall is not None
    actor = runtime.hall.get(table_id)
    # a private table is the host's, its room code's and its seated people's: to anyone
    # else it does not exist (ids are consecutive; the answer must not tell them apart)
    if actor is None or not runtime.hall.may_open(actor, found[0]):
        return _Turned("no_table", "no such table", 4404)
    return found[0], actor


async def _hello(receive: Receive, conn: Connection) -> bool:
    """The first message must be ``hello`` with this protocol's version."""
    try:
        frame = await asyncio.wait_for(receive(), HELLO_SECONDS)
    except TimeoutError:
        conn.close(4408, "no hello")
        return False
    if frame["type"] != "websocket.receive":
        conn.closed = True
        return False
    try:
        message = P.parse_client(frame.get("text") or b"")
    except P.ProtocolError as exc:
        _fatal(conn, "protocol", f"the first message is hello: {exc.message}")
        return False
    if not isinstance(message, P.Hello):
        _fatal(conn, "protocol", "the first message is hello")
        return False
    if message.protocol != P.PROTOCOL:
        _fatal(conn, "version", f"this hall speaks protocol {P.PROTOCOL}")
        return False
    conn.greeted = True
    conn.batch = message.batch
    return True


def _refuse(conn: Connection, code: str, message: str, table_id: int) -> None:
    conn.send({"type": "refused", "code": code, "message": message, "id": None})
    if conn.strike():
        log.warning("user %s at table %s: %d bad messages, disconnected", conn.user.id,
                    table_id, conn.strikes, extra=fields(
                        "refusal_flood", table=table_id, user=conn.user.id, seat=conn.seat,
                        last_code=code, strikes=conn.strikes))
        _fatal(conn, "misbehaving", "too many bad messages")


def _fatal(conn: Connection, code: str, message: str) -> None:
    conn.send({"type": "error", "code": code, "message": message})
    conn.close(4400, code)
