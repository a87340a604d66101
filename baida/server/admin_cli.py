"""``baida admin``: the operator's commands on a hall's database (the hall may be running)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .ops.paths import default_data_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, default=None,
                        help=f"the hall's data folder (default {default_data_dir()})")
    parser.add_argument("--database", default=None, metavar="URL", help="a PostgreSQL URL")
    sub = parser.add_subparsers(dest="admin_command", required=True, metavar="ACTION")
    for name, text in (("promote", "make an account an admin"),
                       ("demote", "make an admin a player again"),
                       ("suspend", "suspend an account (signed out everywhere)"),
                       ("reinstate", "lift a suspension")):
        child = sub.add_parser(name, help=text)
        child.add_argument("name", help="the account's display name")
    password = sub.add_parser(
        "password", help="set a new password for an account whose player lost theirs (signed "
        "out everywhere); asked twice at a terminal, else one line read from standard input")
    password.add_argument("name", help="the account's display name")
    grant = sub.add_parser("grant", help="give an account 银子")
    grant.add_argument("name")
    grant.add_argument("amount", type=int)
    grant.add_argument("--key", default=None, help="an idempotency key (default: a new one)")
    sub.add_parser("check", help="check the ledger: transactions balance, cached balances")
    backup = sub.add_parser("backup", help="copy the hall's SQLite database to FILE, checked "
                            "(safe while the hall runs; PostgreSQL: pg_dump)")
    backup.add_argument("file", type=Path, help="the copy to make (a new file)")


def run(args: argparse.Namespace) -> int:
    import secrets

    from .store import Store, StoreError

    data = args.data or default_data_dir()
    url = args.database or str(data / "hall.db")
    if not args.database and not (data / "hall.db").exists():
        print(f"baida admin: no hall database in {data}", file=sys.stderr)
        return 2
    if args.admin_command == "backup":
        return _backup(args.database, data / "hall.db", args.file)
    from .store.preflight import database_problem

    problem = database_problem(url)
    if problem is not None:
        print(f"baida admin: {problem}", file=sys.stderr)
        return 2
    store = Store(url)
    try:
        store.migrate()
        if args.admin_command == "check":
            check = store.ledger.check()
            totals = store.ledger.totals()
            print(json.dumps({"ok": check.ok, **totals.to_json()}, ensure_ascii=False))
            return 0 if check.ok else 1
        account = store.accounts.by_name(args.name)
        if account is None:
            print(f"baida admin: no account named {args.name!r}", file=sys.stderr)
            return 2
        if args.admin_command in ("promote", "demote"):
            role = "admin" if args.admin_command == "promote" else "player"
            account = store.accounts.set_role(account.id, role)
        elif args.admin_command in ("suspend", "reinstate"):
            account = store.accounts.set_suspended(account.id, args.admin_command == "suspend")
        elif args.admin_command == "password":
            new = _new_password()
            if new is None:
                print("baida admin: the two passwords differ; nothing changed", file=sys.stderr)
                return 2
            account = store.accounts.reset_password(account.id, new)
        elif args.admin_command == "grant":
            key = args.key or f"cli-grant:{secrets.token_hex(8)}"
            store.ledger.grant(key, account.id, args.amount)
            account = store.accounts.get(account.id)
        print(json.dumps({"id": account.id, "name": account.name, "role": account.role,
                          "suspended": account.suspended, "balance": account.balance},
                         ensure_ascii=False))
        return 0
    except StoreError as exc:
        print(f"baida admin: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()


def _backup(database: str | None, hall_db: Path, target: Path) -> int:
    from .store.backup import BackupError, backup_sqlite
    from .store.database import database_url

    if database is not None and not database_url(database).startswith("sqlite"):
        from sqlalchemy.engine import make_url

        shown = make_url(database_url(database)).set(drivername="postgresql")
        print("baida admin: a PostgreSQL hall is backed up with PostgreSQL's own tool, while it "
              f"runs: pg_dump --format=custom --file=FILE '{shown.render_as_string()}' "
              "(and pg_restore to bring it back)", file=sys.stderr)
        return 2
    source = Path(database_url(database).removeprefix("sqlite:///")) if database else hall_db
    try:
        report = backup_sqlite(source, target)
    except BackupError as exc:
        print(f"baida admin: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report.to_json(), ensure_ascii=False))
    return 0


def _new_password() -> str | None:
    """The new password: typed twice, unseen, at a terminal (None when they differ), else the
    first line of standard input (a script: ``echo … | baida admin password NAME``)."""
    if sys.stdin.isatty():
        import getpass

        first = getpass.getpass("new password: ")
        return first if getpass.getpass("again: ") == first else None
    return sys.stdin.readline().rstrip("\r\n")
