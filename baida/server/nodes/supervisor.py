"""One hall as several processes on one machine: ``baida serve --nodes N``.

The supervisor (the process ``baida serve`` started) binds the hall's port, migrates the
database, clears the hall's keys in Redis and starts N node processes that share the
listening socket. Each node is a whole hall process (event loop, database process, bot
workers) that owns some of the tables: the standing tables by id, a player's table where it
was created. The directory (``RedisDirectory``) tells every node who owns what, the lobby, the
room codes and who is online; a table's WebSocket reaching another node is handed to its
owner (``handoff``); the operator's requests for a table go to its owner as messages.

The supervisor prints the hall's URL once every node is ready and stops them all on Ctrl-C or
SIGTERM. A node that dies is started again alone (after a pause that grows while it keeps
dying young): the other nodes keep serving, and the new process claims the dead one's tables
and resumes their hands from the store. A node dies with its supervisor (``lifeline``), and
a new supervisor on the same port first waits for an earlier run's nodes to be gone.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..directory.in_redis import DirectoryUnavailable, RedisDirectory
from ..store import Store
from . import lifeline
from .role import handoff_folder, node_name

STOP_SECONDS = 30.0
BIND_SECONDS = STOP_SECONDS + 10.0  # how long a new supervisor waits for an earlier run's port
YOUNG_SECONDS = 60.0  # a node that dies younger than this is restarted after a longer pause
RESTART_PAUSES = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


def _node_argv(argv: list[str], index: int, count: int, listen_fd: int, ready_fd: int) -> list[str]:
    return [sys.executable, "-m", "baida.cli", "serve", *argv,
            "--node-index", str(index), "--node-count", str(count),
            "--listen-fd", str(listen_fd), "--ready-fd", str(ready_fd)]


class _Node:
    """One node's process, started again whenever it dies."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.proc: subprocess.Popen[bytes] | None = None
        self.reader = -1  # its readiness pipe (until it says "ready")
        self.started = 0.0
        self.ready = False
        self.young_deaths = 0
        self.restart_at: float | None = None

    def start(self, argv: list[str], count: int, listener: socket.socket) -> None:
        reader, writer = os.pipe()
        try:
            self.proc = subprocess.Popen(
                _node_argv(argv, self.index, count, listener.fileno(), writer),
                pass_fds=(listener.fileno(), writer),
                preexec_fn=lifeline.die_with_parent(os.getpid()))  # noqa: PLW1509
        finally:
            os.close(writer)
        self.reader = reader
        os.set_blocking(reader, False)
        self.started = time.monotonic()
        self.ready = False
        self.restart_at = None

    def poll_ready(self) -> bool:
        """Whether it said it is ready (now or before)."""
        if self.ready or self.reader < 0:
            return self.ready
        try:
            said = os.read(self.reader, 64)
        except BlockingIOError:
            return False
        if said:
            self.ready = True
        self._close_reader()
        return self.ready

    def _close_reader(self) -> None:
        if self.reader >= 0:
            os.close(self.reader)
            self.reader = -1

    def died(self) -> int | None:
        """Its exit status if it has died since started (then it waits for a restart)."""
        if self.proc is None or self.restart_at is not None:
            return None
        status = self.proc.poll()
        if status is None:
            return None
        self._close_reader()
        now = time.monotonic()
        self.young_deaths = self.young_deaths + 1 if now - self.started < YOUNG_SECONDS else 0
        pause = RESTART_PAUSES[min(self.young_deaths, len(RESTART_PAUSES) - 1)]
        self.restart_at = now + pause
        return status


def _listen(host: str, port: int) -> socket.socket:
    """The hall's listening socket; while an earlier run's nodes still hold the port (their
    supervisor died: they are exiting), try again for a while."""
    deadline = time.monotonic() + BIND_SECONDS
    said = False
    while True:
        try:
            return socket.create_server((host, port), backlog=4096)
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE or time.monotonic() >= deadline:
                raise
            if not said:
                print(f"baida serve: {host}:{port} is in use; waiting for it "
                      f"(an earlier hall's nodes exiting?)", file=sys.stderr, flush=True)
                said = True
            time.sleep(0.2)


def _wait_earlier_nodes(folder: Path) -> bool:
    """Wait until no node of an earlier run on this port is alive (they hold lock files)."""
    return all(lifeline.wait_free(path, STOP_SECONDS + 5.0)
               for path in lifeline.held_locks(folder))


def _stop(nodes: list[_Node]) -> None:
    procs = [n.proc for n in nodes if n.proc is not None]
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    for p in procs:
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    for n in nodes:
        n._close_reader()


def _start_all(nodes: list[_Node], argv: list[str], listener: socket.socket,
               stopping: Callable[[], bool], together: bool) -> str | None:
    """Start every node: all at once (``together``) or node 0 first (on a new database it
    makes the standing tables the others then share); None once all are ready, else what
    went wrong."""
    for group in ([nodes] if together else [nodes[:1], nodes[1:]]):
        for node in group:
            node.start(argv, len(nodes), listener)
        while not all(n.poll_ready() for n in group):
            if stopping():
                return "stopped"
            dead = [n for n in group if n.proc is not None and n.proc.poll() is not None]
            if dead:
                return f"node {dead[0].index} did not start"
            time.sleep(0.05)
    return None


def supervise(args: argparse.Namespace, node_args: list[str], *, data_dir: Path,
              database_url: str, sqlite_synchronous: str) -> int:
    """Run ``args.nodes`` node processes of one hall until stopped (``node_args``: the flags
    each is started with; ``data_dir`` and the database: the hall's); the exit status."""
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder = handoff_folder(data_dir, args.port)
    try:
        listener = _listen(args.host, args.port)
    except OSError as exc:
        print(f"baida serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    if not _wait_earlier_nodes(folder):
        print(f"baida serve: an earlier hall's nodes in {folder} do not exit", file=sys.stderr)
        listener.close()
        return 1
    try:
        directory = RedisDirectory(args.redis, "supervisor", prefix=args.redis_prefix)
    except DirectoryUnavailable as exc:
        print(f"baida serve: --nodes needs Redis: {exc}", file=sys.stderr)
        listener.close()
        return 1
    directory.clear()  # whatever an earlier run left: the nodes claim their tables afresh
    directory.close()
    store = Store(database_url, sqlite_synchronous=sqlite_synchronous)
    store.migrate()  # once, before the nodes open it
    made = bool(store.tables.list(status="open"))  # the standing tables are there
    store.close()

    listener.set_inheritable(True)
    nodes = [_Node(i) for i in range(args.nodes)]
    stopping = False

    def stop_all(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop_all)
    signal.signal(signal.SIGINT, stop_all)
    try:
        failed = _start_all(nodes, node_args, listener, lambda: stopping, together=made)
        if failed == "stopped":
            return 0
        if failed is not None:
            print(f"baida serve: {failed}", file=sys.stderr)
            return 1
        print(f"baida hall: http://{args.host}:{args.port}/ ({args.nodes} nodes)", flush=True)
        while not stopping:
            _tend(nodes, node_args, listener)
            time.sleep(0.1)
        return 0
    finally:
        _stop(nodes)
        listener.close()
        with contextlib.suppress(OSError):
            for path in folder.glob("*.sock"):
                path.unlink()


def _tend(nodes: list[_Node], argv: list[str], listener: socket.socket) -> None:
    """Restart the nodes that died (each alone, once its pause is over)."""
    now = time.monotonic()
    for node in nodes:
        pid = node.proc.pid if node.proc is not None else None
        status = node.died()
        if status is not None:
            assert node.restart_at is not None
            print(f"baida serve: {node_name(node.index)} (process {pid}) exited ({status}); "
                  f"starting it again in {node.restart_at - now:.1f} s",
                  file=sys.stderr, flush=True)
        elif node.restart_at is not None and now >= node.restart_at:
            node.start(argv, len(nodes), listener)
        elif node.reader >= 0 and node.poll_ready():
            print(f"baida serve: {node_name(node.index)} is back (process {pid})",
                  file=sys.stderr, flush=True)
