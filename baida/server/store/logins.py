"""Server-side sessions: a random token per signed-in browser, kept as its SHA-256.

The cookie carries the token; a request is signed in while its row exists and has not
expired. Signing out deletes the row, and ``revoke_all`` (registering a guest, a password
change, signing out everywhere, a suspension) deletes every row of an account in the
transaction that makes the change.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .models import LoginSession, User, Wallet

SESSION_DAYS = 30
MAX_TOKEN = 64  # characters of a token (43 are made); longer ones are never looked up


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def open_session(session: Session, user_id: int, now: datetime) -> str:
    """A new session of ``user_id`` (inside the caller's transaction): its token."""
    token = secrets.token_urlsafe(32)
    session.execute(delete(LoginSession).where(LoginSession.expires_at <= now))
    session.add(LoginSession(token_hash=token_hash(token), user_id=user_id, created_at=now,
                             expires_at=now + timedelta(days=SESSION_DAYS)))
    session.flush()
    return token


def revoke_all(session: Session, user_id: int, *, keep: str | None = None) -> int:
    """Delete the sessions of ``user_id`` (but the one of token ``keep``); how many went."""
    query = delete(LoginSession).where(LoginSession.user_id == user_id)
    if keep is not None:
        query = query.where(LoginSession.token_hash != token_hash(keep))
    return session.execute(query).rowcount or 0


def lookup(session: Session, token: object, now: datetime) -> tuple[User, Wallet] | None:
    """The account and wallet rows of a live session's token, else None."""
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
        return None
    row = session.execute(
        select(User, Wallet)
        .join(LoginSession, LoginSession.user_id == User.id)
        .join(Wallet, Wallet.user_id == User.id)
        .where(LoginSession.token_hash == token_hash(token), LoginSession.expires_at > now)
    ).first()
    return None if row is None else (row[0], row[1])


def close(session: Session, token: str) -> None:
    """Sign this session out (nothing happens for an unknown token)."""
    session.execute(delete(LoginSession).where(LoginSession.token_hash == token_hash(token)))


def count(session: Session, user_id: int, now: datetime) -> int:
    """How many live sessions ``user_id`` has."""
    return len(session.scalars(select(LoginSession.id).where(
        LoginSession.user_id == user_id, LoginSession.expires_at > now)).all())
