"""One hall as several nodes (``baida serve --nodes``): handing a connection to the node that
owns its table, which node owns a stored table, and a real two-node hall where people play
whole matches at tables of both nodes, enter a private table by its room code and find
every table again after a restart. The real hall needs Redis (``BAIDA_TEST_REDIS_URL``,
default ``redis://127.0.0.1:6379/15``); those tests are skipped when none answers."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from uuid import uuid4

import pytest
from hall_harness import Client
from test_server_kill import FAST, free_port, player, start, until
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from baida.server.directory.in_redis import DirectoryUnavailable, RedisDirectory
from baida.server.nodes.handoff import BUSY, FAILED, SENT, HandoffListener, hand_off
from baida.server.nodes.role import NodeRole
from baida.server.store import Store
from baida.server.web.ws_protocol import requested_table

pytestmark = pytest.mark.anyio
REDIS = os.environ.get("BAIDA_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


# ---------------------------------------------------------------- pieces


def test_the_table_of_a_socket_request() -> None:
    def request(path: bytes) -> bytes:
        return b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n"

    assert requested_table(request(b"/ws/tables/42")) == 42
    assert requested_table(request(b"/ws/tables/42?x=1")) == 42
    for path in (b"/ws/tables/", b"/ws/tables/4x", b"/ws/tables/-1", b"/api/tables/4",
                 b"/ws/tables/" + b"9" * 12):
        assert requested_table(request(path)) == -1, path
    assert requested_table(request("/ws/tables/1²".encode("latin-1"))) == -1
    assert requested_table(b"garbage") == -1
    assert requested_table(b"") == -1


def test_a_stored_table_belongs_to_one_node() -> None:
    roles = [NodeRole(i, 3, Path("."), "redis://", "p") for i in range(3)]
    for table_id, config in [(7, {}), (8, {"player_made": False}), (9, {"node": 2}),
                             (10, {"node": 5}), (11, {"node": "x"})]:
        owners = [r.index for r in roles if r.owns(table_id, config)]
        assert len(owners) == 1, (table_id, config)
    assert roles[1].owns(7, {})  # a standing table: by its id
    assert roles[2].owns(9, {"node": 2}) and roles[2].owns(10, {"node": 5})  # its maker's
    assert roles[2].owns(11, {"node": "x"})  # not a node: by its id


async def test_a_connection_is_handed_over_with_what_was_read(tmp_path: Path) -> None:
    """A real TCP connection goes to the listener of another "node" with the bytes read; it
    then talks to the same client, and the sender's descriptor closing does not end it."""
    adopted: list[tuple[socket.socket, bytes]] = []
    got = asyncio.Event()

    def adopt(conn: socket.socket, data: bytes) -> None:
        adopted.append((conn, data))
        got.set()

    listener = HandoffListener(tmp_path, "node-1", adopt)
    listener.start()
    server = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(server.getsockname())
    try:
        accepted, _ = server.accept()
        client.sendall(b"GET /ws/tables/3 HTTP/1.1\r\n\r\n")
        first = accepted.recv(1024)
        assert hand_off(tmp_path, "node-1", accepted, first) == SENT
        accepted.close()  # ours: the connection lives on in the listener's copy
        await asyncio.wait_for(got.wait(), 5)
        conn, data = adopted[0]
        assert data == first and listener.received == 1
        conn.setblocking(True)
        conn.sendall(b"hello from the owner")
        assert client.recv(1024) == b"hello from the owner"
        client.sendall(b"and back")
        assert conn.recv(1024) == b"and back"
        conn.close()
    finally:
        listener.close()
        client.close()
        server.close()
    assert not (tmp_path / "node-1.sock").exists()


async def test_a_handoff_to_nobody_keeps_the_connection(tmp_path: Path) -> None:
    a, b = socket.socketpair()
    try:
        assert hand_off(tmp_path, "node-9", a, b"GET / HTTP/1.1\r\n\r\n") == FAILED
        assert hand_off(tmp_path, "node-9", a, b"x" * (64 * 1024 + 1)) == FAILED  # too much
        a.sendall(b"still mine")
        assert b.recv(64) == b"still mine"
    finally:
        a.close()
        b.close()


def test_a_full_queue_is_busy_not_failed(tmp_path: Path) -> None:
    """A node that does not read fast enough: its queue fills (a few datagrams), and a
    handoff says BUSY (the caller tries again) until it reads."""
    owner = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    owner.bind(str(tmp_path / "node-1.sock"))
    a, b = socket.socketpair()
    try:
        results = [hand_off(tmp_path, "node-1", a, b"GET /ws/tables/1 HTTP/1.1\r\n\r\n")
                   for _ in range(1000)]
        assert results[0] == SENT and BUSY in results and FAILED not in results
        sent = results.count(SENT)
        for _ in range(sent):
            _, fds, _, _ = socket.recv_fds(owner, 1024, 1)
            for fd in fds:
                os.close(fd)
        assert hand_off(tmp_path, "node-1", a, b"again") == SENT
    finally:
        for s in (owner, a, b):
            s.close()


def test_a_socket_path_too_long_is_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / ("x" * 120)
    with pytest.raises(ValueError, match="too long.*shorter --data"):
        HandoffListener(folder, "node-0", lambda conn, data: None).start()


def test_serve_refuses_bad_node_settings(tmp_path: Path) -> None:
    def serve(*flags: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "baida.cli", "serve", "--data", str(tmp_path),
             "--port", str(free_port()), "--no-warm-up", "--log-format", "text", *flags],
            capture_output=True, text=True, timeout=60)

    for bad in ("0", "65"):
        out = serve("--nodes", bad)
        assert out.returncode == 2 and "--nodes must be 1-64" in out.stderr
    out = serve("--nodes", "2", "--redis", "redis://127.0.0.1:1/0")
    assert out.returncode == 1
    assert "--nodes needs Redis" in out.stderr and "127.0.0.1:1" in out.stderr
    assert "Traceback" not in out.stderr


async def test_a_message_without_a_socket_is_dropped(tmp_path: Path) -> None:
    adopted: list[bytes] = []
    listener = HandoffListener(tmp_path, "node-0", lambda conn, data: adopted.append(data))
    listener.start()
    try:
        sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sender.sendto(b"no descriptor", str(tmp_path / "node-0.sock"))
        a, b = socket.socketpair()
        assert hand_off(tmp_path, "node-0", a, b"after it") == SENT
        await until("the good message", lambda: bool(adopted), 5.0)
        assert adopted == [b"after it"] and listener.received == 1
        for s in (sender, a, b):
            s.close()
    finally:
        listener.close()


# ---------------------------------------------------------------- a real hall of two nodes


@pytest.fixture(scope="module")
def redis_url() -> str:
    try:
        RedisDirectory(REDIS, "probe", f"baida-test-{uuid4().hex}").close()
    except DirectoryUnavailable as e:
        pytest.skip(f"no Redis for a hall of nodes: {e}")
    return REDIS


def start_nodes(data: Path, port: int, redis: str, prefix: str) -> subprocess.Popen[bytes]:
    """``baida serve --nodes 2``; returns once the supervisor prints the URL (30 s at most).
    One account opens ~100 sockets at once here (the handoff under load): the per-account and
    per-address caps are raised to let it."""
    return start(data, port, "--nodes", "2", "--redis", redis, "--redis-prefix", prefix,
                 "--max-sockets-per-account", "1000", "--max-sockets-per-address", "1000",
                 "--max-connections-per-address", "1000",
                 "--guests-per-hour", "0", "--signins-per-address", "0")


def stop(proc: subprocess.Popen[bytes]) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            return proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            proc.kill()
    return proc.wait(timeout=5)


def node_processes(proc: subprocess.Popen[bytes]) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == proc.pid:
                out.append(int(entry))
    return out


async def play_one_hand(hall: Any, host: Client, table_id: int) -> dict[str, Any]:
    """``host`` sits at seat 0 with three bots and plays a one-hand match to its end."""
    host.on_message = player
    await host.open(table_id)
    await until("the welcome", lambda: bool(host.of_type("welcome")))
    await host.send({"type": "sit", "seat": 0})
    await until("the seat", lambda: any(
        m["type"] == "table" and m["table"]["seats"][0]["kind"] == "person" for m in host.log))
    await host.send({"type": "add_bots"})
    await host.send({"type": "ready"})
    await until("the end of the hand", lambda: bool(host.of_type("hand_result")), 60.0)
    return host.of_type("hand_result")[0]


async def test_a_hall_of_two_nodes(tmp_path: Path, redis_url: str) -> None:
    data = tmp_path / "hall"
    data.mkdir()
    port = free_port()
    prefix = f"baida-test-{uuid4().hex}"
    hall = SimpleNamespace(base=f"http://127.0.0.1:{port}", ws_base=f"ws://127.0.0.1:{port}")
    proc = start_nodes(data, port, redis_url, prefix)
    directory = RedisDirectory(redis_url, "test", prefix)
    clients: list[Client] = []
    try:
        assert len(node_processes(proc)) == 2

        # the lobby lists every node's standing tables, whichever node answers
        for _ in range(4):
            c = Client(hall)  # type: ignore[arg-type]
            clients.append(c)
            lobby = (await c.http.get("/api/tables")).json()["tables"]
            assert len(lobby) == 24
        owners = {directory.owner(t["id"]) for t in lobby}
        assert owners == {"node-0", "node-1"}
        assert len({t["number"] for t in lobby if t["ruleset"] == "jiaxing"}) == 16
        # /metrics, whichever node answers, has both nodes' samples, labelled
        text = (await c.http.get("/metrics")).text
        assert 'baida_tables{node="node-0",status="waiting"} 12.0' in text
        assert 'baida_tables{node="node-1",status="waiting"} 12.0' in text
        assert (await c.http.get("/healthz")).json()["node"] in ("node-0", "node-1")

        # many sockets at once (more than a node's handoff queue holds): each reaches its
        # table's node, none is refused
        watcher = await Client(hall).guest()  # type: ignore[arg-type]
        clients.append(watcher)
        cookie = "; ".join(f"{k}={v}" for k, v in watcher.http.cookies.items())

        async def watch(table_id: int) -> str:
            # a table whose lease a node has not read yet (under a second after the start)
            # answers "moving" and closes with 1013, which the page retries a moment later:
            # so does this client (the close may come before its hello is sent)
            for _ in range(20):
                try:
                    async with connect(f"{hall.ws_base}/ws/tables/{table_id}",
                                       additional_headers={"Cookie": cookie}) as ws:
                        await ws.send(json.dumps({"type": "hello", "protocol": 1}))
                        first = json.loads(await asyncio.wait_for(ws.recv(), 15))
                except ConnectionClosed as closed:
                    if closed.rcvd is None or closed.rcvd.code != 1013:
                        raise
                    first = {"type": "error", "code": "moving"}
                if first["type"] != "error" or first.get("code") != "moving":
                    return first["type"]
                await asyncio.sleep(0.25)
            return "still moving"

        firsts = await asyncio.gather(*(watch(1 + i % 24) for i in range(96)))
        assert firsts == ["welcome"] * 96

        # people make tables (each on the node their connection reached) and play them out;
        # every table's socket reaches its owner, whichever node accepted it
        hosts = [await Client(hall).guest() for _ in range(6)]  # type: ignore[arg-type]
        clients += hosts
        made = []
        for h in hosts:
            r = await h.post("/api/tables", {"ruleset": "jiaxing", "hands": 1, "timing": FAST,
                                             "stakes": "silver", "base": 1, "fee": 2,
                                             "bot": "greedy"})
            assert r.status_code == 201, r.text
            made.append(r.json()["table"])
        numbers = [t["number"] for t in made]
        assert len(set(numbers)) == 6 and min(numbers) > 16  # after the standing tables
        results = await asyncio.gather(*(play_one_hand(hall, h, t["id"])
                                         for h, t in zip(hosts, made, strict=True)))
        for h, result in zip(hosts, results, strict=True):
            assert result["match_over"]
            assert result["silver"][0]["balance"] is not None
            assert not [m for m in h.log if m["type"] == "error"], h.log
        for t in made:
            assert (await hosts[0].http.get(f"/api/tables/{t['id']}")).json()["table"][
                "id"] == t["id"]

        # a private table: its room code works from any node, its socket is its owner's
        host = await Client(hall).guest()  # type: ignore[arg-type]
        clients.append(host)
        r = await host.post("/api/tables", {"ruleset": "wenling", "private": True,
                                            "stakes": "points", "hands": 1})
        private = r.json()["table"]
        assert (await host.http.get(f"/api/tables/{private['id']}")).status_code == 404
        friends = []
        for _ in range(3):
            friend = await Client(hall).guest()  # type: ignore[arg-type]
            clients.append(friend)
            friends.append(friend)
            r = await friend.post("/api/rooms", {"code": private["room_code"].lower()})
            assert r.status_code == 200 and r.json()["table"]["id"] == private["id"], r.text
            await friend.open(private["id"])
            await until("the welcome", lambda f=friend: bool(f.of_type("welcome")))
        stranger = await Client(hall).guest()  # type: ignore[arg-type]
        clients.append(stranger)
        assert (await stranger.post("/api/rooms", {"code": "ZZZZZZ"})).status_code == 404
        await stranger.open(private["id"])
        await until("the refusal", lambda: bool(stranger.of_type("error")))
        assert stranger.of_type("error")[0]["code"] == "no_table"
        before = {t["id"]: directory.owner(t["id"]) for t in [*made, private]}
    finally:
        for c in clients:
            await c.close()
        assert stop(proc) == 0

    # a restart: the same tables, each owned again by one of the nodes (normally node
    # id mod 2: node-0 leaves node-1's tables while node-1 starts and for a few renewals
    # after; a node-1 slower than that on a loaded machine leaves some to node-0)
    proc = start_nodes(data, port, redis_url, prefix)
    try:
        c = Client(hall)  # type: ignore[arg-type]
        clients = [c]
        assert len((await c.http.get("/api/tables")).json()["tables"]) == 24 + 6
        owners = [directory.owner(t) for t in before]
        assert all(o in ("node-0", "node-1") for o in owners), owners
    finally:
        for c in clients:
            await c.close()
        assert stop(proc) == 0
        directory.clear()
        directory.close()
    with Store(str(data / "hall.db")) as store:
        assert store.ledger.check().ok
        assert store.hands.in_progress() == []
