"""The hall's writer thread: group commit, actions ahead of slower writes, nothing lost."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from baida.server.store.writer import StoreWriter


class RecordingHands:
    def __init__(self, log: list[Any], fail: bool = False) -> None:
        self.log = log
        self.fail = fail

    def append_rows(self, rows: list[tuple[int, int, Any]], fences: Any = None) -> set[int]:
        if self.fail:
            raise RuntimeError("disk full")
        self.log.append(("rows", [(hand, index) for hand, index, _ in rows]))
        return set()


class RecordingStore:
    def __init__(self, fail: bool = False) -> None:
        self.log: list[Any] = []
        self.hands = RecordingHands(self.log, fail)


def test_waiting_actions_are_committed_together_before_the_slower_writes() -> None:
    store = RecordingStore()
    writer = StoreWriter(store, readers=1)
    entered, gate = threading.Event(), threading.Event()

    def slow(s: RecordingStore, name: str) -> str:
        if name == "first":
            entered.set()
            gate.wait(10)
        s.log.append(("call", name))
        return name

    async def scenario() -> list[Any]:
        first = asyncio.ensure_future(writer.write(slow, "first"))
        await asyncio.to_thread(entered.wait, 10)  # the writer thread is inside "first"
        later = [asyncio.ensure_future(writer.write(slow, name)) for name in ("second", "third")]
        later += [asyncio.ensure_future(writer.append_actions(h, [(0, {}), (1, {})]))
                  for h in (7, 8)]
        await asyncio.sleep(0)  # each coroutine runs to its await: every job is queued
        gate.set()
        return await asyncio.gather(first, *later)

    try:
        results = asyncio.run(scenario())
    finally:
        writer.close()
    assert results[:3] == ["first", "second", "third"]
    assert store.log == [
        ("call", "first"),
        ("rows", [(7, 0), (7, 1), (8, 0), (8, 1)]),  # one commit, ahead of second and third
        ("call", "second"),
        ("call", "third"),
    ]


def test_a_failed_commit_reaches_every_waiting_table() -> None:
    writer = StoreWriter(RecordingStore(fail=True), readers=1)

    async def scenario() -> None:
        await writer.append_actions(1, [(0, {})])

    try:
        with pytest.raises(RuntimeError, match="disk full"):
            asyncio.run(scenario())
    finally:
        writer.close()


def test_closing_runs_what_is_already_queued() -> None:
    store = RecordingStore()
    writer = StoreWriter(store, readers=1)
    loop = asyncio.new_event_loop()
    try:
        pending = writer.write(lambda s: s.log.append(("call", "last")))
        task = loop.create_task(pending)
        loop.run_until_complete(asyncio.sleep(0))  # the job is queued
        writer.close()
        loop.run_until_complete(task)
    finally:
        loop.close()
    assert store.log == [("call", "last")]
