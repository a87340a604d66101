"""One hall as several processes on one machine: ``baida serve --nodes N``.

The supervisor (the process ``baida serve`` started) binds the hall's port, migrates the
database, clears the hall's keys in Redis and starts N node processes that share the
listening socket. Each node is a whole hall process (event loop, database process, bot
workers) that owns some of the tables: the standing tables by id, a player's table where it
was created. The directory (``RedisDirectory``) tells every node who owns what, the lobby, the
room codes and who is online; a table's WebSocket reaching another node is handed to its
owner (``handoff``); the operator's requests for a table go to its owner as messages.

The supervisor prints the hall's URL once every node is ready, stops them all on Ctrl-C or
SIGTERM, and stops the others (exiting with an error) if one dies.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ..directory.in_redis import DirectoryUnavailable, RedisDirectory
from ..store import Store
from .role import handoff_folder

STOP_SECONDS = 30.0


def _node_argv(argv: list[str], index: int, count: int, listen_fd: int, ready_fd: int) -> list[str]:
    return [sys.executable, "-m", "baida.cli", "serve", *argv,
            "--node-index", str(index), "--node-count", str(count),
            "--listen-fd", str(listen_fd), "--ready-fd", str(ready_fd)]


def _wait_ready(reader: int, procs: list[subprocess.Popen[bytes]], count: int) -> bool:
    """Read a line per node from the pipe they all hold; False if a node died first."""
    seen = 0
    buffer = b""
    os.set_blocking(reader, False)
    while seen < count:
        if any(p.poll() is not None for p in procs):
            return False
        try:
            chunk = os.read(reader, 4096)
        except BlockingIOError:
            time.sleep(0.05)
            continue
        if not chunk:
            return False
        buffer += chunk
        seen = buffer.count(b"\n")
    return True


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
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


def supervise(args: argparse.Namespace, node_args: list[str], *, data_dir: Path,
              database_url: str, sqlite_synchronous: str) -> int:
    """Run ``args.nodes`` node processes of one hall until stopped (``node_args``: the flags
    each is started with; ``data_dir`` and the database: the hall's); the exit status."""
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        listener = socket.create_server((args.host, args.port), backlog=4096)
    except OSError as exc:
        print(f"baida serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
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
    store.close()

    listener.set_inheritable(True)
    reader, writer = os.pipe()
    os.set_inheritable(writer, True)
    procs: list[subprocess.Popen[bytes]] = []
    stopping = False

    def stop_all(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop_all)
    signal.signal(signal.SIGINT, stop_all)
    try:
        # node 0 first: on a new database it makes the standing tables the others then share
        for index in range(args.nodes):
            procs.append(subprocess.Popen(
                _node_argv(node_args, index, args.nodes, listener.fileno(), writer),
                pass_fds=(listener.fileno(), writer)))
            if index == 0 and not _wait_ready(reader, procs, 1):
                print("baida serve: node 0 did not start", file=sys.stderr)
                return 1
        if not _wait_ready(reader, procs, args.nodes - 1):
            print("baida serve: a node did not start", file=sys.stderr)
            return 1
        os.close(writer)
        writer = -1
        print(f"baida hall: http://{args.host}:{args.port}/ ({args.nodes} nodes)", flush=True)
        while not stopping:
            dead = [p for p in procs if p.poll() is not None]
            if dead:
                print(f"baida serve: node process {dead[0].pid} exited "
                      f"({dead[0].returncode}); stopping the hall", file=sys.stderr)
                return 1
            time.sleep(0.2)
        return 0
    finally:
        _stop(procs)
        listener.close()
        os.close(reader)
        if writer >= 0:
            os.close(writer)
        with contextlib.suppress(OSError):
            for path in handoff_folder(data_dir, args.port).glob("*.sock"):
                path.unlink()
