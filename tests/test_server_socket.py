"""The hall's own WebSocket protocol (``ws_protocol``): frames as the RFC has them, paths that
are not a table's, fragments, binary and broken UTF-8, pings, closing, a slow reader; and the
action log's worker process: batches, acknowledgements, a worker that dies."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

import pytest
from hall_harness import INSTANT, Client, running_hall
from hypothesis import given
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.streams import StreamReader

from baida.server.store import Store
from baida.server.store.db_process import DatabaseProcess, DatabaseProcessError
from baida.server.store.errors import HandStateError
from baida.server.tables.connection import MAX_STRIKES, MAX_UNREAD, STRIKE_WINDOW, Connection, User
from baida.server.web.ws_protocol import TableSocketProtocol, text_frame

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@given(st.binary(max_size=70_000))
def test_text_frames_are_what_the_websockets_library_writes(payload: bytes) -> None:
    expected = Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])
    assert text_frame(payload) == expected


@given(st.lists(st.text(max_size=300), min_size=1, max_size=5))
def test_several_frames_in_one_write_parse_as_those_messages(texts: list[str]) -> None:
    written: list[bytes] = []

    class Transport:
        def write(self, data: bytes) -> None:
            written.append(data)

    protocol = TableSocketProtocol.__new__(TableSocketProtocol)
    protocol.ws = type("Open", (), {"state": State.OPEN})()
    protocol.transport = Transport()  # type: ignore[assignment]
    protocol.write_texts(texts)
    assert len(written) == 1
    reader = StreamReader()  # the websockets library's own parser reads them back
    reader.feed_data(written[0])
    parsed = []
    while reader.buffer:
        try:
            next(Frame.parse(reader.read_exact, mask=False))
        except StopIteration as done:
            parsed.append(done.value)
    assert [(f.opcode, f.fin, bytes(f.data).decode()) for f in parsed] == [
        (Opcode.TEXT, True, text) for text in texts]


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536])
def test_text_frames_at_each_length_boundary(size: int) -> None:
    payload = b"x" * size
    assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False,
                                                                        extensions=[])


async def test_a_path_that_is_not_a_table_is_not_found(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        with pytest.raises(InvalidStatus) as caught:
            await connect(f"{hall.ws_base}/ws/elsewhere")
        assert caught.value.response.status_code == 404


async def test_fragmented_and_binary_messages_and_bad_utf8(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        r = await host.post("/api/tables", {"ruleset": "jiaxing", "hands": 1, "timing": INSTANT})
        table_id = r.json()["table"]["id"]
        await host.open(table_id)
        assert host.ws is not None
        await host.ws.send(iter(['{"type": "ping", ', '"id": "frag"}']))  # two frames
        await hall.quiet([host])
        assert any(m.get("type") == "pong" and m.get("id") == "frag" for m in host.log)
        await host.send(b"\x00binary")
        await hall.quiet([host])
        assert host.last("refused")["code"] == "malformed"
        # a text frame that is not UTF-8 closes the connection with 1007
        await host.ws.send(b"\xff\xfe", text=True)
        assert host.reader is not None
        await asyncio.wait_for(host.reader, 5)  # the reader ends with the connection
        assert host.ws.close_code == 1007
        await host.close()


async def test_the_table_closes_with_its_reason_and_the_last_messages_arrive(
        tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        host = await Client(hall).guest()
        r = await host.post("/api/tables", {"ruleset": "jiaxing", "hands": 1, "timing": INSTANT})
        table_id = r.json()["table"]["id"]
        await host.open(table_id, hello=False)
        await host.send({"type": "ping", "id": "too early"})  # not hello: a fatal mistake
        assert host.reader is not None
        await asyncio.wait_for(host.reader, 5)
        assert host.log[-1]["type"] == "error" and host.log[-1]["code"] == "protocol"
        assert host.ws is not None and host.ws.close_code == 4400
        await host.close()


class FakeWriter:
    """A socket whose client reads nothing: every frame stays unread."""

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.writes = 0  # writes to the socket
        self.closed: tuple[int, str] | None = None

    def write_text(self, text: str) -> None:
        self.frames.append(text)
        self.writes += 1

    def write_texts(self, texts: list[str]) -> None:
        self.frames.extend(texts)
        self.writes += 1

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def unread(self) -> int:
        return sum(len(f) for f in self.frames)


async def test_a_client_that_never_reads_is_dropped() -> None:
    writer = FakeWriter()
    conn = Connection(User(1, "slow"), writer, lambda: 0.0)
    conn.batch = True
    big = "x" * 5000
    while writer.closed is None:
        for _ in range(10):
            conn.send_text(json.dumps({"type": "chat", "text": big}))
        await asyncio.sleep(0)  # the connection writes once per turn of the loop
        assert len(writer.frames) < 1000
    assert writer.closed == (1008, "too slow")
    assert writer.unread() > MAX_UNREAD
    frames = len(writer.frames)
    conn.send_text("{}")
    await asyncio.sleep(0)
    assert len(writer.frames) == frames  # nothing more is written


async def test_bad_messages_close_the_connection_only_when_they_come_close_together() -> None:
    now = [0.0]
    spread = Connection(User(1, "slow"), FakeWriter(), lambda: now[0])
    for _ in range(3 * MAX_STRIKES):  # 3 x MAX_STRIKES in all, but spread out
        assert not spread.strike()
        now[0] += STRIKE_WINDOW / (MAX_STRIKES - 2)  # never MAX_STRIKES in one window
    burst = Connection(User(2, "rogue"), FakeWriter(), lambda: now[0])
    assert [burst.strike() for _ in range(MAX_STRIKES)] == [False] * (MAX_STRIKES - 1) + [True]
    writer = FakeWriter()
    refused = Connection(User(3, "r"), writer, lambda: now[0])
    for _ in range(MAX_STRIKES):
        refused.refuse("stale", "that prompt is no longer current", 7, "a1")
    refused.refuse("not_allowed", "no", 7, strike=False)
    await asyncio.sleep(0)
    messages = [json.loads(f) for f in writer.frames]
    assert [m["type"] for m in messages] == ["refused"] * MAX_STRIKES + ["error"]
    assert messages[-1]["code"] == "misbehaving" and writer.closed == (4400, "misbehaving")


async def test_messages_of_one_turn_go_in_one_frame_when_batched() -> None:
    writer = FakeWriter()
    conn = Connection(User(1, "a"), writer, lambda: 0.0)
    conn.send_text('{"n":1}')
    conn.send_text('{"n":2}')
    await asyncio.sleep(0)
    assert writer.frames == ['{"n":1}', '{"n":2}']
    assert writer.writes == 1  # unbatched: a frame each, in one write to the socket
    conn.batch = True
    conn.send_text('{"n":3}')
    conn.send_text('{"n":4}')
    conn.close(4000, "bye")
    await asyncio.sleep(0)
    assert writer.frames[2:] == ['[{"n":3},{"n":4}]']
    assert writer.closed == (4000, "bye")


async def test_the_database_process_commits_batches_and_survives_its_worker(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    store = Store(db)
    store.migrate()
    seats = [store.accounts.create_guest().id for _ in range(4)]
    table = store.tables.create("jiaxing", 1, options={}, config={"stakes": "points"})
    match_id = store.tables.start_match(table.id, seats, {"hand_number": 0}).id
    hand_id = store.hands.start(match_id, 0, ruleset="jiaxing", seed=bytes(range(32)),
                                setup={"dealer": 0}, seats=seats).id

    def stored() -> list[int]:
        (hand,) = [h for h in store.hands.in_progress() if h.hand_id == hand_id]
        return [index for index, _ in hand.actions]

    log = DatabaseProcess(str(db))
    await log.start()
    try:
        await asyncio.gather(*(log.append(hand_id, [(i, json.dumps({"type": "pass",
                                                                            "seat": i % 4}))])
                               for i in range(50)))
        assert log.batches == 1 and log.rows == 50  # one turn of the loop: one batch
        await log.append(hand_id, [(50, '{"type":"pass","seat":2}')])
        assert stored() == list(range(51))
        assert log.pid is not None
        os.kill(log.pid, signal.SIGSTOP)  # the worker takes the next batch and dies with it
        pending = asyncio.ensure_future(log.append(hand_id, [(51, '{"type":"pass","seat":3}')]))
        for _ in range(3):
            await asyncio.sleep(0)  # the batch is written to the worker's socket
        os.kill(log.pid, signal.SIGKILL)
        with pytest.raises(DatabaseProcessError):
            await asyncio.wait_for(pending, 10)
        await log.append(hand_id, [(51, '{"type":"pass","seat":3}')])  # a new worker
        assert stored() == list(range(52))
        # a hand's deal runs in the worker too: its result, or its error, comes back
        again = await log.call("hands.start", match_id, 0, ruleset="jiaxing",
                               seed=bytes(range(32)), setup={"dealer": 0}, seats=seats)
        assert again.id == hand_id  # the same deal asked twice is the stored hand
        with pytest.raises(HandStateError, match="another seed"):
            await log.call("hands.start", match_id, 0, ruleset="jiaxing", seed=b"x" * 32,
                           setup={"dealer": 0}, seats=seats)
        with pytest.raises(ValueError, match="not a call"):
            await log.call("accounts.create_guest")
    finally:
        await log.close()
        store.close()


@pytest.mark.parametrize("flags", [["--client-rate", "0"], ["--client-burst", "0.5"],
                                   ["--client-rate", "20000"], ["--port", "0"],
                                   ["--starting-balance", str(10**12 + 1)]])
def test_serve_refuses_limits_out_of_range(flags: list[str], capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    from baida.cli import main

    assert main(["serve", *flags]) == 2
    assert "baida serve:" in capsys.readouterr().err


def test_serve_passes_the_connection_limits_to_the_hall() -> None:
    import argparse

    from baida.server.serve_cli import add_arguments, settings_from

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    settings = settings_from(parser.parse_args(["--client-rate", "50", "--client-burst", "80"]))
    assert (settings.client_rate, settings.client_burst) == (50.0, 80.0)
    default = settings_from(parser.parse_args([]))
    assert (default.client_rate, default.client_burst) == (8.0, 24.0)
