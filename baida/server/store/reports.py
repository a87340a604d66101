"""Reports of players by others at their table (the operator's page lists the newest)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from .database import Sessions
from .errors import InvalidRequest
from .models import PlayerReport, User

CHAT_LINES = 10  # the reported person's last messages kept with a report
LINE_MAX = 200  # characters of one of them


@dataclass(frozen=True)
class Report:
    id: int
    at: datetime
    table_id: int
    user_id: int  # the reported
    user_name: str
    reporter_id: int
    reporter_name: str
    chat: list[str]  # the reported person's last words at the table, oldest first
    handled_at: datetime | None = None  # when an operator marked it dealt with
    handled_by: int | None = None  # that operator
    handled_by_name: str | None = None


class Reports:
    def __init__(self, sessions: Sessions, clock: Callable[[], datetime]) -> None:
        self._sessions = sessions
        self._clock = clock

    def add(self, table_id: int, user_id: int, reporter_id: int, chat: list[str]) -> int:
        """Keep a report; its id."""
        if user_id == reporter_id:
            raise InvalidRequest("a player does not report themselves")
        lines = [str(line)[:LINE_MAX] for line in chat[-CHAT_LINES:]]

        def work(session: Session) -> int:
            row = PlayerReport(at=self._clock(), table_id=table_id, user_id=user_id,
                               reporter_id=reporter_id, chat=lines)
            session.add(row)
            session.flush()
            return row.id

        return self._sessions.transact(work)

    def newest(self, limit: int = 50, *, open_only: bool = False) -> list[Report]:
        """The newest reports first; with ``open_only``, those no operator has handled."""
        reported, reporter, handler = aliased(User), aliased(User), aliased(User)
        query = (select(PlayerReport, reported.name, reporter.name, handler.name)
                 .join(reported, reported.id == PlayerReport.user_id)
                 .join(reporter, reporter.id == PlayerReport.reporter_id)
                 .outerjoin(handler, handler.id == PlayerReport.handled_by))
        if open_only:
            query = query.where(PlayerReport.handled_at.is_(None))
        with self._sessions.read() as session:
            rows = session.execute(
                query.order_by(PlayerReport.id.desc()).limit(max(limit, 0))).all()
        return [Report(r.id, r.at, r.table_id, r.user_id, name, r.reporter_id, by, list(r.chat),
                       r.handled_at, r.handled_by, handled_by)
                for r, name, by, handled_by in rows]

    def open_count(self) -> int:
        """How many reports no operator has handled yet."""
        with self._sessions.read() as session:
            return session.scalar(select(func.count()).select_from(PlayerReport).where(
                PlayerReport.handled_at.is_(None))) or 0

    def set_handled(self, report_id: int, admin_id: int | None) -> bool:
        """Mark a report handled by ``admin_id`` (None: open it again); False when there is
        no such report. Marking a handled report again keeps its first handler and time."""

        def work(session: Session) -> bool:
            row = session.get(PlayerReport, report_id)
            if row is None:
                return False
            if admin_id is None:
                row.handled_at, row.handled_by = None, None
            elif row.handled_at is None:
                row.handled_at, row.handled_by = self._clock(), admin_id
            return True

        return self._sessions.transact(work)
