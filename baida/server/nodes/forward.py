"""Forwarding a table's connection to its owner on another machine.

A node of a hall on several machines that accepts a table's WebSocket it does not own (the
proxy in front may send anyone anywhere) opens a TCP connection to the owner's address,
passes it the request bytes already read, and from then on copies bytes both ways without
reading them: the owner answers the handshake and plays the table. Nodes of one machine
pass the connection itself instead (``handoff``).
"""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger(__name__)

CONNECT_SECONDS = 2.0


class _Owner(asyncio.Protocol):
    """The owner's end: what it sends goes to the client as it comes."""

    def __init__(self, client: asyncio.Transport) -> None:
        self.client = client

    def data_received(self, data: bytes) -> None:
        if not self.client.is_closing():
            self.client.write(data)

    def eof_received(self) -> bool | None:
        self.client.close()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.client.is_closing():
            self.client.close()


def split_address(address: str) -> tuple[str, int]:
    """``host:port`` (``[v6]:port`` too) as (host, port); ValueError if it is not one."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not a host:port address: {address!r}")
    return host.strip("[]"), int(port)


# marks a connection one node forwarded to another: that one answers it itself, never forwards
# it again (a node whose view of the owner was stale would otherwise chain the connection
# through itself, and a restart of that node, drained already, would drop it)
FORWARDED_HEADER = "x-baida-forwarded"


def forwarded_request(request: bytes, client: str) -> bytes:
    """``request`` with one ``X-Forwarded-For`` naming ``client`` (the address this node
    believes), in place of any the client sent: the owner counts the connection against the
    client's address, not the forwarding node's; and marked as forwarded
    (``FORWARDED_HEADER``). Unchanged if its head is not all there."""
    head, sep, rest = request.partition(b"\r\n\r\n")
    if not sep:
        return request
    dropped = (b"x-forwarded-for:", FORWARDED_HEADER.encode() + b":")
    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(dropped)]
    lines.append(b"X-Forwarded-For: " + client.encode("ascii", "replace"))
    lines.append(FORWARDED_HEADER.encode() + b": 1")
    return b"\r\n".join(lines) + sep + rest


async def connect_owner(client: asyncio.Transport, address: str,
                        request: bytes) -> asyncio.Transport | None:
    """Open the owner's end at ``address`` and send it ``request``; None if it cannot be
    reached within ``CONNECT_SECONDS``."""
    loop = asyncio.get_running_loop()
    try:
        host, port = split_address(address)
        transport, _ = await asyncio.wait_for(
            loop.create_connection(lambda: _Owner(client), host, port), CONNECT_SECONDS)
    except (OSError, ValueError, TimeoutError) as exc:
        log.warning("could not forward a connection to %s: %s", address, exc)
        return None
    transport.write(request)
    return transport
