"""Migrations: an empty database reaches head, the result matches the models, SQLite settings."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from importlib import resources

import pytest
from sqlalchemy import inspect, select, text

from baida.server.store import NameTaken, Store
from baida.server.store.database import SQLITE_BUSY_TIMEOUT_MS, database_url
from baida.server.store.migrate import current_revision, head_revision, main, upgrade
from baida.server.store.models import Base, Wallet

pytest_plugins = ["store_support"]


def test_an_empty_database_is_migrated_to_head(make_store: Callable[..., Store]) -> None:
    store = make_store(migrate=False)
    assert current_revision(store.engine) is None
    assert not set(inspect(store.engine).get_table_names()) & set(Base.metadata.tables)
    store.migrate()
    assert current_revision(store.engine) == head_revision()
    assert set(Base.metadata.tables) <= set(inspect(store.engine).get_table_names())
    store.migrate()  # at head already: nothing to do
    assert current_revision(store.engine) == head_revision()


def test_revision_0002_frees_the_codes_of_closed_tables(make_store) -> None:
    store = make_store(migrate=False)
    upgrade(store.engine, "0001")
    with store.engine.begin() as connection:
        for code, status in (("OPEN1", "open"), ("SHUT1", "closed"), ("SHUT2", "closed")):
            connection.execute(text(
                "INSERT INTO game_tables (ruleset, number, options, config, private, room_code,"
                " status, created_at) VALUES ('jiaxing', 1, '{}', '{}', :t, :code, :status,"
                " :now)"), {"t": True, "code": code, "status": status,
                            "now": datetime(2026, 1, 1, tzinfo=UTC)})
    store.migrate()
    assert current_revision(store.engine) == head_revision() and store.schema_differences() == []
    assert [(t.room_code, t.status) for t in store.tables.list(status=None)] == \
        [("OPEN1", "open"), (None, "closed"), (None, "closed")]
    assert store.tables.by_room_code("OPEN1").status == "open"
    store.tables.create("wenling", 2, options={}, config={}, room_code="SHUT1")  # free again


def test_revision_0003_gives_older_names_their_skeletons(make_store) -> None:
    store = make_store(migrate=False)
    upgrade(store.engine, "0002")
    with store.engine.begin() as connection:
        for name in ("admiral", "аdmiral", "Bob"):  # the second looks like the first
            connection.execute(text(
                "INSERT INTO users (name, name_key, password_hash, is_guest, role, suspended,"
                " session_version, created_at) VALUES (:name, :key, 'x', :f, 'player', :f, 1,"
                " :now)"), {"name": name, "key": name.casefold(), "f": False,
                            "now": datetime(2026, 1, 1, tzinfo=UTC)})
    store.migrate()
    assert store.schema_differences() == []
    with store.engine.connect() as connection:
        rows = connection.execute(text("SELECT name, name_skeleton FROM users ORDER BY id"))
        assert [(n, s is not None) for n, s in rows] == \
            [("admiral", True), ("аdmiral", False), ("Bob", True)]  # the older name keeps it
    with pytest.raises(NameTaken, match="'admiral'"):
        store.accounts.register("admiraI", "password1")


def test_revision_0006_keeps_older_reports_open(make_store) -> None:
    store = make_store(migrate=False)
    upgrade(store.engine, "0005")
    with store.engine.begin() as connection:
        for name in ("Rude", "Alice"):
            connection.execute(text(
                "INSERT INTO users (name, name_key, name_skeleton, password_hash, is_guest, role,"
                " suspended, session_version, created_at) VALUES (:name, :key, :key, 'x', :f,"
                " 'player', :f, 1, :now)"), {"name": name, "key": name.casefold(), "f": False,
                                            "now": datetime(2026, 1, 1, tzinfo=UTC)})
        ids = [row[0] for row in connection.execute(text("SELECT id FROM users ORDER BY id"))]
        connection.execute(text(
            "INSERT INTO player_reports (at, table_id, user_id, reporter_id, chat) VALUES"
            " (:now, 7, :rude, :alice, :chat)"), {"now": datetime(2026, 1, 1, tzinfo=UTC),
                                                  "rude": ids[-2], "alice": ids[-1],
                                                  "chat": '["words"]'})
    store.migrate()
    assert store.schema_differences() == []
    [report] = store.reports.newest(open_only=True)
    assert (report.user_name, report.chat,
            report.handled_at) == ("Rude", ["words"], None)
    assert store.reports.open_count() == 1


def test_the_migrated_schema_matches_the_models(store: Store) -> None:
    assert store.schema_differences() == []


def test_the_comparison_would_see_a_missing_index(store: Store) -> None:
    with store.engine.begin() as connection:
        connection.execute(text("DROP INDEX ix_hands_status"))
    differences = store.schema_differences()
    assert any(d[0] == "add_index" and d[1].name == "ix_hands_status" for d in differences)


def test_the_system_accounts_exist_once(store: Store) -> None:
    with store.engine.connect() as connection:
        rows = connection.execute(select(Wallet.kind, Wallet.system_kind, Wallet.balance)
                                  .order_by(Wallet.id)).all()
    assert [tuple(r) for r in rows] == [("house", "house", None), ("mint", "mint", None),
                                        ("bots", "bots", None)]


def test_the_command_line_checks_and_upgrades(make_store: Callable[..., Store],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    store = make_store(migrate=False)
    url = store.engine.url.render_as_string(hide_password=False)
    assert main(["current", "--db", url]) == 0
    assert capsys.readouterr().out.strip() == "(empty)"
    assert main(["check", "--db", url]) == 1  # every table is missing
    assert "add_table" in capsys.readouterr().out
    assert main(["upgrade", "--db", url]) == 0
    assert main(["check", "--db", url]) == 0
    assert main(["current", "--db", url]) == 0
    assert capsys.readouterr().out.strip() == head_revision()


def test_sqlite_connections_are_set_up_for_threads(tmp_path) -> None:
    store = Store(tmp_path / "hall.db")
    try:
        with store.engine.connect() as connection:
            def pragma(name: str) -> object:
                return connection.exec_driver_sql(f"PRAGMA {name}").scalar()

            assert pragma("journal_mode") == "wal"
            assert pragma("foreign_keys") == 1
            assert pragma("busy_timeout") == SQLITE_BUSY_TIMEOUT_MS
            assert pragma("synchronous") == 2  # FULL
    finally:
        store.close()


def test_database_targets() -> None:
    assert database_url("/tmp/x/hall.db") == "sqlite:////tmp/x/hall.db"
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgresql+psycopg://u:p@h:5432/db") == \
        "postgresql+psycopg://u:p@h:5432/db"
    for bad, message in [("mysql://u@h/db", "unsupported"), (":memory:", "file path")]:
        with pytest.raises(ValueError, match=message):
            database_url(bad)


def test_the_revisions_ship_inside_the_package() -> None:
    migrations = resources.files("baida.server.store.migrations")
    assert migrations.joinpath("env.py").is_file()
    assert migrations.joinpath("script.py.mako").is_file()
    versions = [p.name for p in migrations.joinpath("versions").iterdir()]
    assert {"0001_initial.py", "0002_room_code_cleared_on_close.py"} <= set(versions)
