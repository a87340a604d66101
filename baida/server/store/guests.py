"""Guests nobody can ever be again, and nothing refers to: removed.

A guest has no password, so once its last session is gone (expired after 30 days, or signed
out) nobody can sign in as it again. Such a guest is removed, with its wallet and its starting
grant (the grant's two entries, the mint's and its own, and their transaction: the ledger
stays balanced), when nothing else refers to it:

* it was made more than ``GRACE`` ago, the life of a session: a new guest has its session a
  moment after its row, and a cookie signed before the hall kept sessions (traded once for a
  session, ``adopt_legacy``) lives as long; so only in the first 30 days after upgrading a
  hall from before sessions could a guest whose old cookie was signed after it was made go;
* it never sat in a stored hand, and its wallet has no entry but the starting grant (a guest
  who played for 银子 keeps its history);
* no mute, report or table refers to it (nor does an open table's host);
* it is not the newest account: SQLite would give its id to the next account made.

Ids are never reused, so an id in a closed table's settings or a log line names nobody else.

Each call looks at one window of ids (``WINDOW``) after the caller's cursor and returns where
the next call starts, back at the first id after the newest: the cost of a call stays the same
however many guests are kept (it was 90 ms a call at 190,000 kept guests, scanned every time).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import String, cast, delete, exists, func, literal, or_, select
from sqlalchemy.orm import Session

from .logins import SESSION_DAYS
from .models import (
    GameTable,
    HandSeat,
    LedgerEntry,
    LedgerTxn,
    LoginSession,
    Mute,
    PlayerReport,
    User,
    Wallet,
)

GRACE = timedelta(days=SESSION_DAYS)
BATCH = 50  # guests removed at most per call: a short transaction
WINDOW = 2000  # ids looked at per call


def start_key(user_id: int) -> str:
    """The ledger key of an account's starting grant."""
    return f"start:{user_id}"


def prune_guests(session: Session, now: datetime, after: int = 0, *, limit: int = BATCH,
                 window: int = WINDOW) -> tuple[list[int], int]:
    """Remove up to ``limit`` guests nobody can sign in as and nothing refers to, among the ids
    in (``after``, ``after + window``], inside the caller's transaction: (their ids, oldest
    first; the cursor of the next call, 0 once past the newest account)."""
    session.execute(delete(LoginSession).where(LoginSession.expires_at <= now))
    newest = session.scalar(select(func.max(User.id)))
    if newest is None:
        return [], 0
    upto = after + window
    grant = literal("start:") + cast(User.id, String)
    candidates = session.scalars(
        select(User.id)
        .join(Wallet, Wallet.user_id == User.id)
        .where(
            User.is_guest,
            User.created_at <= now - GRACE,
            User.id > after,
            User.id <= upto,
            User.id < newest,
            ~exists().where(LoginSession.user_id == User.id),
            ~exists().where(HandSeat.user_id == User.id),
            ~exists().where(LedgerEntry.wallet_id == Wallet.id, LedgerEntry.txn_key != grant),
            ~exists().where(or_(Mute.user_id == User.id, Mute.muted_id == User.id)),
            ~exists().where(or_(PlayerReport.user_id == User.id,
                                PlayerReport.reporter_id == User.id,
                                PlayerReport.handled_by == User.id)),
            ~exists().where(GameTable.created_by == User.id),
        )
        .order_by(User.id)
        .limit(limit)
    ).all()
    hosts = {row.get("host") for row in session.scalars(
        select(GameTable.config).where(GameTable.status == "open"))} if candidates else set()
    gone = [user_id for user_id in candidates if user_id not in hosts]
    if len(candidates) == limit:  # the window may hold more: go on after the last
        cursor = candidates[-1]
    else:
        cursor = upto if upto < newest else 0
    if not gone:
        return [], cursor
    keys = [start_key(user_id) for user_id in gone]
    session.execute(delete(LedgerEntry).where(LedgerEntry.txn_key.in_(keys)))
    session.execute(delete(LedgerTxn).where(LedgerTxn.key.in_(keys)))
    session.execute(delete(Wallet).where(Wallet.user_id.in_(gone)))
    session.execute(delete(User).where(User.id.in_(gone)))
    return gone, cursor
