"""One client's WebSocket at one table: a send queue of its own, and limits on what it sends.

A slow phone must never stall a table: the table only puts messages in the connection's
queue; the connection's own task writes them. A client that lets the queue overflow is
disconnected. Incoming messages pass a token bucket (a flood is refused, then disconnected)
and a count of malformed messages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .protocol import encode

log = logging.getLogger(__name__)

SEND_QUEUE = 512  # messages waiting for a slow client before it is dropped
RATE = 8.0  # messages per second a client may send on average
BURST = 24.0  # ... and at once
MAX_STRIKES = 20  # malformed or refused-for-flooding messages before the connection is closed


@dataclass(slots=True)
class User:
    """Who is on a connection (from the signed session cookie)."""

    id: int
    name: str
    role: str = "player"
    guest: bool = True


class Connection:
    """A table-bound WebSocket; ``send`` never blocks."""

    def __init__(
        self,
        user: User,
        send_text: Callable[[str], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
        now: Callable[[], float],
        rate: float = RATE,
        burst: float = BURST,
    ) -> None:
        self.user = user
        self.seat: int | None = None  # the seat this connection plays, if any
        self.greeted = False  # hello received
        self.batch = False  # the client takes several messages in one frame (a JSON array)
        self._send_text = send_text
        self._close = close
        self._now = now
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._rate = rate
        self._burst = burst
        self._tokens = burst
        self._stamp = now()
        self.strikes = 0
        self.closed = False
        self.sent = 0
        self.writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a client too slow to keep up is disconnected."""
        if self.closed:
            return
        if self._queue.qsize() >= SEND_QUEUE:
            log.warning("user %s: send queue full, disconnecting", self.user.id)
            self.close(1008, "too slow")
            return
        self._queue.put_nowait(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (the same text may go to several connections)."""
        if self.closed:
            return
        if self._queue.qsize() >= SEND_QUEUE:
            log.warning("user %s: send queue full, disconnecting", self.user.id)
            self.close(1008, "too slow")
            return
        self._queue.put_nowait(text)

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
        """Count a bad message; True when the connection should now be closed."""
        self.strikes += 1
        return self.strikes >= MAX_STRIKES

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Send what is queued, then close (from the writer task)."""
        if self.closed:
            return
        self.closed = True
        self._queue.put_nowait(None)
        self._close_args = (code, reason)

    async def _write(self) -> None:
        queue = self._queue
        try:
            while True:
                text = await queue.get()
                if text is not None and self.batch and not queue.empty():
                    parts = [text]
                    while not queue.empty():
                        nxt = queue.get_nowait()
                        if nxt is None:
                            queue.put_nowait(None)  # close after this frame
                            break
                        parts.append(nxt)
                    text = "[" + ",".join(parts) + "]" if len(parts) > 1 else text
                if text is None:
                    code, reason = getattr(self, "_close_args", (1000, ""))
                    await self._close(code, reason)
                    return
                await self._send_text(text)
                self.sent += 1
        except Exception:  # the peer went away; the reader notices and cleans up
            self.closed = True

    async def finish(self, timeout: float = 5.0) -> None:
        """When the socket is done: let a closing connection flush what it queued (its last
        refusal and error), then stop the writer."""
        writer = self.writer
        if writer is None or writer.done():
            return
        if not self.closed:  # the peer left: nothing more can be written
            writer.cancel()
        try:
            await asyncio.wait_for(asyncio.shield(writer), timeout)
        except (TimeoutError, asyncio.CancelledError):
            writer.cancel()
