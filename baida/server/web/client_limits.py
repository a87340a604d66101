"""What one client may hold of the hall: connections per address, a deadline for each
request's headers and body, table sockets per address and per account; and which peers are
trusted proxies whose ``X-Forwarded-For`` names the real address.

``guarded_http`` makes uvicorn's HTTP protocol enforce the first two on every connection (a
slow client, slowloris, cannot hold a descriptor past the deadline, nor one address more
than its share of them); ``Counter`` counts the table sockets (``ws.TableSession``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import resource
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from .limits import address_key

TOO_MANY = (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
            b"content-length: 58\r\nconnection: close\r\n\r\n"
            b'{"error":"too many connections from your address; wait"}\n\n')
TOO_SLOW = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            b"content-length: 46\r\nconnection: close\r\n\r\n"
            b'{"error":"the request took too long to send"}\n')


class TrustedProxies:
    """The peers (addresses or networks, ``"*"``: any) whose forwarded address is believed."""

    def __init__(self, spec: str | Iterable[str] = ()) -> None:
        items = [s.strip() for s in (spec.split(",") if isinstance(spec, str) else spec)]
        items = [s for s in items if s]
        self.spec = ",".join(items)
        self.any = "*" in items
        self.networks = [ipaddress.ip_network(s, strict=False) for s in items if s != "*"]
        # the hosts of the hall's nodes on other machines, which forward table sockets here
        self.nodes: Callable[[], Collection[str]] = tuple

    def __bool__(self) -> bool:
        return self.any or bool(self.networks)

    def __contains__(self, host: str | None) -> bool:
        if not host:
            return False
        if self.any or host in self.nodes():
            return True
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in net for net in self.networks)

    def client(self, peer: str, forwarded_for: str | None) -> str:
        """The real address of a connection from ``peer``: the nearest address of
        ``X-Forwarded-For`` that is not a trusted proxy, when ``peer`` is one; else ``peer``."""
        if peer not in self or not forwarded_for:
            return peer
        hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
        for hop in reversed(hops):
            if hop not in self:
                return hop[:64]
        return hops[0][:64] if hops else peer


@dataclass
class Limits:
    """The per-client bounds of one hall (``baida serve`` flags)."""

    request_timeout: float = 10.0  # seconds for a request's headers and body
    connections_per_address: int = 64  # open HTTP and socket connections of one address
    sockets_per_address: int = 32  # table sockets of one address
    sockets_per_account: int = 8  # table sockets of one account
    proxies: TrustedProxies = field(default_factory=TrustedProxies)
    connections: Counter = field(default_factory=lambda: Counter())
    sockets: Counter = field(default_factory=lambda: Counter())


class Counter:
    """Open things per key, each kept under a cap."""

    def __init__(self) -> None:
        self.open: dict[Any, int] = {}

    def take(self, key: Any, cap: int) -> bool:
        """Count one more for ``key`` if it has fewer than ``cap`` (False: refused)."""
        n = self.open.get(key, 0)
        if n >= cap:
            return False
        self.open[key] = n + 1
        return True

    def give_back(self, key: Any) -> None:
        n = self.open.get(key, 0) - 1
        if n > 0:
            self.open[key] = n
        else:
            self.open.pop(key, None)


def raise_descriptor_limit() -> int:
    """Raise this process's open-file limit to its hard limit (a busy hall holds one
    descriptor a connection); the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft


def guarded_http(base: type[asyncio.Protocol], limits: Limits) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's HTTP protocol class) bounded by ``limits``: a connection from an
    address that already has ``connections_per_address`` open gets a 429 and is closed; a
    request whose headers and body are not all in within ``request_timeout`` seconds of its
    first byte (or of the connection, for the first) gets a 408 and is closed. Trusted
    proxies are not counted (each carries many people; the hall counts those by the address
    they forward)."""

    class GuardedHttp(base):  # type: ignore[misc, valid-type]
        _peer: str | None = None
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            peername = transport.get_extra_info("peername")
            peer = peername[0] if isinstance(peername, tuple) else None
            if peer is not None and peer not in limits.proxies:
                key = address_key(peer)  # an IPv6 address counts as its /64
                if not limits.connections.take(key, limits.connections_per_address):
                    transport.write(TOO_MANY)
                    transport.close()
                    self.transport = transport
                    self._refused = True
                    return
                self._peer = key
            self._refused = False
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._refused:
                return
            if self._peer is not None and not self._upgraded():
                limits.connections.give_back(self._peer)
                self._peer = None
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            if self._deadline is None:
                self._arm()
            super().on_message_begin()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            super().handle_websocket_upgrade()
            # the socket's protocol gives the address's place back when it closes
            self.transport.get_protocol().baida_peer = self._peer
            self._peer = None

        def shutdown(self) -> None:
            if self._refused:
                return
            super().shutdown()

        def _upgraded(self) -> bool:
            return self.transport.get_protocol() is not self

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(limits.request_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            transport = self.transport
            if transport is None or transport.is_closing() or self._upgraded():
                return
            cycle = getattr(self, "cycle", None)
            if cycle is None or not cycle.response_started:
                transport.write(TOO_SLOW)
            transport.close()

    GuardedHttp.__name__ = GuardedHttp.__qualname__ = f"Guarded{base.__name__}"
    return GuardedHttp


def release_socket_connection(protocol: Any, limits: Limits | None) -> None:
    """A table socket's connection is gone: its address's place is free again."""
    peer = getattr(protocol, "baida_peer", None)
    if peer is not None and limits is not None:
        protocol.baida_peer = None
        limits.connections.give_back(peer)
