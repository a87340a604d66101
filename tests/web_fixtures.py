"""The browser tests' fixtures, loaded as a plugin (``pytest_plugins = ["web_fixtures"]``):
one Chromium and one live hall per test module, and ``web``, a page factory that fails the
test on any console error and closes the test's tables after it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from web_support import LiveHall, Web, browser_session


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from browser_session()


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[LiveHall]:
    live = LiveHall(tmp_path_factory.mktemp("hall")).start()
    yield live
    live.stop()


@pytest.fixture
def web(browser: Any, hall: LiveHall) -> Iterator[Web]:
    tables = hall.table_ids()
    w = Web(browser, hall)
    yield w
    errors = w.errors()
    w.close()
    hall.close_tables(keep=tables)
    assert not errors, errors
