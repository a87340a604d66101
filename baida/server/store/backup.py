"""A checked copy of a hall's SQLite database, safe while the hall runs.

Copying ``hall.db`` with ``cp`` while the hall runs loses what is still in its write-ahead log
(``hall.db-wal``) and may catch a page mid-write. SQLite's online backup reads one consistent
snapshot (in WAL mode the hall's writers are not held up meanwhile); the copy is then made a
single self-contained file, checked (SQLite's integrity check, the schema of this version, the
ledger's balance) and only then given its name, so a failed backup leaves no file behind."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class BackupError(Exception):
    """The backup could not be made or did not check out; nothing was left at the target."""


@dataclass(frozen=True)
class BackupReport:
    target: Path
    size: int  # bytes
    accounts: int
    hands: int
    ledger: dict[str, Any]  # the copy's ledger totals (LedgerTotals.to_json)

    def to_json(self) -> dict[str, Any]:
        return {"backup": str(self.target), "bytes": self.size, "accounts": self.accounts,
                "hands": self.hands, "ledger_ok": True, **self.ledger}


def backup_sqlite(source: Path, target: Path) -> BackupReport:
    """Copy the SQLite database ``source`` to ``target`` (which must not exist) and check it."""
    if not source.is_file():
        raise BackupError(f"no hall database at {source}")
    target = target.expanduser().resolve()
    if target.exists():
        raise BackupError(f"{target} already exists: give a new file name")
    if not target.parent.is_dir():
        raise BackupError(f"no folder {target.parent}")
    partial = target.with_name(f".{target.name}.partial")
    _remove(partial)
    try:
        _copy(source, partial)
        report = _check(partial, target)
        os.replace(partial, target)
    except BaseException:
        _remove(partial)
        raise
    return report


def _copy(source: Path, partial: Path) -> None:
    # not read-only: a WAL database opened read-only fails when its -shm file is absent (the
    # hall stopped); the copy only reads
    src = sqlite3.connect(source, timeout=30)
    try:
        # the copy holds password hashes and sessions: readable by its owner only
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # every page in one step: one snapshot, however busy the hall is
            dst.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
        finally:
            dst.close()
    except (sqlite3.Error, OSError) as exc:
        raise BackupError(f"cannot copy {source}: {exc}") from exc
    finally:
        src.close()


def _check(partial: Path, target: Path) -> BackupReport:
    from sqlalchemy import func, select

    from .models import HandRow, User
    from .store import Store

    with sqlite3.connect(partial) as db:
        verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
    if verdict != "ok":
        raise BackupError(f"the copy failed SQLite's integrity check: {verdict}")
    store = Store(partial)
    try:
        revision = _revision_problem(store)
        if revision is not None:
            raise BackupError(revision)
        check = store.ledger.check()
        if not check.ok:
            raise BackupError("the ledger does not balance in the copy (baida admin check "
                              "says where): nothing was kept")
        totals = store.ledger.totals().to_json()
        with store.engine.connect() as conn:
            accounts = conn.scalar(select(func.count()).select_from(User)) or 0
            hands = conn.scalar(select(func.count()).select_from(HandRow)) or 0
    finally:
        store.close()
    with sqlite3.connect(partial) as db:  # the store's connections set WAL: one file again
        db.execute("PRAGMA journal_mode=DELETE")
    return BackupReport(target, partial.stat().st_size, int(accounts), int(hands), totals)


def _revision_problem(store: Any) -> str | None:
    """Why the copy is not a hall's database this version can restore, or None. A database at
    an older revision is fine (backing up before the new version's first start is the usual
    order; the hall migrates it at start); at this version's head its schema must be the
    models'."""
    from . import migrate

    at = migrate.current_revision(store.engine)
    if at is None:
        return "not a hall's database (it has no schema revision)"
    known = migrate.known_revisions()
    if at not in known:
        return (f"the database is at revision {at}, which this version does not know (a newer "
                "version's?): back it up with that version")
    if at == migrate.head_revision() and store.schema_differences():
        return "the database's schema differs from its revision's: nothing was kept"
    return None


def _remove(path: Path) -> None:
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        name.unlink(missing_ok=True)
