"""The hall's outermost ASGI layer: bounded request bodies and the security headers.

``BodyLimit`` refuses a body past its path's limit with 413 before the application sees it:
at once when ``Content-Length`` says so, and as soon as a streamed (chunked) body passes the
limit, so at most the limit is ever held in memory. ``SecurityHeaders`` adds the
Content-Security-Policy and its companions to every HTTP answer.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 64 * 1024  # bytes of a request body (JSON of the lobby)
MAX_RECORD = 2 * 1024 * 1024  # ... of a game record sent to be checked
BODY_LIMITS = {"/api/verify": MAX_RECORD}

# the page runs its own scripts and styles only (no inline script, no eval); its sockets go
# to this hall; nobody may frame it
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


def body_limit(path: str) -> int:
    """The most bytes a request body to ``path`` may have."""
    return BODY_LIMITS.get(path, MAX_BODY)


DRAIN_SECONDS = 2.0  # after a refusal, how long the rest of a body is read and dropped
DRAIN_BYTES = 16 * 1024 * 1024  # ... and how much of it at most


async def _refuse(send: Send, status: int, message: str, receive: Receive | None = None) -> None:
    """A JSON error that also closes the connection. The connection stays open a moment
    while what is left of the body is read and dropped (at most ``DRAIN_SECONDS`` and
    ``DRAIN_BYTES``, never kept), so that a client still sending reads the answer before the
    close resets the connection."""
    payload = b'{"error":"' + message.encode() + b'"}'
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"connection", b"close"),
    ]})
    await send({"type": "http.response.body", "body": payload, "more_body": receive is not None})
    if receive is None:
        return
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(_drop_body(receive), DRAIN_SECONDS)
    await send({"type": "http.response.body", "body": b""})


async def _drop_body(receive: Receive) -> None:
    dropped = 0
    while dropped < DRAIN_BYTES:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return
        dropped += len(message.get("body", b""))


class BodyLimit:
    """Reads a request's body (at most its limit) before the application runs."""

    def __init__(self, app: ASGIApp, limit: Callable[[str], int] = body_limit) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit(scope["path"])
        too_big = f"the request is larger than {limit} bytes"
        length = _content_length(scope)
        if length == -1:
            await _refuse(send, 400, "the Content-Length header is not a number")
            return
        if length is not None and length > limit:
            await _refuse(send, 413, too_big, receive)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _refuse(send, 413, too_big, receive)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        await self.app(scope, _replay(b"".join(chunks), receive), send)


def _content_length(scope: Scope) -> int | None:
    """The declared body length (None: not declared; -1: not a number)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            return int(value) if value.isdigit() and len(value) <= 18 else -1
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read already, then whatever comes next."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


class SecurityHeaders:
    """Adds ``SECURITY_HEADERS`` to every HTTP answer that has not set them itself."""

    def __init__(self, app: ASGIApp, headers: list[tuple[bytes, bytes]] = SECURITY_HEADERS
                 ) -> None:
        self.app = app
        self.headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in present]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)
