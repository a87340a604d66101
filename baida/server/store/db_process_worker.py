"""The database process's worker (see ``db_process``): reads requests from its socket; commits
every batch of actions already waiting in one transaction and acknowledges them, then runs
one call, and so on.

    python -m baida.server.store.db_process_worker --fd N --database URL [--sqlite-synchronous L]
"""

from __future__ import annotations

import argparse
import logging
import pickle
import signal
import socket
import sys
import threading
from collections import deque
from typing import Any

from .db_process import HEADER, frame, resolve

log = logging.getLogger(__name__)


class _Frames:
    """Length-prefixed frames off a blocking socket: ``take`` returns every frame already
    received, waiting for one only if ``wait`` and there is none."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()
        self.eof = False

    def _complete(self) -> list[bytes]:
        out: list[bytes] = []
        buffer = self.buffer
        start = 0
        while len(buffer) - start >= HEADER.size:
            (size,) = HEADER.unpack_from(buffer, start)
            end = start + HEADER.size + size
            if len(buffer) < end:
                break
            out.append(bytes(buffer[start + HEADER.size : end]))
            start = end
        del buffer[:start]
        return out

    def take(self, wait: bool) -> list[bytes]:
        while True:
            try:  # whatever has arrived, without waiting
                while not self.eof:
                    data = self.sock.recv(1 << 20, socket.MSG_DONTWAIT)
                    if not data:
                        self.eof = True
                    self.buffer += data
            except BlockingIOError:
                pass
            frames = self._complete()
            if frames or self.eof or not wait:
                return frames
            data = self.sock.recv(1 << 20)  # nothing complete yet: wait
            if not data:
                self.eof = True
            self.buffer += data


def _pickled_error(exc: BaseException) -> Any:
    """The exception itself if it survives pickling (the hall re-raises it), else its text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return f"{type(exc).__name__}: {exc}"[:500]


class Checkpointer(threading.Thread):
    """Copies SQLite's write-ahead log back into the database every ``every`` seconds, in a
    thread of its own (a passive checkpoint never blocks the writer), so that no commit of
    the tables' actions waits for one. The worker's own connections never checkpoint."""

    def __init__(self, path: str, every: float = 1.0) -> None:
        super().__init__(name="baida-checkpoint", daemon=True)
        self.path = path
        self.every = every
        self.stopping = threading.Event()
        self.checkpoints = 0

    def run(self) -> None:
        import sqlite3

        connection = sqlite3.connect(self.path, timeout=1.0, isolation_level=None)
        try:
            while not self.stopping.wait(self.every):
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
                except sqlite3.Error as exc:  # busy or locked: the next round tries again
                    log.warning("checkpoint failed: %s", exc)
            connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            connection.close()


def serve(sock: socket.socket, database: str, sqlite_synchronous: str) -> None:
    from .database import database_url
    from .store import Store

    url = database_url(database)
    sqlite = url.startswith("sqlite")
    store = Store(database, sqlite_synchronous=sqlite_synchronous,
                  sqlite_autocheckpoint=0 if sqlite else None)
    checkpointer = Checkpointer(url.removeprefix("sqlite:///")) if sqlite else None
    if checkpointer is not None:
        checkpointer.start()
    frames = _Frames(sock)
    calls: deque[tuple[int, str, tuple[Any, ...], dict[str, Any]]] = deque()
    stopping = False
    try:
        while True:
            ids: list[int] = []
            rows: list[tuple[int, int, str]] = []
            fences: dict[int, Any] = {}
            for raw in frames.take(wait=not calls and not stopping):
                if not raw:
                    stopping = True
                    continue
                request = pickle.loads(raw)
                if request[0] == "append":
                    ids.append(request[1])
                    rows.extend(request[2])
                    fences.update(request[3])
                else:
                    calls.append(request[1:])
            if ids:  # actions first: every waiting table's, in one transaction
                error: str | None = None
                stale: set[int] = set()
                try:
                    stale = store.hands.append_rows(rows, fences)
                except Exception as exc:  # the hall tells every waiting table
                    error = f"{type(exc).__name__}: {exc}"[:500]
                sock.sendall(frame(("acks", ids, error, stale)))
            elif calls:
                ident, op, args, kwargs = calls.popleft()
                try:
                    answer = ("result", ident, True, resolve(store, op)(*args, **kwargs))
                except Exception as exc:
                    answer = ("result", ident, False, _pickled_error(exc))
                sock.sendall(frame(answer))
            elif stopping or frames.eof:
                return
    finally:
        if checkpointer is not None:
            checkpointer.stopping.set()
            checkpointer.join(timeout=10)
        store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m baida.server.store.db_process_worker")
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--sqlite-synchronous", default="FULL")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the hall stops it (Ctrl-C reaches both)
    sock = socket.socket(fileno=args.fd)
    serve(sock, args.database, args.sqlite_synchronous)
    return 0


if __name__ == "__main__":
    sys.exit(main())
