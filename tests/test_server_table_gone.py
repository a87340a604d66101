"""An old bookmark: the socket of a table that is not played here says at once whether the
table is gone for good (4404 ``no_table``: it never existed, it closed, or it is private and
the person was not admitted; the page says so at once) or away for a moment (1013
``try_again``: it is open in the store but its node is restarting or taking it over; the
page tries again). Both answered 4404 once, so a page had to try a closed table's link
again for 20 s before it could say the table did not exist."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hall_harness import Client, Hall, running_hall
from test_server_idle_tables import new_table
from test_server_private import answer_of_socket, private_table

pytestmark = pytest.mark.anyio

GONE = ("no_table", 4404)
AWAY = ("try_again", 1013)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def answer(hall: Hall, client: Client, table_id: int) -> tuple[str, int | None]:
    first, close_code = await answer_of_socket(hall, client, table_id)
    return first.get("code", first["type"]), close_code


def away(hall: Hall, table_id: int) -> Any:
    """Take a table off this node as if its node were restarting (it stays open in the
    store); returns what puts it back."""
    tables = hall.runtime.hall.tables
    actor = tables.pop(table_id)
    return lambda: tables.__setitem__(table_id, actor)


async def test_a_closed_or_unknown_table_is_gone_and_an_open_one_away(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        stranger = await Client(hall).guest()
        table_id = await new_table(host)
        closed_id = await new_table(host)
        assert await hall.runtime.hall.close_table(closed_id, "closed by the operator")
        assert hall.runtime.store.tables.get(closed_id).status == "closed"
        assert await answer(hall, stranger, table_id + 1000) == GONE  # never existed
        assert await answer(hall, stranger, closed_id) == GONE  # closed
        # open, but its node is restarting: a moment, for anyone who may open it
        back = away(hall, table_id)
        assert await answer(hall, stranger, table_id) == AWAY
        assert await answer(hall, host, table_id) == AWAY
        back()
        assert await answer(hall, stranger, table_id) == ("welcome", None)
        # the store cannot say: whether it exists is not known, so a moment
        tables = hall.runtime.store.tables

        def failing(table_id: int) -> Any:
            raise OSError("the database is out")

        tables.get = failing
        try:
            assert await answer(hall, stranger, table_id + 1000) == AWAY
        finally:
            del tables.get
        for c in (host, stranger):
            await c.close()


async def test_a_private_table_away_is_gone_to_strangers(tmp_path: Path) -> None:
    """Away or here, a private table is as if it did not exist to whoever may not open it
    (the answer must not tell a private table's id from a free one); its host and the people
    admitted by its room code are told it is away."""
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        stranger = await Client(hall).guest()
        friend = await Client(hall).guest()
        table = await private_table(hall, host)
        r = await friend.post("/api/rooms", {"code": table["room_code"]})
        assert r.status_code == 200
        assert await answer(hall, stranger, table["id"]) == GONE
        back = away(hall, table["id"])
        assert await answer(hall, stranger, table["id"]) == GONE
        assert await answer(hall, stranger, table["id"] + 1000) == GONE
        assert await answer(hall, host, table["id"]) == AWAY
        assert await answer(hall, friend, table["id"]) == AWAY
        back()
        for c in (host, stranger, friend):
            await c.close()


async def test_a_private_table_here_is_told_no_table_after_the_same_reads_as_a_missing_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """To someone not admitted, an open private table played here and an id that never was
    are both ``no_table``, and both after the same reads of the store: answered from memory
    at once, the private one was told from the missing one by the time the answer took."""
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        stranger = await Client(hall).guest()
        table = await private_table(hall, host)
        store_tables = hall.runtime.store.tables
        asked: list[str] = []
        for name in ("get", "current_match"):
            real = getattr(store_tables, name)
            monkeypatch.setattr(store_tables, name,
                                lambda t, real=real, name=name: (asked.append(name), real(t))[1])
        reads = []
        for table_id in (table["id"], table["id"] + 1000):
            asked.clear()
            assert await answer(hall, stranger, table_id) == GONE
            reads.append(sorted(asked))
        assert reads[0] == reads[1] == ["current_match", "get"], reads
        await host.close()
        await stranger.close()
