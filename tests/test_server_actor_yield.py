"""A table whose inbox is never empty (it keeps posting itself messages) still lets the
node's other tasks run: its task yields to the event loop every ``YIELD_EVERY`` messages."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hall_harness import Client, running_hall
from test_server_time import table_with_bots

from baida.server.tables.actor.table import YIELD_EVERY

pytestmark = pytest.mark.anyio
FLOOD = 200 * YIELD_EVERY  # messages the table posts itself, one after another


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_table_flooding_its_own_inbox_does_not_starve_the_node(
        tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me, ready=False)
        actor = hall.runtime.hall.get(table_id)
        other = await Client(hall).guest()
        other_table = await table_with_bots(hall, other, ready=False)
        neighbour = hall.runtime.hall.get(other_table)
        handled = 0

        def again() -> None:
            nonlocal handled
            handled += 1
            if handled < FLOOD:
                actor.post(again)

        seen: list[int] = []  # the flood's progress each time another task got to run

        async def ticker() -> None:
            while handled < FLOOD:
                seen.append(handled)
                await asyncio.sleep(0)

        actor.post(again)
        tick = asyncio.create_task(ticker())
        # another table's call is answered while the flood goes on
        answered = await neighbour.call(lambda: handled)
        await asyncio.wait_for(tick, 30)
        assert handled == FLOOD
        assert answered < FLOOD, "the other table waited for the whole flood"
        during = [n for n in seen if 0 < n < FLOOD]
        assert len(during) >= FLOOD // YIELD_EVERY // 2, len(during)
        await me.close()
        await other.close()
