"""Opening the database: SQLite at a path (WAL, foreign keys, busy timeout) or PostgreSQL by URL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import orjson
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

# How long a SQLite writer waits for another one before giving up ("database is locked").
SQLITE_BUSY_TIMEOUT_MS = 30_000
_WRITE = "baida_write"
T = TypeVar("T")


def database_url(target: str | Path) -> str:
    """A SQLAlchemy URL from a URL (``postgresql+psycopg://...``, ``sqlite:///...``) or a path."""
    text = str(target)
    if "://" in text:
        url = make_url(text)
        if url.get_backend_name() not in ("sqlite", "postgresql"):
            raise ValueError(f"unsupported database {url.get_backend_name()!r}: "
                             "use a SQLite path or a postgresql+psycopg:// URL")
        if url.drivername == "postgresql":  # the default driver differs between versions
            url = url.set(drivername="postgresql+psycopg")
        return url.render_as_string(hide_password=False)
    if text in ("", ":memory:"):
        raise ValueError("the hall's SQLite database needs a file path (threads share it)")
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def _json_text(value: Any) -> str:
    """JSON as the store writes it (keys that are numbers become strings, as ``json`` does)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(target: str | Path, *, sqlite_synchronous: str = "FULL",
                sqlite_autocheckpoint: int | None = None, **kwargs: Any) -> Engine:
    """The shared engine; on SQLite every connection is set up for concurrent use by threads.
    ``sqlite_autocheckpoint``: pages of write-ahead log after which a commit also copies the
    log back into the database (SQLite's default 1000; 0: never, someone else checkpoints)."""
    url = database_url(target)
    # records and match states are JSON columns of several KB: orjson writes them 5-10x faster
    kwargs.setdefault("json_serializer", _json_text)
    kwargs.setdefault("json_deserializer", orjson.loads)
    if not url.startswith("sqlite"):
        kwargs.setdefault("pool_pre_ping", True)
        return create_engine(url, **kwargs)
    if sqlite_synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"sqlite_synchronous: not a SQLite level: {sqlite_synchronous!r}")
    engine = create_engine(url, **kwargs)
    level = sqlite_synchronous.upper()

    @event.listens_for(engine, "connect")
    def _set_up(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy's "begin" hook below starts them
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute(f"PRAGMA synchronous={level}")
        if sqlite_autocheckpoint is not None:
            cursor.execute(f"PRAGMA wal_autocheckpoint={int(sqlite_autocheckpoint)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        # A writer takes the write lock up front (BEGIN IMMEDIATE): a deferred transaction that
        # reads and then writes fails at once, without waiting, when another writer came first.
        immediate = conn.get_execution_options().get(_WRITE, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def write_options() -> dict[str, Any]:
    """Execution options that make a connection's transactions take the write lock at BEGIN."""
    return {_WRITE: True}


class Sessions:
    """Short sessions on one shared engine: one per store call, so any thread may call."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._read = sessionmaker(engine, expire_on_commit=False)
        self._write = sessionmaker(engine.execution_options(**write_options()),
                                   expire_on_commit=False)

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A read-only transaction."""
        with self._read() as session, session.begin():
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A transaction that writes: committed at the end, rolled back on an exception."""
        with self._write() as session, session.begin():
            yield session

    def transact(self, work: Callable[[Session], T]) -> T:
        """``work`` in a write transaction, run once more if a concurrent writer made it
        violate a unique key (the second run sees that writer's rows and decides again)."""
        try:
            with self.write() as session:
                return work(session)
        except IntegrityError:
            with self.write() as session:
                return work(session)
