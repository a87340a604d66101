"""The table actor itself: its task and inbox (one message at a time, each followed by the
pump of ``match``), its connections (a seat's, or a spectator's), the dispatch of the
clients' messages, chat, and closing the table. The parts it is made of are in this
package (see its docstring)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ....table import Refused, SeatMode
from ...ops.logs import fields
from .. import protocol as P
from ..chat import REPORTS_PER_HOUR, chat_text
from ..connection import Connection
from .restart import Restart
from .seating import Seating
from .state import BETWEEN, CLOSED, MATCH_ABANDONED, WAITING, SeatState
from .storage import STORAGE_DOWN

log = logging.getLogger(__name__)

# refusals that count as a bad message (a client that keeps acting out of turn, on stale or
# unoffered prompts, is disconnected like one that sends malformed JSON); a refused seat or
# table request (not_allowed) is a person's click and only the rate limit applies
STRIKE_CODES = frozenset({"stale", "not_offered", "no_prompt", "protocol"})
# the table's task lets the event loop run other tasks after this many messages in a row
YIELD_EVERY = 64


class TableActor(Seating, Restart):
    """The owner of one table: one object, one inbox, one task (its parts: the package's
    docstring)."""

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = self._loop.create_task(self._run(), name=f"table-{self.id}")
        self.directory.subscribe(self.id, lambda message: self.post(self._deliver, message))

    async def call(self, handler: Callable[..., Awaitable[Any] | Any], *args: Any) -> Any:
        """Run ``handler(*args)`` in the table's task and return its result."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        async def job() -> None:
            try:
                result = handler(*args)
                if asyncio.iscoroutine(result):
                    result = await result
                future.set_result(result)
            except Exception as exc:
                future.set_exception(exc)

        self.post(job)
        return await future

    async def _run(self) -> None:
        inbox = self._inbox
        loop = self._loop
        assert loop is not None
        streak = 0  # messages handled since the task last let the others run
        while True:
            if not inbox:
                streak = 0
                self._wakeup = loop.create_future()
                await self._wakeup
                continue
            streak += 1
            if streak >= YIELD_EVERY:  # an inbox that is never empty (a table that posts
                streak = 0  # itself messages) must not keep every other task waiting
                await asyncio.sleep(0)
                if not inbox:  # (let go meanwhile: its inbox cleared)
                    if self.status == CLOSED:
                        return
                    continue
            handler, args = inbox.popleft()
            self._busy = True
            try:
                result = handler(*args)
                if result is not None:  # a coroutine (handlers are plain or async)
                    await result
                await self._pump()
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug in one message must not take the table down
                log.exception("table %s: handler %s failed", self.id, handler)
            finally:
                self._busy = False
            if self.status == CLOSED and not inbox:
                return

    async def stopped(self) -> None:
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def idle(self) -> bool:
        """Nothing queued for the table, nothing being handled (a write it waits for
        included) and no bot thinking (tests wait for this)."""
        return not self._inbox and not self._busy and not self._bot_jobs

    def connect(self, conn: Connection) -> None:
        self.post(self._connected, conn)

    def disconnect(self, conn: Connection) -> None:
        self.post(self._disconnected, conn)

    def receive(self, conn: Connection, message: Any) -> None:
        self.post(self._received, conn, message)

    def _connected(self, conn: Connection) -> None:
        seat = self._seat_of(conn.user.id)
        if seat is not None:
            old = self.seats[seat].conn
            if old is not None and old is not conn:
                old.send({"type": "error", "code": "replaced",
                          "message": "this seat was opened in another window"})
                old.close(4000, "replaced")
                old.seat = None  # what it sent before it was replaced is not the seat's
            self.seats[seat].conn = conn
            self.seats[seat].left_at = None
            conn.seat = seat
        else:
            self.spectators.add(conn)
        conn.send(self._welcome(conn))
        if self.driver is not None:
            # joining mid-hand: a resync, and nothing of the game before it
            self._snapshots[conn] = True
            self._update_listeners()
            if seat is not None and self.driver.auto_reason[seat] == "offline":
                self.driver.take_back(seat, self.clock.now())
            if self.status == BETWEEN and self.driver.round is None:
                self._send_last_result(conn)  # no hand to show (resumed between hands)
        if self._outage is not None and self._outage.told:
            conn.send(STORAGE_DOWN)  # what everyone here was told
        if conn.user.id in self._abandoned:
            self._abandoned.discard(conn.user.id)
            conn.send(MATCH_ABANDONED)
        self._changed()

    def _disconnected(self, conn: Connection) -> None:
        conn.closed = True
        self._snapshots.pop(conn, None)
        self.spectators.discard(conn)
        seat = conn.seat
        if seat is None or self.seats[seat].conn is not conn:
            return
        state = self.seats[seat]
        state.conn = None
        state.left_at = self.clock.now()
        if self.status == WAITING:
            self.seats[seat] = SeatState()  # a seat is kept only during a match
        elif self.driver is not None:
            self._update_listeners()
            if self.driver.modes[seat] == SeatMode.PLAYER or self.driver.returning(seat):
                self.driver.set_mode(seat, SeatMode.AUTO, self.clock.now(), reason="offline")
        self._changed()

    async def _received(self, conn: Connection, message: Any) -> None:
        handler = _HANDLERS.get(message.type)
        if handler is None or not self._current(conn):
            return
        try:
            result = handler(self, conn, message)
            if asyncio.iscoroutine(result):
                await result
        except Refused as exc:
            self.metrics.refused(exc.code)
            conn.refuse(exc.code, exc.message, self.id, getattr(message, "id", None),
                        strike=exc.code in STRIKE_CODES, reason=exc.reason)

    def _current(self, conn: Connection) -> bool:
        """Whether ``conn``'s messages still count: a connection closed (replaced by another
        window, given up) is heard no more, even for what it sent before, and a seated one
        speaks only while it is its seat's connection."""
        if conn.closed:
            return False
        return conn.seat is None or self.seats[conn.seat].conn is conn

    def _on_chat(self, conn: Connection, msg: P.Chat) -> None:
        if conn.seat is None:
            raise Refused("not_allowed", "spectators read the chat", "spectator_chat")
        text, phrase = chat_text(msg.text, msg.phrase)
        if not self.chat.allow(conn.user.id):
            raise Refused("rate_limited", "too many chat messages; wait a moment", "chat_too_fast")
        shown = text
        if text is not None and self.chat_filter is not None:
            shown = self.chat_filter.mask(text)
            if shown != text:
                self.metrics.chat_masked()
        out = {"type": "chat", "seat": conn.seat, "name": conn.user.name, "text": shown,
               "phrase": phrase}
        self.chat_record.said(conn.user.id, text, phrase)  # a report quotes what was written
        self.directory.publish(self.id, out)

    async def _on_report(self, conn: Connection, msg: P.Report) -> None:
        """A person at the table reports the person in ``msg.seat`` to the hall's operator: a
        log line (event ``report``) and a row for the operator's page, with both accounts and
        the reported person's last words here; the reporter is answered ``reported``. Nobody
        else is told."""
        target = self.seats[msg.seat].user
        if target is None:
            raise Refused("not_allowed", "no one sits in that seat to report", "report_no_one")
        if target.id == conn.user.id:
            raise Refused("not_allowed", "you cannot report yourself", "report_self")
        if not self.chat_record.may_report(conn.user.id, target.id):
            raise Refused("rate_limited", "you reported this player a moment ago; the operator "
                          "has it", "report_again")
        if self.report_quota is not None and not self.report_quota.take(conn.user.id):
            raise Refused("rate_limited", f"you have filed {REPORTS_PER_HOUR} reports in the "
                          "last hour; the operator has them", "report_many")
        self.metrics.report()
        words = self.chat_record.lines(target.id)
        reporter = conn.user.id
        log.warning("player %s reported by %s at table %s", target.id, reporter, self.id,
                    extra=fields("report", table=self.id, user=target.id, user_name=target.name,
                                 reporter=reporter, chat=words))
        try:
            await self.db.write(lambda s: s.reports.add(self.id, target.id, reporter, words))
        except Exception:  # the store is out: the log line above keeps the report
            log.warning("table %s: a report could not be stored", self.id, exc_info=True)
        conn.send({"type": "reported", "seat": msg.seat})

    def _deliver(self, message: dict[str, Any]) -> None:
        """A table-wide message from the directory (chat) to everyone here."""
        for conn in self._connections():
            conn.send(message)

    def _on_ping(self, conn: Connection, msg: P.Ping) -> None:
        conn.send({"type": "pong", "id": msg.id})

    def _on_hello(self, conn: Connection, msg: P.Hello) -> None:
        raise Refused("protocol", "hello is the first message only")

    def let_go(self, reason: str = "table moved") -> None:
        """This node no longer owns the table (another took it over, or it was given away):
        stop at once, writing nothing (its owner goes on from the store), and close every
        connection with 1012 so that the pages reconnect, to the new owner."""
        self.status = CLOSED
        self.driver = None
        self._inbox.clear()
        for conn in self._connections():
            conn.close(1012, reason)
        for task in list(self._bot_jobs):
            task.cancel()
        if self._timer is not None:
            self._timer.cancel()

    async def close(self, reason: str = "closed by the operator", code: str = "closed") -> None:
        """Stop the table: a hand in play is voided (balances untouched); everyone here is
        told ``code`` (``closed``: by the operator; ``unattended``: nobody sat at it)."""
        if self.hand is not None:
            hand_id = self.hand.id
            await self.db.write(lambda s: s.hands.void(hand_id, "table closed"))
            self.hand = None
        if self.match_id is not None and self.driver is not None:
            state = self.driver.match.state()
            match_id = self.match_id
            await self.db.write(
                lambda s: s.tables.save_match(match_id, state=state, status="ended")
            )
        self.status = CLOSED
        self.driver = None
        for conn in self._connections():
            conn.send({"type": "error", "code": code, "message": reason})
            conn.close(1000, "closed")
        for task in list(self._bot_jobs):
            task.cancel()
        if self._timer is not None:
            self._timer.cancel()
        self._changed()


_HANDLERS: dict[str, Callable[[TableActor, Connection, Any], Any]] = {
    "hello": TableActor._on_hello,
    "sit": TableActor._on_sit,
    "stand": TableActor._on_stand,
    "ready": TableActor._on_ready,
    "start": TableActor._on_start,
    "add_bots": TableActor._on_add_bots,
    "act": TableActor._on_act,
    "resume": TableActor._on_resume,
    "chat": TableActor._on_chat,
    "report": TableActor._on_report,
    "ping": TableActor._on_ping,
}
