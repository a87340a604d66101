"""A Redis server of a test's own (``redis-server`` on a free port, nothing saved), so that
a test may stop it, hang it (SIGSTOP) and start it again empty without touching the
machine's Redis."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from baida.server.directory.contained import ContainedDirectory
from baida.server.directory.in_redis import RedisDirectory

SERVER = shutil.which("redis-server")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """One ``redis-server`` process: ``start``, ``stop`` (kill), ``pause``/``resume``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert SERVER is not None
        self.proc = subprocess.Popen(
            [SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_timeout=0.5, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise AssertionError("the test's redis-server did not start") from None
                time.sleep(0.05)
        client.close()

    def stop(self) -> None:
        """Gone at once (SIGKILL): its data with it."""
        if self.proc is not None and self.proc.poll() is None:
            self.resume()
            self.proc.kill()
            self.proc.wait(timeout=10)

    def pause(self) -> None:
        """Hung: connections stay open, nothing answers."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True, socket_timeout=2.0)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    if SERVER is None:
        pytest.skip("no redis-server on this machine (Debian: apt-get install redis-server)")
    folder = tmp_path / "redis"
    folder.mkdir()
    server = PrivateRedis(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def nodes(private_redis: PrivateRedis) -> Iterator[list[ContainedDirectory]]:
    """The directories of two nodes of one hall on the private Redis (quick to notice it
    gone and back)."""
    made = [ContainedDirectory(RedisDirectory(private_redis.url, f"node-{i}", "t"),
                               probe_seconds=0.1, mark_seconds=0.2) for i in range(2)]
    yield made
    for d in made:
        d.close()
