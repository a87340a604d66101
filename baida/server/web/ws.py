"""The table WebSocket's session: ``/ws/tables/{id}``. Authenticates the connection from its
session cookie, checks the browser's origin, waits for ``hello``, then hands every
well-formed message to the table's actor; malformed, oversized and flooding messages are
refused here and never reach the table.

The socket itself is ``ws_protocol.TableSocketProtocol``, which calls ``received`` for every
message and ``closed`` when the connection is gone; the session writes through it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from starlette.requests import cookie_parser

from ..store.errors import NotFound
from ..tables import protocol as P
from ..tables.actor import CLOSED, TableActor
from ..tables.connection import Connection, SocketWriter, User
from .auth import COOKIE
from .limits import address_key
from .runtime import Runtime

log = logging.getLogger(__name__)

PREFIX = "/ws/tables/"
HELLO_SECONDS = 15.0
EARLY_MESSAGES = 8  # messages a client may send before the hall has admitted it
STORE_SECONDS = 2.0  # the longest a connection to a table not here waits for the store


@dataclass(frozen=True, slots=True)
class _Turned:
    """Why a connection is turned away."""

    code: str
    message: str
    close_code: int


# no such table for this person, and none will come: it never existed, it closed, or it is
# private and they were not admitted (the same answer, so that ids cannot be probed)
NO_TABLE = _Turned("no_table", "no such table", 4404)
# open in the store but not played here just now (its node restarts, or it is being taken
# over): the page tries again in a moment
AWAY = _Turned("try_again", "the table is moving or restarting; reconnecting", 1013)


class TableSession:
    """One admitted (or being admitted) client at one table."""

    def __init__(self, runtime: Runtime, writer: SocketWriter, path: str,
                 headers: dict[str, str], address: str = "?") -> None:
        self.runtime = runtime
        self.writer = writer
        self.address = address
        self._held: list[Any] = []  # the socket counts this one takes (address, account)
        self.conn: Connection | None = None
        self.actor: TableActor | None = None
        self._early: list[str | None] = []  # what came before the checks finished
        self._gone = False
        self._hello_timer: asyncio.TimerHandle | None = None
        self._admitting = asyncio.get_running_loop().create_task(self._admit(path, headers))

    async def _admit(self, path: str, headers: dict[str, str]) -> None:
        try:
            checked = await _check(path, headers, self.runtime)
        except Exception:
            log.exception("checking a table connection failed")
            checked = _Turned("internal", "the hall could not take this connection", 1011)
        if self._gone:
            return
        if isinstance(checked, _Turned):  # say why, so that a browser page can tell the player
            self.writer.write_text(P.encode({"type": "error", "code": checked.code,
                                             "message": checked.message}))
            self.writer.close(checked.close_code, checked.code)
            return
        user, actor = checked
        if not self._hold(user):
            self.writer.write_text(P.encode({
                "type": "error", "code": "too_many_sockets",
                "message": "too many table connections from your address or account; "
                           "close one first"}))
            self.writer.close(4429, "too_many_sockets")
            return
        settings = self.runtime.settings
        self.actor = actor
        self.conn = Connection(user, self.writer, time.monotonic, rate=settings.client_rate,
                               burst=settings.client_burst)
        self._hello_timer = asyncio.get_running_loop().call_later(HELLO_SECONDS, self._no_hello)
        early, self._early = self._early, []
        for text in early:
            self.received(text)

    def received(self, text: str | None) -> None:
        """One message from the client (``None``: a binary frame)."""
        conn = self.conn
        if conn is None:
            if len(self._early) >= EARLY_MESSAGES:
                self.writer.close(4400, "misbehaving")
                return
            self._early.append(text)
            return
        if conn.closed:
            return
        if not conn.greeted:
            self._hello(conn, text)
            return
        actor = self.actor
        assert actor is not None
        metrics = self.runtime.metrics
        metrics.pending_in += 1
        if text is None:
            conn.refuse("malformed", "send text frames of JSON", actor.id)
            return
        if not conn.allow():
            conn.refuse("rate_limited", "too many messages; slow down", actor.id,
                        P.sent_id(text))
            metrics.refused("rate_limited")
            return
        try:
            message = P.parse_client(text)
        except P.ProtocolError as exc:
            metrics.refused(exc.code)
            conn.refuse(exc.code, exc.message, actor.id, exc.id)
            return
        actor.receive(conn, message)

    def _hello(self, conn: Connection, text: str | None) -> None:
        """The first message must be ``hello`` with this protocol's version."""
        if self._hello_timer is not None:
            self._hello_timer.cancel()
            self._hello_timer = None
        try:
            message = P.parse_client(text if text is not None else b"")
        except P.ProtocolError as exc:
            conn.fail("protocol", f"the first message is hello: {exc.message}")
            return
        if not isinstance(message, P.Hello):
            conn.fail("protocol", "the first message is hello")
            return
        if message.protocol != P.PROTOCOL:
            conn.fail("version", f"this hall speaks protocol {P.PROTOCOL}")
            return
        conn.greeted = True
        conn.batch = message.batch
        runtime = self.runtime
        runtime.metrics.connections.inc()
        runtime.directory.online(conn.user.id, +1)
        assert self.actor is not None
        self.actor.connect(conn)

    def _no_hello(self) -> None:
        self._hello_timer = None
        if self.conn is not None and not self.conn.greeted:
            self.conn.close(4408, "no hello")

    def _hold(self, user: User) -> bool:
        """Count this socket for its address and account, if both are under their caps."""
        limits = self.runtime.limits
        sockets = limits.sockets
        where = ("address", address_key(self.address))  # an IPv6 address counts as its /64
        if not sockets.take(where, limits.sockets_per_address):
            return False
        if not sockets.take(("account", user.id), limits.sockets_per_account):
            sockets.give_back(where)
            return False
        self._held = [where, ("account", user.id)]
        return True

    def closed(self) -> None:
        """The connection is gone."""
        self._gone = True
        held, self._held = self._held, []
        for key in held:
            self.runtime.limits.sockets.give_back(key)
        if self._hello_timer is not None:
            self._hello_timer.cancel()
            self._hello_timer = None
        conn = self.conn
        if conn is None:
            return
        greeted = conn.greeted and self.actor is not None
        conn.lost()
        if greeted:
            runtime = self.runtime
            runtime.metrics.connections.dec()
            runtime.directory.online(conn.user.id, -1)
            assert self.actor is not None
            if self.actor.status != CLOSED:  # a closed table's task has ended: nobody to tell
                self.actor.disconnect(conn)


def table_id(path: str) -> int:
    """The table of a ``/ws/tables/{id}`` path (-1: not a table's)."""
    tail = path[len(PREFIX):] if path.startswith(PREFIX) else ""
    return int(tail) if tail.isascii() and tail.isdigit() and len(tail) < 12 else -1


async def _check(path: str, headers: dict[str, str], runtime: Runtime) -> Any:
    """(user, table actor) for a connection the hall takes, else why not."""
    if not runtime.origin_ok(headers.get("origin"), headers.get("host")):
        return _Turned("origin", "this connection did not come from the hall's own page", 4403)
    cookies = cookie_parser(headers.get("cookie", ""))
    found: tuple[User, Any, str] | None = await runtime.user_of(cookies.get(COOKIE))
    if found is None:
        return _Turned("unauthorized", "sign in first (or play as a guest)", 4401)
    assert runtime.hall is not None
    actor = runtime.hall.get(table_id(path))
    if actor is None and runtime.table_moving(table_id(path)):  # the page tries again
        return _Turned("moving", "the table is moving to another node", 1013)
    # a private table is the host's, its room code's and its seated people's: to anyone
    # else it does not exist (ids are consecutive; the answer must not tell them apart)
    if actor is None and runtime.settings.node is not None and not runtime.directory_ok():
        # its owner is not known here while the directory is out: the page tries again
        return _Turned("try_again", "the hall is finding this table; reconnecting", 1013)
    if actor is None:
        return await _absent(runtime, table_id(path), found[0])
    if not runtime.hall.may_open(actor, found[0]):
        # the same reads as a table that is not here: answered from memory at once, a private
        # table's id was told from a missing one's by the time the answer took
        await _absent(runtime, actor.id, found[0])
        return NO_TABLE
    return found[0], actor


async def _absent(runtime: Runtime, table: int, user: User) -> _Turned:
    """Why a table that is not played here is turned away: asked of the store, whether it
    is gone for good (``no_table``, which the page says at once) or away for a moment
    (``try_again``, which the page tries again); a store that does not answer is a moment."""
    if table < 0 or runtime.db is None:
        return NO_TABLE if table < 0 else AWAY

    def look(store: Any) -> tuple[Any, bool, list[int | None]]:
        # the same two reads for every id (a missing table's too), so that the time the
        # answer takes does not tell a private table from a missing one
        match = store.tables.current_match(table)
        row = store.tables.get(table)
        private = row.private or bool((row.config.get("table") or {}).get("private"))
        return row, private, [] if match is None else match.seats

    try:
        row, private, seated = await asyncio.wait_for(runtime.db.read(look), STORE_SECONDS)
    except NotFound:
        return NO_TABLE
    except Exception:
        log.warning("table %s: the store could not say whether it is open", table,
                    exc_info=True)
        return AWAY
    if row.status != "open":
        return NO_TABLE
    if private and user.id != row.config.get("host") and user.id not in seated:
        try:
            admitted = runtime.directory.admitted(table, user.id)
        except Exception:  # the directory is out: whether they were admitted is not known
            return AWAY
        if not admitted:
            return NO_TABLE
    return AWAY
