"""Fixtures of the storage tests: a migrated ``Store`` on SQLite (a temporary file) and, when
``BAIDA_TEST_POSTGRES_URL`` is set, on PostgreSQL in a schema of its own, dropped afterwards.

Test modules import the fixtures they use (``from store_support import store``).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from baida.server.store import Store

POSTGRES_URL = os.environ.get("BAIDA_TEST_POSTGRES_URL", "")
DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES_URL, reason="BAIDA_TEST_POSTGRES_URL is not set"))]


def fast_hasher() -> PasswordHasher:
    """argon2id with the smallest parameters: the tests check behaviour, not strength."""
    return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


class Databases:
    """Makes empty databases for one test and removes them after it."""

    def __init__(self, kind: str, tmp_path: Path) -> None:
        self.kind = kind
        self.tmp_path = tmp_path
        self.schemas: list[str] = []
        self.stores: list[Store] = []

    def url(self) -> str:
        """A new empty database: a SQLite file, or a fresh PostgreSQL schema."""
        if self.kind == "sqlite":
            return str(self.tmp_path / f"hall-{len(self.stores)}-{uuid.uuid4().hex[:8]}.db")
        schema = f"baida_test_{uuid.uuid4().hex}"  # unique across xdist workers and runs
        with create_engine(POSTGRES_URL).begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        self.schemas.append(schema)
        # no wait for the disk at each commit: the tests check behaviour, not power-loss safety
        options = f"-csearch_path={schema} -csynchronous_commit=off"
        url = make_url(POSTGRES_URL).update_query_dict({"options": options})
        return url.render_as_string(hide_password=False)

    def store(self, url: str | None = None, *, migrate: bool = True, **options: Any) -> Store:
        options.setdefault("password_hasher", fast_hasher())
        options.setdefault("sqlite_synchronous", "NORMAL")  # as above
        store = Store(url or self.url(), **options)
        self.stores.append(store)
        if migrate:
            store.migrate()
        return store

    def cleanup(self) -> None:
        for store in self.stores:
            store.close()
        if self.schemas:
            engine = create_engine(POSTGRES_URL)
            with engine.begin() as connection:
                for schema in self.schemas:
                    connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            engine.dispose()


@pytest.fixture(params=DATABASES)
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Databases]:
    made = Databases(request.param, tmp_path)
    yield made
    made.cleanup()


@pytest.fixture
def store(databases: Databases) -> Store:
    """A migrated store, starting balance 1000, fast password hashing."""
    return databases.store()


@pytest.fixture
def make_store(databases: Databases) -> Callable[..., Store]:
    """Another store (``url=None``: on a new database) with the given options."""
    return databases.store
