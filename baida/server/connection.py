"""One client's WebSocket at one table: a send queue of its own, and limits on what it sends.

A slow phone must never stall a table: the table only adds messages to the connection's
queue, and the queue is written once per turn of the event loop, all of it in one frame when
the client asked for batches. The write runs at once while the socket takes data (the ASGI
server's ``send`` returns without suspending) and continues in a task of its own while a slow
client's socket is full; a client that lets the queue overflow is disconnected. Incoming
messages pass a token bucket (a flood is refused, then disconnected) and a count of malformed
messages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Generator
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
        self._pending: list[str] = []  # encoded messages not yet written
        self._flush_due = False  # a flush is scheduled for this turn of the loop
        self._writing: asyncio.Task[None] | None = None  # a write the socket made wait
        self._close_args: tuple[int, str] | None = None
        self._rate = rate
        self._burst = burst
        self._tokens = burst
        self._stamp = now()
        self.strikes = 0
        self.closed = False
        self.done = False  # the close frame went out (or the peer is gone)
        self.sent = 0

    def start(self) -> None:
        """Kept for callers of the old writer task; writing needs no task of its own."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a client too slow to keep up is disconnected."""
        if not self.closed:
            self._queue(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (the same text may go to several connections)."""
        if not self.closed:
            self._queue(text)

    def _queue(self, text: str) -> None:
        if len(self._pending) >= SEND_QUEUE:
            log.warning("user %s: send queue full, disconnecting", self.user.id)
            self.close(1008, "too slow")
            return
        self._pending.append(text)
        self._schedule_flush()

    def _schedule_flush(self) -> None:
        if not self._flush_due and self._writing is None:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

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
        """Send what is queued, then close."""
        if self.closed:
            return
        self.closed = True
        self._close_args = (code, reason)
        self._schedule_flush()

    # ---------------------------------------------------------------- writing

    def _flush(self) -> None:
        """Write what is queued: at once while the socket takes it, else in a task."""
        self._flush_due = False
        while self._writing is None and not self.done:
            frames = self._frames()
            if not frames:
                return
            for i, frame in enumerate(frames):
                try:
                    waiting = _run_until_suspended(frame)
                except Exception:  # the peer went away; the reader notices and cleans up
                    self._gone(frames[i + 1 :])
                    return
                if waiting is not None:
                    self._writing = asyncio.get_running_loop().create_task(
                        self._finish_writing(waiting, frames[i + 1 :])
                    )
                    return

    def _frames(self) -> list[Coroutine[Any, Any, None]]:
        """The writes for what is queued now (one frame if batched), then the close if due."""
        pending, self._pending = self._pending, []
        if pending and self.batch and len(pending) > 1:
            pending = ["[" + ",".join(pending) + "]"]
        self.sent += len(pending)
        frames = [self._send_text(text) for text in pending]
        if self.closed and self._close_args is not None:
            frames.append(self._close(*self._close_args))
            self._close_args = None
            self.done = True
        return frames  # type: ignore[return-value]

    async def _finish_writing(
        self, waiting: Awaitable[None], rest: list[Coroutine[Any, Any, None]]
    ) -> None:
        try:
            await waiting
            while rest:
                frame, rest = rest[0], rest[1:]
                await frame
        except BaseException as exc:  # the peer went away, or the hall is stopping
            self._gone(rest)
            if not isinstance(exc, Exception):
                raise
            return
        finally:
            self._writing = None
        if (self._pending or self._close_args is not None) and not self.done:
            self._flush()

    def _gone(self, unsent: list[Coroutine[Any, Any, None]]) -> None:
        for frame in unsent:
            frame.close()
        self.closed = self.done = True
        self._pending = []

    async def finish(self, timeout: float = 5.0) -> None:
        """When the socket is done: let a closing connection flush what it queued (its last
        refusal and error), then stop writing."""
        writing = self._writing
        if not self.closed:  # the peer left: nothing more can be written
            self._gone([])
            if writing is not None:
                writing.cancel()
            return
        if not self.done and writing is None:
            self._flush()
            writing = self._writing
        if writing is None or writing.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(writing), timeout)
        except (TimeoutError, asyncio.CancelledError):
            writing.cancel()


class _Resume:
    """Hands a suspended coroutine's awaited future to the task that finishes it."""

    __slots__ = ("coro", "yielded")

    def __init__(self, coro: Coroutine[Any, Any, None], yielded: Any) -> None:
        self.coro = coro
        self.yielded = yielded

    def __await__(self) -> Generator[Any, Any, None]:
        coro, yielded = self.coro, self.yielded
        while True:
            try:
                sent = yield yielded
            except BaseException as exc:  # cancelled: pass it into the write
                try:
                    yielded = coro.throw(exc)
                except StopIteration:
                    return
                continue
            try:
                yielded = coro.send(sent)
            except StopIteration:
                return


def _run_until_suspended(coro: Coroutine[Any, Any, None]) -> _Resume | None:
    """Run ``coro`` now; None if it finished, else an awaitable that finishes it.

    An ASGI server's ``send`` writes to the socket and returns without suspending unless the
    socket is full; running it here saves a task switch per message on the hall's hottest path.
    """
    try:
        yielded = coro.send(None)
    except StopIteration:
        return None
    return _Resume(coro, yielded)
