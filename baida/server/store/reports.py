"""Reports of players by others at their table (the operator's page lists the newest)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
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

    def newest(self, limit: int = 50) -> list[Report]:
        """The newest reports first."""
        reported, reporter = aliased(User), aliased(User)
        with self._sessions.read() as session:
            rows = session.execute(
                select(PlayerReport, reported.name, reporter.name)
                .join(reported, reported.id == PlayerReport.user_id)
                .join(reporter, reporter.id == PlayerReport.reporter_id)
                .order_by(PlayerReport.id.desc()).limit(max(limit, 0))).all()
        return [Report(r.id, r.at, r.table_id, r.user_id, name, r.reporter_id, by, list(r.chat))
                for r, name, by in rows]
