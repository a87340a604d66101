"""Seats and readiness: sitting (a 银子 table checks the minimum balance), standing (an
escape during a match), being ready, the host's start, filling the empty seats with bots."""

from __future__ import annotations

import logging

from ....table import Refused
from .. import protocol as P
from ..connection import Connection
from .escapes import Escapes
from .state import PLAYING, WAITING, SeatState

log = logging.getLogger(__name__)


class Seating(Escapes):
    """Sitting, standing, readiness."""

    def _on_sit(self, conn: Connection, msg: P.Sit) -> None:
        if self.status != WAITING:
            raise Refused("not_allowed", "seats are taken while the table is playing", "playing")
        if self._seat_of(conn.user.id) is not None:
            raise Refused("not_allowed", "you already have a seat here", "seated_already")
        free = [i for i, s in enumerate(self.seats) if s.empty]
        seat = msg.seat if msg.seat is not None else (free[0] if free else None)
        if seat is None or seat not in free:
            raise Refused("not_allowed", "that seat is taken", "seat_taken")
        self.post(self._sit_checked, conn, seat)

    async def _sit_checked(self, conn: Connection, seat: int) -> None:
        """Sitting at a 银子 table needs the table's minimum balance (a database read)."""
        if self.config.stakes == "silver":
            balance = await self.db.read(lambda s: s.ledger.balance(conn.user.id))
            if balance < self.config.min_balance:
                conn.send({"type": "refused", "code": "not_allowed", "id": None,
                           "message": f"this table needs {self.config.min_balance} 银子"})
                return
        if self.status != WAITING or not self.seats[seat].empty or conn.closed:
            conn.send({"type": "refused", "code": "not_allowed", "id": None,
                       "message": "that seat is taken"})
            return
        if self._seat_of(conn.user.id) is not None:
            return
        self.spectators.discard(conn)
        self.seats[seat] = SeatState(user=conn.user, conn=conn)
        conn.seat = seat
        self._changed()

    async def _on_stand(self, conn: Connection, msg: P.Stand) -> None:
        seat = conn.seat
        if seat is None:
            raise Refused("not_allowed", "you have no seat here", "no_seat")
        if self.status == WAITING:
            self.seats[seat] = SeatState()
            conn.seat = None
            self.spectators.add(conn)
            self._changed()
            return
        if not msg.escape:
            raise Refused("not_allowed", "leaving during a match is an escape: send escape",
                          "escape_to_leave")
        try:
            await self._escape(seat, conn)
        except Exception as exc:  # the store failed: the seat stays; a retry pays once
            log.warning("table %s: an escape from seat %s could not be stored: %s", self.id,
                        seat, exc, exc_info=exc)
            raise Refused("not_allowed", "your leaving could not be recorded just now; you "
                          "still have your seat; try again", "leave_not_stored") from None

    def _on_ready(self, conn: Connection, msg: P.Ready) -> None:
        seat = conn.seat
        if seat is None or self.status == PLAYING:
            raise Refused("not_allowed", "nothing to be ready for", "nothing_to_ready")
        self.seats[seat].ready = msg.ready
        self._changed()
        self._maybe_start()

    def _on_start(self, conn: Connection, msg: P.Start) -> None:
        if conn.user.id != self.info.host or self.status != WAITING:
            raise Refused("not_allowed", "only the host starts, before the match", "host_starts")
        if msg.bots:
            self._fill_bots()
        if any(s.empty for s in self.seats):
            raise Refused("not_allowed", "four seats must be taken", "seats_empty")
        if conn.seat is not None:
            self.seats[conn.seat].ready = True
        if not self._all_ready():
            raise Refused("not_allowed", "every player must be ready", "not_ready")
        self._changed()
        self._maybe_start()

    def _on_add_bots(self, conn: Connection, msg: P.AddBots) -> None:
        if self.status != WAITING or conn.seat is None:
            raise Refused("not_allowed", "bots are added by a seated player before the match",
                          "bots_before_match")
        self._fill_bots()
        self._changed()
        self._maybe_start()

    def _fill_bots(self) -> None:
        for i, s in enumerate(self.seats):
            if s.empty:
                self.seats[i] = SeatState(bot=True, ready=True)
