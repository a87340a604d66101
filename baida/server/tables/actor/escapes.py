"""A person leaving a match before its end (an escape): a bot plays the seat on, and at a
银子 table the escaper pays the hand as it ends and the escape penalty now; an operator's
suspension takes a person's seats and connections the same way."""

from __future__ import annotations

from ....table import SeatMode
from ...store.errors import LeaseLost
from ..connection import Connection
from .match import MatchLife
from .state import BETWEEN, WAITING, SeatState


class Escapes(MatchLife):
    """Escapes and expulsions."""

    async def _escape(self, seat: int, conn: Connection) -> None:
        """A person leaves mid-match: a bot plays the seat; at a 银子 table they pay the
        hand as it ends and the escape penalty now, which goes to the others."""
        assert self.driver is not None
        state = self.seats[seat]
        user = state.user
        assert user is not None
        fence = self.info.lease
        if self.config.stakes == "silver" and self.config.escape_penalty:
            others = [None if s.user is None or s.escaped else s.user.id
                      for i, s in enumerate(self.seats) if i != seat]
            key = f"escape:{self.match_id}:{self.driver.match.hand_number + 1}:{seat}"
            penalty = self.config.escape_penalty
            try:
                await self.db.write(lambda s: s.ledger.escape(key, user.id, penalty, others,
                                                              fence=fence))
            except LeaseLost as exc:  # another node owns the table: it charges nobody here
                self._store_failed(exc, f"the escape penalty of seat {seat}")
                return
        if self.match_id is not None:  # a restart must not seat them again
            match_id = self.match_id
            seats = [None if i == seat else u for i, u in enumerate(self._seat_users())]
            try:
                await self.db.write(
                    lambda s: s.tables.save_match(match_id, seats=seats, fence=fence))
            except LeaseLost as exc:  # another node owns the table now: it lets go here
                self._store_failed(exc, f"the seats of match {match_id}")
                return
        state.escaped = True
        state.conn = None
        conn.seat = None
        self.spectators.add(conn)
        if self.status == BETWEEN:
            self.seats[seat] = SeatState(bot=True, ready=True)
        self.driver.set_mode(seat, SeatMode.BOT, self.clock.now(), reason="escaped")
        self._update_listeners()
        self._changed()
        self._maybe_start()

    async def expel(self, user_id: int, code: str, message: str) -> None:
        """Close every connection of ``user_id`` here (an ``error`` ``code`` first, e.g. a
        suspension). A seat they hold goes as an escape does during a match (a bot plays on;
        at a 银子 table the hand and the escape penalty are theirs to pay) and is freed
        before one."""
        conns = [c for c in self._connections() if c.user.id == user_id]
        seat = self._seat_of(user_id)
        if seat is not None and self.status == WAITING:
            self.seats[seat] = SeatState()
        elif seat is not None and self.driver is not None:
            held = self.seats[seat].conn
            if held is None:  # offline (on 托管): _escape wants a connection to move
                held = Connection(self.seats[seat].user, _GONE, self.clock.now)
                held.closed = True
            await self._escape(seat, held)
            self.spectators.discard(held)
        for conn in conns:
            self.spectators.discard(conn)
            self._snapshots.pop(conn, None)
            conn.seat = None
            conn.send({"type": "error", "code": code, "message": message})
            conn.close(4403, code)
        self._update_listeners()
        self._changed()


class _GoneWriter:
    """The socket of a connection that is already gone: writes nothing."""

    def write_text(self, text: str) -> None:
        pass

    def write_texts(self, texts: list[str]) -> None:
        pass

    def close(self, code: int, reason: str) -> None:
        pass

    def unread(self) -> int:
        return 0


_GONE = _GoneWriter()
