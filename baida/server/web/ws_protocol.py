"""The hall's WebSocket protocol for uvicorn: ``/ws/tables/{id}``, without the ASGI layer.

uvicorn hands every WebSocket upgrade to the protocol class of its ``ws`` setting; this one
(``baida serve`` and the tests use it) speaks WebSocket through the ``websockets`` library's
sans-I/O ``ServerProtocol`` (handshake, frame parsing, pings, closing) and calls the table's
session (``ws.TableSession``) straight from ``data_received``: no task, queue or coroutine per
message, and the hall's own frames are written the moment a table flushes. The path must be
a table's; anything else is answered 404.

The session is found through the ASGI lifespan state (``create_app`` puts the runtime there).
"""

from __future__ import annotations

import asyncio
import logging
import os
import struct
from typing import Any

from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

from ..nodes.forward import FORWARDED_HEADER, connect_owner, forwarded_request
from ..nodes.handoff import BUSY, SENT, hand_off, socket_path
from .client_limits import release_socket_connection
from .ws import PREFIX, TableSession, table_id

log = logging.getLogger(__name__)

RUNTIME_KEY = "baida.runtime"  # where the lifespan state keeps the hall's Runtime
CLOSE_TIMEOUT = 10.0  # seconds to wait for the client's answer to our close frame
HANDOFF_SECONDS = 5.0  # how long a connection waits for its table's node to take it
_SHORT = struct.Struct("!BB")
_MEDIUM = struct.Struct("!BBH")
_LONG = struct.Struct("!BBQ")


def text_frame(payload: bytes) -> bytes:
    """One final, unmasked text frame (RFC 6455 5.2), as a server sends it."""
    n = len(payload)
    if n < 126:
        return _SHORT.pack(0x81, n) + payload
    if n < 65536:
        return _MEDIUM.pack(0x81, 126, n) + payload
    return _LONG.pack(0x81, 127, n) + payload


class TableSocketProtocol(asyncio.Protocol):
    """One client's WebSocket connection (uvicorn creates it on an upgrade request)."""

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.config = config
        self.server_state = server_state
        self.app_state = app_state
        self.loop = _loop or asyncio.get_event_loop()
        self.ws = ServerProtocol(max_size=config.ws_max_size,
                                 logger=logging.getLogger("uvicorn.error"))
        self.transport: asyncio.Transport | None = None
        self.session: TableSession | None = None
        self._fragments: list[bytes] = []
        self._text = True  # the message being received is text
        self._close_timer: asyncio.TimerHandle | None = None
        self._ping_interval: float | None = config.ws_ping_interval or None
        self._ping_timeout: float | None = config.ws_ping_timeout
        self._ping_timer: asyncio.TimerHandle | None = None
        self._ping_payload: bytes | None = None
        self._heard = False  # data came in since the last keepalive check
        self._first = True  # no data yet: the request may be another node's to answer
        self._handoff_timer: asyncio.TimerHandle | None = None
        self._owner: asyncio.Transport | None = None  # forwarding to the owner's machine

    # ------------------------------------------------------------ asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.server_state.connections.add(self)

    def data_received(self, data: bytes) -> None:
        if self._owner is not None:
            self._owner.write(data)
            return
        if self._first:
            self._first = False
            if self._handed_off(data):
                return
        self._receive(data)

    def _receive(self, data: bytes) -> None:
        self._heard = True
        ws = self.ws
        ws.receive_data(data)
        for event in ws.events_received():
            if isinstance(event, Frame):
                self._frame(event)
            elif isinstance(event, Request):
                self._request(event)
        self._write_pending()
        if ws.close_expected() or ws.state is State.CLOSED:
            self._close_transport()

    def eof_received(self) -> None:
        if self._owner is not None:
            self._owner.close()
            return
        self.ws.receive_eof()
        self._write_pending()

    def connection_lost(self, exc: Exception | None) -> None:
        self.server_state.connections.discard(self)
        runtime = self.app_state.get(RUNTIME_KEY)
        release_socket_connection(self, None if runtime is None else runtime.limits)
        for timer in (self._close_timer, self._ping_timer, self._handoff_timer):
            if timer is not None:
                timer.cancel()
        self._close_timer = self._ping_timer = self._handoff_timer = None
        session, self.session = self.session, None
        if session is not None:
            session.closed()
        owner, self._owner = self._owner, None
        if owner is not None:
            owner.close()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def shutdown(self) -> None:
        """The server is stopping (uvicorn calls this on every open connection)."""
        if self.ws.state is State.OPEN:
            self.close(1012, "server restarting")
        else:
            self._close_transport()

    def _handed_off(self, request: bytes) -> bool:
        """Pass the connection to the node that owns its table (one of several nodes);
        False if it is this node's to answer."""
        runtime = self.app_state.get(RUNTIME_KEY)
        if runtime is None or runtime.settings.node is None or self.transport is None:
            return False
        owner = runtime.owner_elsewhere(requested_table(request))
        if owner is None:
            return False
        folder = runtime.settings.node.folder
        if not socket_path(folder, owner).exists():  # not a node of this machine
            address = runtime.address_of(owner)
            headers = _raw_headers(request)
            if address is None or FORWARDED_HEADER in headers:
                return False  # unknown, or forwarded here already: answered here (moving)
            self.transport.pause_reading()
            request = forwarded_request(request, self._address(runtime, headers))
            task = self.loop.create_task(self._forward(address, request))
            _adopting.add(task)
            task.add_done_callback(_adopting.discard)
            return True
        deadline = self.loop.time() + HANDOFF_SECONDS
        self._hand_to(folder, owner, request, deadline, 0.001)
        return True

    async def _forward(self, address: str, request: bytes) -> None:
        """Copy the connection to and from its table's owner on another machine; if it
        cannot be reached, answer here after all (the table is moving)."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        owner = await connect_owner(transport, address, request)
        if transport.is_closing():
            if owner is not None:
                owner.close()
            return
        transport.resume_reading()
        if owner is None:
            self._receive(request)
            return
        self._owner = owner

    def _hand_to(self, folder: Any, owner: str, request: bytes, deadline: float,
                 delay: float) -> None:
        """Try to hand the connection over; while the owner's queue is full, again a little
        later (reading paused); if the owner cannot be reached, answer here after all."""
        self._handoff_timer = None
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        sock = transport.get_extra_info("socket")
        result = hand_off(folder, owner, sock.fileno(), request) if sock is not None else ""
        if result == SENT:
            self.server_state.connections.discard(self)
            self.transport = None
            transport.abort()  # closes this process's descriptor only: the owner has it
            return
        if result == BUSY and self.loop.time() + delay < deadline:
            transport.pause_reading()
            self._handoff_timer = self.loop.call_later(
                delay, self._hand_to, folder, owner, request, deadline, min(delay * 2, 0.05))
            return
        log.warning("the connection to table %s stays here: its node %s %s",
                    requested_table(request), owner,
                    "was busy too long" if result == BUSY else "could not be reached")
        transport.resume_reading()
        self._receive(request)  # and the hall answers that it has no such table

    # ------------------------------------------------------------ incoming

    def _request(self, request: Request) -> None:
        path = request.path.partition("?")[0]
        runtime = self.app_state.get(RUNTIME_KEY)
        if not path.startswith(PREFIX) or runtime is None:
            response = self.ws.reject(404, "not found\n")
        else:
            response = self.ws.accept(request)
        self.ws.send_response(response)
        self._write_pending()
        if response.status_code != 101:
            self._close_transport()
            return
        headers = {k.lower(): v for k, v in request.headers.raw_items()}
        self.session = TableSession(runtime, self, path, headers, self._address(runtime, headers))
        self._schedule_ping()

    def _address(self, runtime: Any, headers: dict[str, str]) -> str:
        """The client's address: the peer's, or the one a trusted proxy forwards."""
        peername = None if self.transport is None else self.transport.get_extra_info("peername")
        peer = peername[0] if isinstance(peername, tuple) else "?"
        return runtime.limits.proxies.client(peer, headers.get("x-forwarded-for"))

    def _frame(self, frame: Frame) -> None:
        opcode = frame.opcode
        if opcode is Opcode.TEXT or opcode is Opcode.BINARY or opcode is Opcode.CONT:
            if opcode is not Opcode.CONT:
                self._fragments = [frame.data]
                self._text = opcode is Opcode.TEXT
            else:
                self._fragments.append(frame.data)
            if not frame.fin:
                return
            data = self._fragments[0] if len(self._fragments) == 1 else b"".join(
                self._fragments)
            self._fragments = []
            session = self.session
            if session is None:
                return
            if not self._text:
                session.received(None)
                return
            try:
                text = bytes(data).decode()
            except UnicodeDecodeError:
                self.ws.fail(1007, "invalid UTF-8")
                return
            session.received(text)
        elif opcode is Opcode.PONG:
            if self._ping_payload is not None and bytes(frame.data) == self._ping_payload:
                self._ping_payload = None
        # PING is answered and CLOSE replied to by the ServerProtocol itself

    # ------------------------------------------------------------ SocketWriter

    def write_text(self, text: str) -> None:
        if self.ws.state is State.OPEN and self.transport is not None:
            self.transport.write(text_frame(text.encode()))

    def write_texts(self, texts: list[str]) -> None:
        if self.ws.state is State.OPEN and self.transport is not None:
            self.transport.write(b"".join([text_frame(text.encode()) for text in texts]))

    def close(self, code: int, reason: str) -> None:
        if self.ws.state is not State.OPEN:
            return
        self.ws.send_close(code, reason)
        self._write_pending()
        if self._close_timer is None:
            self._close_timer = self.loop.call_later(CLOSE_TIMEOUT, self._close_transport)

    def unread(self) -> int:
        transport = self.transport
        return 0 if transport is None else transport.get_write_buffer_size()

    # ------------------------------------------------------------ keepalive

    def _schedule_ping(self) -> None:
        if self._ping_interval is not None:
            self._ping_timer = self.loop.call_later(self._ping_interval, self._keepalive)

    def _keepalive(self) -> None:
        """Ping a connection that has been silent for a whole interval; close it if its
        last ping went unanswered for the ping timeout."""
        self._ping_timer = None
        if self.ws.state is not State.OPEN:
            return
        if self._ping_payload is not None and not self._heard:
            self.ws.fail(1011, "keepalive ping timeout")
            self._write_pending()
            self._close_transport()
            return
        if not self._heard:
            self._ping_payload = os.urandom(4)
            self.ws.send_ping(self._ping_payload)
            self._write_pending()
        self._heard = False
        wait = self._ping_interval or 0.0
        if self._ping_payload is not None and self._ping_timeout:
            wait = min(wait, self._ping_timeout)
        self._ping_timer = self.loop.call_later(wait, self._keepalive)

    # ------------------------------------------------------------ plumbing

    def _write_pending(self) -> None:
        output = self.ws.data_to_send()
        if output and self.transport is not None and not self.transport.is_closing():
            data = b"".join(output)
            if data:
                self.transport.write(data)

    def _close_transport(self) -> None:
        if self._close_timer is not None:
            self._close_timer.cancel()
            self._close_timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()


def requested_table(request: bytes) -> int:
    """The table id of a ``GET /ws/tables/{id}`` request's first line (-1: none)."""
    line = request[: request.find(b"\r\n")]
    parts = line.split(b" ")
    if len(parts) != 3:
        return -1
    return table_id(parts[1].partition(b"?")[0].decode("latin-1"))


def adopt(server: Any, conn: Any, request: bytes) -> None:
    """Serve a connection another node handed over (``handoff``), its request already read,
    as if this node had accepted it."""
    if server is None:
        conn.close()
        return
    loop = asyncio.get_running_loop()
    protocol = TableSocketProtocol(server.config, server.server_state, server.lifespan.state,
                                   _loop=loop)
    protocol._first = False  # it is this node's: never handed on again

    async def connect() -> None:
        try:
            await loop.connect_accepted_socket(lambda: protocol, conn)
        except OSError as exc:
            log.info("a handed connection was gone: %s", exc)
            conn.close()
            return
        protocol.data_received(request)

    task = loop.create_task(connect())
    _adopting.add(task)
    task.add_done_callback(_adopting.discard)


_adopting: set[asyncio.Task[None]] = set()


def _raw_headers(request: bytes) -> dict[str, str]:
    """The headers of a request's head as read so far (lower-case names)."""
    out = {}
    for line in request.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        name, sep, value = line.partition(b":")
        if sep:
            out[name.strip().lower().decode("latin-1")] = value.strip().decode("latin-1")
    return out
