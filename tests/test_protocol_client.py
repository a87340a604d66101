"""A client written from ``docs/protocol.md`` alone (``protocol_client``, which imports
nothing of ``baida``) plays whole matches against bots at a real hall over real sockets."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import protocol_client
import pytest
from hall_harness import INSTANT, running_hall

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_the_client_imports_nothing_of_baida() -> None:
    tree = ast.parse(Path(protocol_client.__file__).read_text())
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            modules.add((node.module or "").split(".")[0])
    assert modules <= {"__future__", "asyncio", "json", "dataclasses", "typing", "httpx",
                       "websockets"}, modules


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
async def test_a_client_from_the_document_plays_a_match(tmp_path: Path, ruleset: str) -> None:
    async with running_hall(tmp_path) as hall:
        play = asyncio.create_task(protocol_client.play_match(
            hall.base, ruleset, {"hands": 2, "timing": INSTANT}))
        for _ in range(4000):
            if play.done():
                break
            await hall.advance(0.5)
            await asyncio.sleep(0.002)  # the client's turn to read (the hall is quiet)
        state = play.result()
        assert state.hands_done == 2 and state.match_over
        assert state.totals is not None and sum(state.totals) == 0
        assert state.snapshots >= 2 and state.acts > 0 and state.acks == state.acts
        assert state.log[0] == "welcome"
