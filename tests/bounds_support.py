"""Clients that misbehave on purpose, over raw sockets: a body streamed without end, a request
sent a byte at a time."""

from __future__ import annotations

import asyncio
import contextlib


async def stream_body(host: str, port: int, path: str, total: int, chunk: int = 64 * 1024,
                      timeout: float = 60.0) -> tuple[int, int]:
    """POST ``total`` bytes to ``path`` chunked (no Content-Length), reading the answer as it
    comes: (its status, 0 if none; the bytes sent before the hall answered or closed)."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n".encode())
    piece = f"{chunk:x}\r\n".encode() + b" " * chunk + b"\r\n"
    sent = 0

    async def send() -> None:
        nonlocal sent
        with contextlib.suppress(OSError):
            while sent < total:
                writer.write(piece)
                await writer.drain()
                sent += chunk
                # drain() does not yield while the socket takes every write: without this the
                # answer could stay unread until the hall's close reset the connection
                await asyncio.sleep(0)
            writer.write(b"0\r\n\r\n")
            await writer.drain()

    sending = asyncio.create_task(send())
    try:
        line = await asyncio.wait_for(reader.readline(), timeout)
    except ConnectionError:  # closed before the answer could be read
        line = b""
    finally:
        sending.cancel()
        await asyncio.gather(sending, return_exceptions=True)
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    parts = line.split()
    return (int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0), sent


async def declared_body(host: str, port: int, path: str, length: int,
                        timeout: float = 10.0) -> int:
    """POST to ``path`` saying ``Content-Length: length`` and sending none of it: the status
    the hall answers with (0: none)."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {length}\r\n\r\n".encode())
    try:
        line = await asyncio.wait_for(reader.readline(), timeout)
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
