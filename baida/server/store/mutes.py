"""Mutes (屏蔽): whose chat a player does not want to read, kept with the account so that it
holds on every device they sign in on."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from .database import Sessions
from .errors import InvalidRequest, NotFound
from .models import Mute, User

MUTES_MAX = 500  # people one account may mute


class Mutes:
    def __init__(self, sessions: Sessions, clock: Callable[[], datetime]) -> None:
        self._sessions = sessions
        self._clock = clock

    def of(self, user_id: int) -> list[int]:
        """The accounts ``user_id`` has muted, the earliest first."""
        with self._sessions.read() as session:
            return list(session.scalars(
                select(Mute.muted_id).where(Mute.user_id == user_id)
                .order_by(Mute.at, Mute.muted_id)))

    def set(self, user_id: int, muted_id: int, on: bool) -> list[int]:
        """Mute ``muted_id`` for ``user_id`` (``on``) or no longer; the mutes after it. Muting
        twice, or unmuting someone not muted, changes nothing. ``InvalidRequest`` for oneself
        or past ``MUTES_MAX``; ``NotFound`` for an account that does not exist."""
        if user_id == muted_id:
            raise InvalidRequest("a player does not mute themselves")

        def work(session: Session) -> None:
            if not on:
                session.execute(delete(Mute).where(Mute.user_id == user_id,
                                                   Mute.muted_id == muted_id))
                return
            if session.get(User, muted_id) is None:
                raise NotFound("no such account")
            if session.get(Mute, (user_id, muted_id)) is not None:
                return
            count = session.scalar(select(func.count()).select_from(Mute)
                                   .where(Mute.user_id == user_id)) or 0
            if count >= MUTES_MAX:
                raise InvalidRequest(f"at most {MUTES_MAX} people muted; unmute someone first")
            session.add(Mute(user_id=user_id, muted_id=muted_id, at=self._clock()))

        self._sessions.transact(work)
        return self.of(user_id)
