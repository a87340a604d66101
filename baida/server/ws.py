"""The table WebSocket: ``/ws/tables/{id}``. Authenticates the connection from its session
cookie, checks the browser's origin, waits for ``hello``, then hands every well-formed
message to the table's actor; malformed, oversized and flooding messages are refused here
and never reach the table."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import protocol as P
from .auth import COOKIE
from .connection import Connection
from .runtime import Runtime

log = logging.getLogger(__name__)

HELLO_SECONDS = 15.0


async def table_socket(ws: WebSocket) -> None:
    runtime: Runtime = ws.app.state.runtime
    refusal = await _check(ws, runtime)
    await ws.accept()
    if isinstance(refusal, _Turned):  # say why, so that a browser page can tell the player
        await ws.send_text(P.encode({"type": "error", "code": refusal.code,
                                     "message": refusal.message}))
        await ws.close(code=refusal.close_code, reason=refusal.code)
        return
    user, actor = refusal
    settings = runtime.settings
    conn = Connection(user, ws.send_text, _closer(ws), time.monotonic,
                      rate=settings.client_rate, burst=settings.client_burst)
    conn.start()
    metrics = runtime.metrics
    if not await _hello(ws, conn):
        await conn.finish()
        return
    metrics.connections.inc()
    runtime.directory.online(user.id, +1)
    actor.connect(conn)
    try:
        while not conn.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            metrics.messages_in.inc()
            text = frame.get("text")
            if text is None:
                _refuse(conn, "malformed", "send text frames of JSON")
                continue
            if not conn.allow():
                _refuse(conn, "rate_limited", "too many messages; slow down")
                metrics.refused("rate_limited")
                continue
            try:
                message = P.parse_client(text)
            except P.ProtocolError as exc:
                metrics.refused(exc.code)
                _refuse(conn, exc.code, exc.message)
                continue
            actor.receive(conn, message)
    except WebSocketDisconnect:
        pass
    finally:
        metrics.connections.dec()
        runtime.directory.online(user.id, -1)
        actor.disconnect(conn)
        await conn.finish()
        conn.closed = True


async def _hello(ws: WebSocket, conn: Connection) -> bool:
    """The first message must be ``hello`` with this protocol's version."""
    try:
        frame = await asyncio.wait_for(ws.receive(), HELLO_SECONDS)
    except (TimeoutError, WebSocketDisconnect):
        conn.close(4408, "no hello")
        return False
    if frame["type"] == "websocket.disconnect":
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
    return True


@dataclass(frozen=True, slots=True)
class _Turned:
    """Why a connection is turned away."""

    code: str
    message: str
    close_code: int


async def _check(ws: WebSocket, runtime: Runtime) -> Any:
    """(user, table actor) for a connection the hall takes, else why not."""
    if not runtime.origin_ok(ws.headers.get("origin"), ws.headers.get("host")):
        return _Turned("origin", "this connection did not come from the hall's own page", 4403)
    found = await runtime.user_of(ws.cookies.get(COOKIE))
    if found is None:
        return _Turned("unauthorized", "sign in first (or play as a guest)", 4401)
    try:
        table_id = int(ws.path_params["table_id"])
    except (KeyError, ValueError):
        table_id = -1
    assert runtime.hall is not None
    actor = runtime.hall.get(table_id)
    if actor is None:
        return _Turned("no_table", "no such table", 4404)
    return found[0], actor


def _refuse(conn: Connection, code: str, message: str) -> None:
    conn.send({"type": "refused", "code": code, "message": message, "id": None})
    if conn.strike():
        _fatal(conn, "misbehaving", "too many bad messages")


def _fatal(conn: Connection, code: str, message: str) -> None:
    conn.send({"type": "error", "code": code, "message": message})
    conn.close(4400, code)


def _closer(ws: WebSocket) -> Any:
    async def close(code: int, reason: str) -> None:
        try:
            await ws.close(code=code, reason=reason)
        except Exception:  # already closed by the peer
            pass

    return close
