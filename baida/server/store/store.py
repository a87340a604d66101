"""``Store``: the hall's persistent data behind one object that any thread may call."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher

from .accounts import Accounts
from .database import Sessions, make_engine
from .hands import Hands
from .leases import Leases
from .ledger import Ledger
from .mutes import Mutes
from .passwords import Passwords
from .reports import Reports
from .stats import PlayerStats
from .tables import Tables

DEFAULT_STARTING_BALANCE = 1000


def utc_now() -> datetime:
    return datetime.now(UTC)


class Store:
    """Accounts, the 银子 ledger, tables, matches, hands, table leases, reports of players,
    mutes, players' records: ``store.accounts``, ``store.ledger``, ``store.tables``,
    ``store.hands``, ``store.leases``, ``store.reports``, ``store.mutes``, ``store.stats``.
    Each call is its own short transaction on a shared engine, so the hall may call from its
    writer thread and a pool of reader threads."""

    def __init__(self, database: str | Path, *, password_hasher: PasswordHasher | None = None,
                 starting_balance: int = DEFAULT_STARTING_BALANCE,
                 clock: Callable[[], datetime] = utc_now, sqlite_synchronous: str = "FULL",
                 sqlite_autocheckpoint: int | None = None, **engine_options: Any) -> None:
        """``database``: a SQLite file path or a ``postgresql+psycopg://`` URL (or any
        SQLAlchemy URL of those two). Call ``migrate()`` before anything else."""
        self.engine = make_engine(database, sqlite_synchronous=sqlite_synchronous,
                                  sqlite_autocheckpoint=sqlite_autocheckpoint, **engine_options)

        def now() -> datetime:
            time = clock()
            if time.tzinfo is None:
                raise ValueError("the store's clock must give timezone-aware times")
            return time

        sessions = Sessions(self.engine)
        self.ledger = Ledger(sessions, now)
        self.accounts = Accounts(sessions, now, Passwords(password_hasher), self.ledger,
                                 starting_balance)
        self.tables = Tables(sessions, now)
        self.hands = Hands(sessions, now, self.ledger)
        self.leases = Leases(sessions)
        self.reports = Reports(sessions, now)
        self.mutes = Mutes(sessions, now)
        self.stats = PlayerStats(sessions)

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    def migrate(self) -> None:
        """Bring the schema to the newest revision ("upgrade head"); safe to call every start."""
        from . import migrate  # Alembic is only needed here: importing the store stays light

        migrate.upgrade(self.engine)

    def schema_differences(self) -> list[Any]:
        """Differences between the database's schema and the models (empty when migrated)."""
        from . import migrate

        return migrate.schema_differences(self.engine)

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
