"""One client's WebSocket at one table: a send queue of its own, and limits on what it sends.

A slow phone must never stall a table: the table only adds messages to the connection's
queue, and the queue is written once per turn of the event loop, in one write to the socket:
one frame holding all of it when the client asked for batches, a frame per message otherwise.
Writing never waits: the socket's transport keeps what the client has not read yet, and a
client that lets too much pile up (or too many messages) is disconnected. Incoming messages
pass a token bucket (a flood is refused, then disconnected) and a count of malformed messages.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..ops.logs import fields
from .protocol import encode

log = logging.getLogger(__name__)

SEND_QUEUE = 512  # messages waiting for the next write before the client is dropped
MAX_UNREAD = 1 << 20  # bytes the client has not read yet before it is dropped
RATE = 8.0  # messages per second a client may send on average
BURST = 24.0  # ... and at once
MAX_STRIKES = 20  # bad messages (malformed, flooding, acts refused) before it is closed ...
STRIKE_WINDOW = 60.0  # ... within this many seconds: a slow client's occasional stale act
# (its answer crossed a timeout) never adds up to a disconnection over a long evening


@dataclass(slots=True)
class User:
    """Who is on a connection (from the signed session cookie)."""

    id: int
    name: str
    role: str = "player"
    guest: bool = True


class SocketWriter(Protocol):
    """What a connection writes through (the WebSocket protocol of ``ws_protocol``)."""

    def write_text(self, text: str) -> None:
        """Send one text frame now (never waits)."""
        ...

    def write_texts(self, texts: list[str]) -> None:
        """Send several text frames now, in one write to the socket."""
        ...

    def close(self, code: int, reason: str) -> None:
        """Send the close frame; the socket closes when the client answers."""
        ...

    def unread(self) -> int:
        """Bytes written that the client has not taken yet."""
        ...


class _Flusher:
    """Writes every connection that has something queued, once per turn of its event loop:
    one callback for all of them (not one per connection)."""

    __slots__ = ("loop", "dirty", "due")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.dirty: list[Connection] = []
        self.due = False

    def add(self, conn: Connection) -> None:
        self.dirty.append(conn)
        if not self.due:
            self.due = True
            self.loop.call_soon(self.run)

    def run(self) -> None:
        self.due = False
        dirty, self.dirty = self.dirty, []
        for conn in dirty:
            conn._flush()


_FLUSHERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Flusher] = (
    weakref.WeakKeyDictionary())


def _flusher(loop: asyncio.AbstractEventLoop) -> _Flusher:
    flusher = _FLUSHERS.get(loop)
    if flusher is None:
        flusher = _FLUSHERS[loop] = _Flusher(loop)
    return flusher


class Connection:
    """A table-bound WebSocket; ``send`` never blocks."""

    queued = 0  # messages queued to any connection of this process (the metrics read it)

    def __init__(
        self,
        user: User,
        writer: SocketWriter,
        now: Callable[[], float],
        rate: float = RATE,
        burst: float = BURST,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.user = user
        self.seat: int | None = None  # the seat this connection plays, if any
        self.greeted = False  # hello received
        self.batch = False  # the client takes several messages in one frame (a JSON array)
        self._writer = writer
        self._now = now
        self._flusher = _flusher(loop or asyncio.get_running_loop())
        self._pending: list[str] = []  # encoded messages not yet written
        self._flush_due = False  # a flush is scheduled for this turn of the loop
        self._close_args: tuple[int, str] | None = None
        self._rate = rate
        self._burst = burst
        self._tokens = burst
        self._stamp = now()
        self.strikes = 0  # bad messages within the last STRIKE_WINDOW seconds
        self._strike_times: list[float] = []
        self.closed = False  # no more messages are taken (closing, or the peer is gone)
        self.done = False  # the close frame went out (or the peer is gone)
        self.sent = 0  # frames written

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a client too slow to keep up is disconnected."""
        if not self.closed:
            self._queue(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (the same text may go to several connections)."""
        if not self.closed:
            self._queue(text)

    def _queue(self, text: str) -> None:
        Connection.queued += 1
        if len(self._pending) >= SEND_QUEUE:
            log.warning("user %s: send queue full, disconnecting", self.user.id)
            self.close(1008, "too slow")
            return
        self._pending.append(text)
        if not self._flush_due:
            self._flush_due = True
            self._flusher.add(self)

    def allow(self) -> bool:
        """Spend one token of the rate limit; False when the client is flooding."""
        now = self._now()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def strike(self) -> bool:
        """Count a bad message; True when the connection should now be closed (MAX_STRIKES
        of them within STRIKE_WINDOW seconds)."""
        now = self._now()
        times = [t for t in self._strike_times if now - t < STRIKE_WINDOW]
        times.append(now)
        self._strike_times = times
        self.strikes = len(times)
        return self.strikes >= MAX_STRIKES

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Send what is queued (its last refusal or error too), then close."""
        if self.closed:
            return
        self.closed = True
        self._close_args = (code, reason)
        if not self._flush_due:
            self._flush_due = True
            self._flusher.add(self)

    def refuse(self, code: str, message: str, table_id: int, id: str | None = None,
               strike: bool = True, reason: str | None = None) -> None:
        """Answer ``refused``; a bad message counts as a strike, and too many close the
        connection with ``error`` (``misbehaving``)."""
        self.send({"type": "refused", "code": code, "message": message, "id": id,
                   "reason": reason})
        if strike and self.strike():
            log.warning("user %s at table %s: %d bad messages, disconnected", self.user.id,
                        table_id, self.strikes, extra=fields(
                            "refusal_flood", table=table_id, user=self.user.id, seat=self.seat,
                            last_code=code, strikes=self.strikes))
            self.fail("misbehaving", "too many bad messages")

    def fail(self, code: str, message: str) -> None:
        """Send ``error`` and close (4400)."""
        self.send({"type": "error", "code": code, "message": message})
        self.close(4400, code)

    def lost(self) -> None:
        """The peer went away: nothing more is written."""
        self.closed = self.done = True
        self._pending = []

    def _flush(self) -> None:
        """Write what is queued (one frame when batched), then the close frame if due."""
        self._flush_due = False
        if self.done:
            return
        pending, self._pending = self._pending, []
        writer = self._writer
        if pending:
            if self.batch and len(pending) > 1:
                writer.write_text("[" + ",".join(pending) + "]")
                self.sent += 1
            elif len(pending) > 1:
                writer.write_texts(pending)
                self.sent += len(pending)
            else:
                writer.write_text(pending[0])
                self.sent += 1
            if not self.closed and writer.unread() > MAX_UNREAD:
                log.warning("user %s: %d bytes unread, disconnecting", self.user.id,
                            writer.unread())
                self._close_args = (1008, "too slow")
                self.closed = True
        if self._close_args is not None:
            code, reason = self._close_args
            self._close_args = None
            self.done = True
            writer.close(code, reason)
