"""Before a command opens the hall's storage: whether it can, in one line an operator can act
on (the folder that cannot be written, the database that does not answer), not a traceback."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from .database import database_url, make_engine

CONNECT_TIMEOUT_S = 5  # a database that does not answer within this is reported, not waited on


def folder_problem(folder: Path, what: str = "the data folder") -> str | None:
    """Why the hall cannot keep its files in ``folder`` (made if missing), or None."""
    probe = folder / f".baida-write-test-{os.getpid()}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # it will hold password hashes
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        return f"cannot write to {what} {folder}: {exc.strerror or exc}"
    return None


def database_problem(target: str | Path) -> str | None:
    """Why the hall cannot open the database ``target`` (a SQLite path or a URL), or None: an
    unsupported kind, a SQLite file whose folder cannot be written, a server that does not
    answer or refuses the connection (the password never shown)."""
    try:
        url = make_url(database_url(target))
    except ValueError as exc:
        return str(exc)
    if url.get_backend_name() == "sqlite":
        return folder_problem(Path(url.database or ".").parent, "the database's folder")
    engine = make_engine(target, poolclass=NullPool,
                         connect_args={"connect_timeout": CONNECT_TIMEOUT_S})
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except SQLAlchemyError as exc:
        lines = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        reason = lines[0] if lines else type(exc).__name__
        return f"cannot open the database {url.render_as_string(hide_password=True)}: {reason}"
    finally:
        engine.dispose()
    return None
