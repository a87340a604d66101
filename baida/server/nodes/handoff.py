"""Handing an accepted connection to another hall node on the same machine.

The nodes of one hall share its listening socket, so the kernel gives a table's WebSocket to
whichever node accepts it first. A node that does not own the table passes the connection,
before answering its handshake, to the node that does: the socket's descriptor and the bytes
already read travel in one datagram over a UNIX socket (``SCM_RIGHTS``). The owner serves
the connection as if it had accepted it; no frame is ever relayed between nodes.

Each node listens on ``<folder>/<node>.sock``; the folder is the hall's own (mode 0700).
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

MAX_REQUEST = 64 * 1024  # the bytes read before the handshake: a request line and headers
MAX_PATH = 107  # a UNIX socket's path (108 bytes with its terminating zero, on Linux)


def socket_path(folder: Path, node: str) -> Path:
    return folder / f"{node}.sock"


SENT, BUSY, FAILED = "sent", "busy", "failed"


def hand_off(folder: Path, node: str, sock: socket.socket | int, data: bytes) -> str:
    """Send the connection ``sock`` (a socket or its descriptor) and the bytes read from it to
    ``node``: ``SENT``; ``BUSY`` if that node's queue is full (a few datagrams: try again
    soon); ``FAILED`` if it is not listening. Unless sent, the caller keeps the connection;
    either way it closes its own descriptor when done: a sent connection lives on in the
    receiver's."""
    if len(data) > MAX_REQUEST:
        return FAILED
    fd = sock if isinstance(sock, int) else sock.fileno()
    channel = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        channel.setblocking(False)
        # (socket.send_fds would drop the address)
        channel.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))],
                       0, str(socket_path(folder, node)))
        return SENT
    except BlockingIOError:
        return BUSY
    except OSError as exc:  # no such node, or not listening
        log.warning("could not hand a connection to %s: %s", node, exc)
        return FAILED
    finally:
        channel.close()


class HandoffListener:
    """Receives connections handed to this node and gives each to ``adopt`` (a connected,
    non-blocking socket and the bytes already read from it), on the event loop."""

    def __init__(self, folder: Path, node: str,
                 adopt: Callable[[socket.socket, bytes], None]) -> None:
        self.path = socket_path(folder, node)
        self.adopt = adopt
        self.received = 0
        self._sock: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        if len(os.fsencode(self.path)) > MAX_PATH:
            raise ValueError(f"the nodes' socket {self.path} is too long for a UNIX socket "
                             f"({MAX_PATH} bytes at most): use a shorter --data folder")
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # a stale socket of an earlier run
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(str(self.path))
        sock.setblocking(False)
        self._sock = sock
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(sock.fileno(), self._readable)

    def close(self) -> None:
        sock, self._sock = self._sock, None
        if sock is None:
            return
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(sock.fileno())
        sock.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def _readable(self) -> None:
        sock = self._sock
        while sock is not None:
            try:
                data, fds, flags, _ = socket.recv_fds(sock, MAX_REQUEST, 4)
            except BlockingIOError:
                return
            except OSError as exc:
                log.warning("handoff socket: %s", exc)
                return
            if len(fds) != 1 or flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC):
                for fd in fds:
                    os.close(fd)
                log.warning("handoff: a malformed message (%d descriptors) dropped", len(fds))
                continue
            self.received += 1
            try:
                conn = socket.socket(fileno=fds[0])
                conn.setblocking(False)
            except OSError as exc:
                os.close(fds[0])
                log.warning("handoff: not a socket: %s", exc)
                continue
            try:
                self.adopt(conn, data)
            except Exception:
                log.exception("handoff: adopting a connection failed")
                conn.close()
