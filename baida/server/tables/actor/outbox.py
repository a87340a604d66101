"""What a table sends: its summary (to everyone there at every change, and to the lobby),
the welcome, the game's messages and the acks of people's actions, snapshots when it is
safe to send them, and the last hand's result (each seat sees its own balance only)."""

from __future__ import annotations

from typing import Any

from .. import protocol as P
from ..connection import Connection
from .state import BETWEEN, SeatState, TableState


class Outbox(TableState):
    """Messages out."""

    def _changed(self) -> None:
        """Tell everyone at the table (and the lobby) what the table looks like now."""
        summary = self.table_json()
        text = P.encode({"type": "table", "table": summary})  # the same for every seat
        for conn in self._connections():
            conn.send_text(text)
        if self.on_change is not None:
            self.on_change(self, summary)

    def _welcome(self, conn: Connection) -> dict[str, Any]:
        return {
            "type": "welcome",
            "protocol": P.PROTOCOL,
            "user": {"id": conn.user.id, "name": conn.user.name},
            "seat": conn.seat,
            "table": self.table_json(),
        }

    def table_json(self) -> dict[str, Any]:
        cfg = self.config
        driver = self.driver
        seats = []
        for i, s in enumerate(self.seats):
            mode = "bot" if s.kind == "bot" else "player"
            reason = None
            if driver is not None:
                mode = driver.modes[i].value
                reason = driver.auto_reason[i]
            seats.append({
                "seat": i,
                "user": None if s.user is None or s.escaped else s.user.id,
                "name": _seat_name(s),
                "kind": s.kind,
                "ready": s.ready or s.bot,
                "mode": mode,
                "connected": s.conn is not None,
                "auto_reason": reason,
            })
        return {
            "id": self.id,
            "number": self.info.number,
            "name": self.info.name,
            "ruleset": cfg.ruleset,
            "options": cfg.options,
            "base": cfg.base,
            "fee": cfg.fee,
            "escape_penalty": cfg.escape_penalty,
            "stakes": cfg.stakes,
            "length": cfg.length_json(),
            "private": cfg.private,
            "room_code": self.info.room_code,
            "host": self.info.host,
            "status": self.status,
            "timing": cfg.timing.to_json(),
            "seats": seats,
            "spectators": len(self.spectators),
            "match": driver.match.to_json() if driver is not None else None,
            "badges": cfg.badges(),
        }

    def _send_outbox(self) -> None:
        assert self.driver is not None
        now = self.clock.now()
        for conn, ack, started in self._acks:
            conn.send(ack)
            self.metrics.latency.observe(now - started)
        self._acks.clear()
        encoded: dict[int, str] = {}  # a message shared by several seats is encoded once
        waiting = self._snapshots
        for recipient, message in self.driver.drain():
            text = encoded.get(id(message))
            if text is None:
                text = encoded[id(message)] = P.encode(message)
            if recipient is None:
                for conn in self.spectators:
                    if waiting.get(conn) is not True:  # else: its snapshot comes first
                        conn.send_text(text)
            else:
                conn = self.seats[recipient].conn
                if conn is not None and waiting.get(conn) is not True:
                    conn.send_text(text)

    def _send_snapshots(self) -> None:
        driver = self.driver
        if driver is None or not self._snapshots:
            return
        sent = False
        for conn in list(self._snapshots):
            if conn.closed:
                del self._snapshots[conn]
                continue
            recipient = conn.seat
            if driver.round is None or not driver.snapshot_ready(recipient):
                continue
            resync = self._snapshots.pop(conn)
            sent = sent or resync
            snap = driver.snapshot(recipient, self.clock.now())
            snap["hand_id"] = self.hand.id if self.hand is not None else None
            snap["resync"] = resync
            conn.send(snap)
            if resync and snap["prompt"] is not None:  # every open prompt comes as a prompt
                conn.send(snap["prompt"])
            if resync and self.status == BETWEEN:
                self._send_last_result(conn)  # a reload during the settlement sees it again
        if sent:
            self._update_listeners()  # from now on they hear the game as it goes

    def _send_hand_result(
        self, hand_id: int, number: int, outcome: Any, match_over: bool
    ) -> None:
        assert self.driver is not None
        base = {
            "type": "hand_result",
            "hand_id": hand_id,
            "number": number,
            "totals": list(self.driver.match.totals),
            "silver": None,
            "match_over": match_over,
        }
        self._last_result = (base, _silver_changes(outcome))
        for conn in self._connections():
            self._send_last_result(conn)

    def _send_last_result(self, conn: Connection) -> None:
        """The last hand's ``hand_result`` as ``conn`` may see it (its own balance only)."""
        if self._last_result is None:
            return
        base, changes = self._last_result
        message = dict(base)
        deadline = self._between_deadline
        if not base["match_over"] and deadline is not None:
            message["next_in"] = round(max(0.0, deadline - self.clock.now()), 1)
        else:
            message["next_in"] = None
        if changes is not None:
            message["silver"] = [
                {**c, "balance": c["balance"] if conn.seat == c["seat"] else None}
                for c in changes
            ]
        conn.send(message)


def _seat_name(s: SeatState) -> str | None:
    if s.user is not None and not s.escaped:
        return s.user.name
    return "bot" if s.kind == "bot" else None


def _silver_changes(settlement: Any) -> list[dict[str, Any]] | None:
    """The ledger's per-seat outcome as the protocol's ``silver`` list."""
    if settlement is None:
        return None
    return [
        {"seat": seat, "owed": row.owed, "paid": row.amount, "fee": row.fee,
         "balance": row.balance_after}
        for seat, row in enumerate(settlement.seats)
    ]
