"""Machines for the tests and the chaos benchmark of a hall on several hosts: network
namespaces joined by a bridge (``ip netns``, veth; needs root), a node of the hall in each,
the machine's PostgreSQL (its UNIX socket, which every namespace sees) in a schema of its
own, a Redis of the run's own (``redis-server`` from Debian, on a UNIX socket), and HAProxy
from Debian in front with the repository's ``deploy/haproxy.cfg``.

``machines_problem()`` says why they cannot be made here (the tests then skip)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parent.parent
PG_SOCKET_DIR = os.environ.get("BAIDA_TEST_PG_SOCKET_DIR", "/var/run/postgresql")
PG_DB = os.environ.get("BAIDA_TEST_PG_DB", "test")
PORT = 8000
STARTING = 1000


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=30)


def pg_url(schema: str | None = None) -> str:
    """The machine's PostgreSQL over its UNIX socket (seen from every namespace)."""
    url = make_url(f"postgresql+psycopg://postgres@/{PG_DB}").update_query_dict(
        {"host": PG_SOCKET_DIR})
    if schema is not None:
        url = url.update_query_dict({"host": PG_SOCKET_DIR,
                                     "options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


def machines_problem() -> str | None:
    """Why hosts cannot be made here (None: they can)."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "haproxy", "redis-server"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    name = f"bdprobe{os.getpid()}"
    made = _run("ip", "netns", "add", name)
    if made.returncode != 0:
        return f"ip netns cannot be made here: {made.stderr.strip()}"
    _run("ip", "netns", "del", name)
    if not Path(PG_SOCKET_DIR, ".s.PGSQL.5432").exists():
        return f"no PostgreSQL socket in {PG_SOCKET_DIR}"
    try:
        create_engine(pg_url()).connect().close()
    except Exception as exc:
        return f"PostgreSQL does not answer on {PG_SOCKET_DIR}: {exc}"
    return None


@dataclass
class Node:
    name: str
    netns: str
    address: str  # host:port
    data: Path
    proc: subprocess.Popen[bytes] | None = None
    runs: int = 0

    @property
    def base(self) -> str:
        return f"http://{self.address}"

    @property
    def log(self) -> Path:
        return self.data / f"node-{self.runs}.log"


@dataclass
class Machines:
    """``count`` hosts, each a namespace with a node of one hall, and HAProxy in front."""

    tmp: Path
    count: int = 3
    tag: str = field(default_factory=lambda: uuid.uuid4().hex[:6])
    subnet: str = field(default_factory=lambda: f"10.211.{int(uuid.uuid4()) % 250 + 1}")
    nodes: list[Node] = field(default_factory=list)
    schema: str = ""
    redis: subprocess.Popen[bytes] | None = None
    proxy: subprocess.Popen[bytes] | None = None
    proxy_port: int = 0
    env: dict[str, str] = field(default_factory=dict)

    @property
    def bridge(self) -> str:
        return f"bdb{self.tag}"

    @property
    def redis_socket(self) -> Path:
        return self.tmp / "redis.sock"

    @property
    def database(self) -> str:
        return pg_url(self.schema)

    @property
    def proxy_base(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}"

    # ---------------------------------------------------------------- making them

    def __enter__(self) -> Machines:
        try:
            self._network()
            self._stores()
            for node in self.nodes:
                self.start(node)
            self._proxy()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _network(self) -> None:
        def ok(*cmd: str) -> None:
            done = _run(*cmd)
            if done.returncode != 0:
                raise RuntimeError(f"{' '.join(cmd)}: {done.stderr.strip()}")

        ok("ip", "link", "add", self.bridge, "type", "bridge")
        ok("ip", "addr", "add", f"{self.subnet}.1/24", "dev", self.bridge)
        ok("ip", "link", "set", self.bridge, "up")
        for i in range(1, self.count + 1):
            ns, outside, inside = f"bd{self.tag}h{i}", f"bd{self.tag}v{i}", f"bd{self.tag}n{i}"
            ok("ip", "netns", "add", ns)
            ok("ip", "link", "add", outside, "type", "veth", "peer", "name", inside)
            ok("ip", "link", "set", outside, "master", self.bridge)
            ok("ip", "link", "set", outside, "up")
            ok("ip", "link", "set", inside, "netns", ns)
            address = f"{self.subnet}.{10 + i}"
            ok("ip", "-n", ns, "addr", "add", f"{address}/24", "dev", inside)
            ok("ip", "-n", ns, "link", "set", inside, "up")
            ok("ip", "-n", ns, "link", "set", "lo", "up")
            data = self.tmp / f"host{i}"
            data.mkdir()
            self.nodes.append(Node(f"host{i}", ns, f"{address}:{PORT}", data))

    def _stores(self) -> None:
        self.schema = f"baida_hosts_{self.tag}"
        engine = create_engine(pg_url())
        with engine.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{self.schema}"'))
        engine.dispose()
        self.start_redis()
        # one signing key for the whole hall: a session made on one node is good on all
        secret = os.urandom(32).hex()
        for node in self.nodes:
            (node.data / "secret.key").write_text(secret)
            (node.data / "secret.key").chmod(0o600)

    # ---------------------------------------------------------------- Redis

    def start_redis(self) -> None:
        """Start the hall's Redis (empty: nothing is saved) on its socket."""
        self.redis_socket.unlink(missing_ok=True)
        self.redis = subprocess.Popen(
            ["redis-server", "--port", "0", "--unixsocket", str(self.redis_socket),
             "--unixsocketperm", "777", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not self.redis_socket.exists():
            if time.monotonic() > deadline or self.redis.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop_redis(self) -> None:
        """kill -9 of the hall's Redis: its data goes with it."""
        assert self.redis is not None
        self.redis.send_signal(signal.SIGCONT)  # (a hung one too)
        self.redis.kill()
        self.redis.wait(timeout=10)

    def pause_redis(self, pause: bool = True) -> None:
        """Hang the hall's Redis (SIGSTOP: connections stay open, nothing answers), or let
        it go on (``pause=False``: SIGCONT)."""
        assert self.redis is not None
        self.redis.send_signal(signal.SIGSTOP if pause else signal.SIGCONT)

    def flush_redis(self) -> None:
        """FLUSHALL: Redis answers on, its data gone."""
        import redis

        client = redis.Redis(unix_socket_path=str(self.redis_socket), socket_timeout=5.0)
        try:
            client.flushall()
        finally:
            client.close()

    # ---------------------------------------------------------------- the proxy

    def _proxy(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.proxy_port = s.getsockname()[1]
        env = {**os.environ, "BAIDA_LISTEN": f"127.0.0.1:{self.proxy_port}"}
        for i, node in enumerate(self.nodes[:3], start=1):
            env[f"BAIDA_NODE{i}"] = node.address
        log = (self.tmp / "haproxy.log").open("wb")
        self.proxy = subprocess.Popen(
            ["haproxy", "-db", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
            env=env, stdout=log, stderr=subprocess.STDOUT)
        self.wait_http(self.proxy_base + "/healthz")

    # ---------------------------------------------------------------- nodes

    def start(self, node: Node) -> None:
        """Start (or start again) the node in its namespace; returns once it serves."""
        node.runs += 1
        cmd = ["ip", "netns", "exec", node.netns, sys.executable, "-m", "baida.cli", "serve",
               "--node-name", node.name, "--host", node.address.split(":")[0],
               "--port", str(PORT), "--data", str(node.data), "--database", self.database,
               "--redis", f"unix://{self.redis_socket}", "--redis-prefix", self.schema,
               "--bot-workers", "0", "--no-warm-up", "--log-level", "info",
               "--guests-per-hour", "0", "--signins-per-address", "0",
               "--max-connections-per-address", "100000", "--max-sockets-per-address", "100000",
               "--max-sockets-per-account", "100000", "--log-format", "text",
               "--starting-balance", str(STARTING), "--min-bot-time", "0"]
        node.proc = subprocess.Popen(cmd, stdout=node.log.open("wb"), stderr=subprocess.STDOUT,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env})
        deadline = time.monotonic() + 60
        while "baida hall:" not in node.log.read_text(errors="replace"):
            if node.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"node {node.name} did not start: "
                                   f"{node.log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.05)

    def kill(self, node: Node) -> None:
        """kill -9, as a machine that dies."""
        assert node.proc is not None
        node.proc.send_signal(signal.SIGKILL)
        node.proc.wait(timeout=10)

    def stop(self, node: Node) -> int:
        assert node.proc is not None
        node.proc.send_signal(signal.SIGTERM)
        try:
            return node.proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            node.proc.kill()
            return node.proc.wait(timeout=5)

    def wait_http(self, url: str, timeout: float = 30.0) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(url, timeout=2.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{url} did not answer")
            time.sleep(0.1)

    def node_named(self, name: str) -> Node:
        return next(n for n in self.nodes if n.name == name)

    # ---------------------------------------------------------------- taking them down

    def __exit__(self, *exc: object) -> None:
        if self.redis is not None and self.redis.poll() is None:
            self.redis.send_signal(signal.SIGCONT)
        for proc in [n.proc for n in self.nodes] + [self.proxy, self.redis]:
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
        for node in self.nodes:
            _run("ip", "netns", "del", node.netns)
        _run("ip", "link", "del", self.bridge)
        if self.schema:
            engine = create_engine(pg_url())
            with engine.begin() as connection:
                connection.execute(text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))
            engine.dispose()
