"""``baida admin``: promote, grant, suspend, check on a hall's database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baida.cli import main
from baida.server.store import Store


def test_admin_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = Store(tmp_path / "hall.db")
    store.migrate()
    store.accounts.register("阿明", "a long password")
    store.close()
    assert main(["admin", "--data", str(tmp_path), "promote", "阿明"]) == 0
    assert json.loads(capsys.readouterr().out)["role"] == "admin"
    assert main(["admin", "--data", str(tmp_path), "grant", "阿明", "50", "--key", "k1"]) == 0
    assert json.loads(capsys.readouterr().out)["balance"] == 1050
    assert main(["admin", "--data", str(tmp_path), "grant", "阿明", "50", "--key", "k1"]) == 0
    assert json.loads(capsys.readouterr().out)["balance"] == 1050  # the same key: once
    assert main(["admin", "--data", str(tmp_path), "suspend", "阿明"]) == 0
    assert json.loads(capsys.readouterr().out)["suspended"] is True
    assert main(["admin", "--data", str(tmp_path), "check"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    assert main(["admin", "--data", str(tmp_path), "promote", "nobody"]) == 2
    assert "no account" in capsys.readouterr().err
    assert main(["admin", "--data", str(tmp_path / "empty"), "check"]) == 2


def test_a_backup_taken_while_the_hall_writes_is_one_checked_file_that_opens_as_a_hall(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``baida admin backup`` while 银子 moves all the time: the copy is a snapshot whose ledger
    balances, one file (no write-ahead log beside it), and a hall's data folder once renamed
    hall.db."""
    import threading

    store = Store(tmp_path / "hall.db")
    store.migrate()
    ids = [store.accounts.register(f"玩家{i}", "a long password").id for i in range(4)]
    stop = threading.Event()
    grants = 0

    def write() -> None:
        nonlocal grants
        while not stop.is_set():
            store.ledger.grant(f"load:{grants}", ids[grants % 4], 1)
            grants += 1

    writer = threading.Thread(target=write)
    writer.start()
    try:
        while grants < 50:
            stop.wait(0.01)
        copies = [tmp_path / f"copy{i}.db" for i in range(3)]
        for copy in copies:  # three snapshots taken in the middle of the writes
            assert main(["admin", "--data", str(tmp_path), "backup", str(copy)]) == 0
            report = json.loads(capsys.readouterr().out)
            assert report["ledger_ok"] and report["accounts"] == 4
            assert report["bytes"] == copy.stat().st_size
            assert copy.stat().st_mode & 0o777 == 0o600  # password hashes: the owner's only
    finally:
        stop.set()
        writer.join()
        store.close()
    seen = []
    for copy in copies:
        assert not Path(f"{copy}-wal").exists() and not Path(f"{copy}-shm").exists()
        assert not list(tmp_path.glob(".*partial*"))
        with Store(copy) as snapshot:
            assert snapshot.ledger.check().ok and not snapshot.schema_differences()
            seen.append(snapshot.ledger.totals().transactions)
    assert seen == sorted(seen) and seen[-1] < grants + 4  # snapshots of a growing ledger
    # restored: the copy is a hall's database
    restored = tmp_path / "restored"
    restored.mkdir()
    copies[-1].rename(restored / "hall.db")
    assert main(["admin", "--data", str(restored), "check"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_a_backup_that_cannot_be_made_or_checked_leaves_nothing_and_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    store = Store(tmp_path / "hall.db")
    store.migrate()
    store.accounts.register("阿明", "a long password")
    store.close()
    data = ["admin", "--data", str(tmp_path)]
    taken = tmp_path / "taken.db"
    taken.write_bytes(b"keep me")
    assert main([*data, "backup", str(taken)]) == 2
    assert "already exists" in capsys.readouterr().err and taken.read_bytes() == b"keep me"
    assert main([*data, "backup", str(tmp_path / "no" / "such.db")]) == 2
    assert "no folder" in capsys.readouterr().err
    url = "postgresql+psycopg://hall:s3cret@db.example/baida"
    assert main(["admin", "--database", url, "backup", str(tmp_path / "pg.db")]) == 2
    err = capsys.readouterr().err
    assert "pg_dump" in err and "s3cret" not in err and not (tmp_path / "pg.db").exists()
    # a ledger that does not balance (a cached balance edited by hand): no copy is kept
    with sqlite3.connect(tmp_path / "hall.db") as db:
        db.execute("UPDATE wallets SET balance = balance + 7 WHERE kind = 'user'")
    target = tmp_path / "bad.db"
    assert main([*data, "backup", str(target)]) == 2
    assert "ledger does not balance" in capsys.readouterr().err
    assert not target.exists() and not list(tmp_path.glob(".*partial*"))
    # not a database at all
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "hall.db").write_bytes(b"not a database" * 100)
    assert main(["admin", "--data", str(junk), "backup", str(tmp_path / "j.db")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("baida admin: ") and "Traceback" not in err
    assert not (tmp_path / "j.db").exists()


def test_the_operator_sets_a_new_password_for_a_player_who_lost_theirs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from baida.server.store import AuthenticationFailed

    store = Store(tmp_path / "hall.db")
    store.migrate()
    alice = store.accounts.register("阿丽", "the forgotten one")
    token = store.accounts.open_session(alice.id)
    guest = store.accounts.create_guest()
    store.close()
    data = ["admin", "--data", str(tmp_path)]

    def run(*args: str, typed: str) -> int:
        monkeypatch.setattr("sys.stdin", io.StringIO(typed))
        return main([*data, *args])

    assert run("password", "阿丽", typed="short\n") == 2
    assert "at least 8 characters" in capsys.readouterr().err
    assert run("password", guest.name, typed="a fine password\n") == 2
    assert "guest has no password" in capsys.readouterr().err
    assert run("password", "nobody", typed="a fine password\n") == 2
    capsys.readouterr()
    with Store(tmp_path / "hall.db") as check:  # nothing changed by the refusals
        assert check.accounts.authenticate("阿丽", "the forgotten one").id == alice.id
    assert run("password", "阿丽", typed="a brand new one\n") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["name"] == "阿丽" and "password" not in json.dumps(out)
    with Store(tmp_path / "hall.db") as check:
        assert check.accounts.authenticate("阿丽", "a brand new one").id == alice.id
        with pytest.raises(AuthenticationFailed):
            check.accounts.authenticate("阿丽", "the forgotten one")
        assert check.accounts.by_session(token) is None  # signed out everywhere
    # at a terminal: typed twice, unseen; two that differ change nothing
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    answers = iter(["one new password", "another password"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    assert main([*data, "password", "阿丽"]) == 2
    assert "differ" in capsys.readouterr().err


def test_a_backup_of_an_older_revision_is_taken_and_a_foreign_one_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Backing up before the new version's first start is the usual order: a database at an
    older revision is copied (the hall migrates it at start); one at a revision this version
    does not know, or with no revision at all, is refused and nothing is left."""
    import sqlite3

    from baida.server.store import migrate

    older = tmp_path / "older"
    older.mkdir()
    store = Store(older / "hall.db")
    migrate.upgrade(store.engine, "0004")
    store.accounts.register("阿明", "a long password")
    store.close()
    assert main(["admin", "--data", str(older), "backup", str(tmp_path / "older.db")]) == 0
    assert json.loads(capsys.readouterr().out)["accounts"] == 1
    with Store(tmp_path / "older.db") as copy:
        assert migrate.current_revision(copy.engine) == "0004"
        copy.migrate()  # as the hall does at its start
        assert not copy.schema_differences()
    with sqlite3.connect(older / "hall.db") as db:
        db.execute("UPDATE alembic_version SET version_num = '9999'")
    assert main(["admin", "--data", str(older), "backup", str(tmp_path / "newer.db")]) == 2
    assert "does not know" in capsys.readouterr().err
    with sqlite3.connect(older / "hall.db") as db:
        db.execute("DELETE FROM alembic_version")
    assert main(["admin", "--data", str(older), "backup", str(tmp_path / "none.db")]) == 2
    assert "not a hall's database" in capsys.readouterr().err
    assert not (tmp_path / "newer.db").exists() and not (tmp_path / "none.db").exists()
