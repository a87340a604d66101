"""The database process's worker (see ``db_process``): reads requests from its socket; commits
every batch of actions already waiting in one transaction and acknowledges them, then runs
one call, and so on.

    python -m baida.server.db_process_worker --fd N --database URL [--sqlite-synchronous L]
"""

from __future__ import annotations

import argparse
import pickle
import signal
import socket
import sys
from collections import deque
from typing import Any

from .db_process import HEADER, frame, resolve


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


def serve(sock: socket.socket, database: str, sqlite_synchronous: str) -> None:
    from .store import Store

    store = Store(database, sqlite_synchronous=sqlite_synchronous)
    frames = _Frames(sock)
    calls: deque[tuple[int, str, tuple[Any, ...], dict[str, Any]]] = deque()
    stopping = False
    try:
        while True:
            ids: list[int] = []
            rows: list[tuple[int, int, str]] = []
            for raw in frames.take(wait=not calls and not stopping):
                if not raw:
                    stopping = True
                    continue
                request = pickle.loads(raw)
                if request[0] == "append":
                    ids.append(request[1])
                    rows.extend(request[2])
                else:
                    calls.append(request[1:])
            if ids:  # actions first: every waiting table's, in one transaction
                error: str | None = None
                try:
                    store.hands.append_rows(rows)
                except Exception as exc:  # the hall tells every waiting table
                    error = f"{type(exc).__name__}: {exc}"[:500]
                sock.sendall(frame(("acks", ids, error)))
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
        store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m baida.server.db_process_worker")
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
