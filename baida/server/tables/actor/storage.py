"""Persistence at a table: the actions of the hand in play are stored before anything they
caused is sent; when a write fails, the table stands still (every clock stopped) and tries
again with backoff, tells everyone once the outage lasts, and goes on where it stood, with
the answers that came meanwhile, when the store is back. A write the store refuses as
invalid (a settlement the ledger cannot take) would fail for ever: the hall closes the
table instead, its hand voided."""

from __future__ import annotations

import logging

from ...store.errors import LeaseLost, StoreError
from .state import Outage, TableState

log = logging.getLogger(__name__)

# when a write fails: tried again after 0.05, 0.1, 0.2 ... seconds, at most RETRY_MAX apart;
# the table is told once the store has been failing for TELL_AFTER seconds
RETRY_FIRST, RETRY_MAX, TELL_AFTER = 0.05, 5.0, 1.0
STORAGE_DOWN = {"type": "notice", "code": "storage_down",
                "message": "the hall cannot save this table's moves just now: "
                           "the table waits, every clock stopped, until it can"}
STORAGE_BACK = {"type": "notice", "code": "storage_back", "message": "the table goes on"}


class Storage(TableState):
    """Durable actions, and storage outages."""

    async def _save_actions(self) -> bool:
        """Store the actions not yet stored; False if the store failed (they are kept, to
        be tried again, and nothing they caused may be sent)."""
        hand = self.hand
        if hand is None or not hand.unsaved:
            return True
        rows = list(hand.unsaved)
        try:
            if self.info.lease is None:
                await self.db.append_actions(hand.id, rows)
            else:
                await self.db.append_actions(hand.id, rows, self.info.lease)
        except Exception as exc:
            self._store_failed(exc, f"{len(rows)} actions of hand {hand.id}")
            return False
        del hand.unsaved[: len(rows)]
        if self._outage is not None:
            self._store_ok()
        return True

    def _store_failed(self, exc: Exception, what: str) -> None:
        """A write failed: the table stands still and tries again with backoff; once it has
        failed for ``TELL_AFTER`` seconds everyone here is told (a notice that says only
        that) and the log says so."""
        now = self.clock.now()
        # the store answered, and refused (another node owns the table now, or the write is
        # invalid): no retry can pass, the table stands still for good and the hall takes it
        if isinstance(exc, StoreError):
            if self._outage is None:
                self._outage = Outage(now)
            self._outage.retry_at = float("inf")
            if isinstance(exc, LeaseLost):
                log.warning("table %s: %s; letting it go", self.id, exc)
                if self.on_lost is not None:
                    self.on_lost(self.id)
            else:
                log.error("table %s: the store refused %s: %s; closing the table", self.id,
                          what, exc)
                if self.on_refused is not None:
                    self.on_refused(self.id, f"the hall could not store {what} ({exc})")
            return
        outage = self._outage
        if outage is None:
            outage = self._outage = Outage(now)
            log.warning("table %s: storing %s failed: %s; trying again", self.id, what, exc,
                        exc_info=exc)
        outage.failures += 1
        outage.retry_at = now + min(RETRY_MAX, RETRY_FIRST * 2 ** (outage.failures - 1))
        if not outage.told and now - outage.since >= TELL_AFTER:
            outage.told = True
            log.error("table %s: the store has failed for %.1f s (%d attempts, %s: %s); the "
                      "table waits", self.id, now - outage.since, outage.failures, what, exc)
            for conn in self._connections():
                conn.send(STORAGE_DOWN)

    def _store_ok(self) -> None:
        """A write succeeded after an outage: the table goes on where it stood (its times
        move by the outage, so nobody lost time), with the answers that came meanwhile."""
        outage = self._outage
        if outage is None:
            return
        self._outage = None
        waited = self.clock.now() - outage.since
        if self.driver is not None:
            self.driver.delay(waited)
        log.warning("table %s: the store is back after %.1f s (%d failed attempts)", self.id,
                    waited, outage.failures)
        if outage.told:
            for conn in self._connections():
                conn.send(STORAGE_BACK)
        for handler, args in outage.deferred:
            self.post(handler, *args)
