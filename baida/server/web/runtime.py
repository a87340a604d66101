"""The running hall: its store, writer, tables, sessions and metrics, shared by the routes."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar
from urllib.parse import urlsplit

from argon2 import PasswordHasher

from ..directory.in_process import Directory, DirectoryUnavailable, InProcessDirectory
from ..nodes.forward import split_address
from ..ops.logs import fields
from ..ops.metrics import Metrics
from ..store.skeletons import warm as warm_skeletons
from ..store.writer import StoreWriter
from ..tables.botpool import BotPool
from ..tables.chat import RateLimit
from ..tables.chat_filter import ChatWordList
from ..tables.clock import Clock, LoopClock
from ..tables.connection import Connection, User
from ..tables.hall import Hall
from .auth import RoomCodeLimiter, SessionCodec, load_secret
from .client_limits import Limits, TrustedProxies
from .limits import GuestLimiter, LoginGate
from .settings import HallSettings

log = logging.getLogger("baida.server")
T = TypeVar("T")
HASHING_QUEUE = 256  # password checks waiting for a hashing thread; more are refused (busy)
# the requests one address may send to the bot workers a minute (answers from a cache aside)
WORKER_REQUESTS = 120


class HashingBusy(RuntimeError):
    """Too many password checks are waiting: ask again in a moment."""


def _hashing_thread() -> None:
    """A password-hashing thread runs below the event loop's priority (Linux: a thread's
    nice value is its own, and argon2's own threads inherit it), so hashing uses the CPU the
    tables leave."""
    if hasattr(os, "setpriority"):
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        except OSError:
            pass


DATABASE_SECONDS = 2.0  # a readiness check's longest wait for the database


def _ping(store: Any) -> None:
    from sqlalchemy import text

    with store.engine.connect() as conn:
        conn.execute(text("SELECT 1"))


def tune_gc() -> None:
    """Fewer, cheaper garbage collections: what exists at start (tables, code, warmed
    evaluator tables) is frozen out of the collector, and the young generation is large, so a
    busy hall does not stall every table for a full collection every few seconds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    # the writer thread hands the interpreter back to the event loop sooner
    sys.setswitchinterval(float(os.environ.get("BAIDA_SWITCH_INTERVAL", "0.005")))


class Runtime:
    """One hall process. ``start`` opens the database (migrating it), warms the tables,
    starts the bot workers (and waits until each has warmed its own) and brings back the
    tables; ``stop`` undoes it."""

    def __init__(self, settings: HallSettings, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock: Clock = clock or LoopClock()
        self.metrics = Metrics(queued=lambda: Connection.queued)
        self.logins = LoginGate(self._now, settings.signins_per_address)
        self.guests = GuestLimiter(self._now, settings.guests_per_hour)
        self.room_limiter = RoomCodeLimiter(self._now)
        # hints, a record's check and reviews reaching the bot workers, per address a minute
        self.worker_quota = RateLimit(self._now, 60.0, WORKER_REQUESTS)
        self.limits = Limits(request_timeout=settings.request_timeout,
                             connections_per_address=settings.connections_per_address,
                             sockets_per_address=settings.sockets_per_address,
                             sockets_per_account=settings.sockets_per_account,
                             proxies=TrustedProxies(settings.forwarded_allow_ips))
        self.tables_warm_seconds: float | None = None  # the evaluator tables, in this process
        self.directory: Directory = InProcessDirectory()
        # serves a connection another node handed over, its request already read (``baida
        # serve`` sets it to ``ws_protocol.adopt`` on its uvicorn server)
        self.adopt: Callable[[socket.socket, bytes], None] | None = None
        self.handoffs: Any = None  # a node's HandoffListener
        self.node_metrics: Any = None  # a node's NodeMetrics: /metrics of every node
        self.guest_sweep = 0  # where the next pruning of guests looks (``store.guests``)
        self.metrics_from = TrustedProxies(settings.metrics_from)  # who may read /metrics
        self.store: Any = None
        self.db: StoreWriter | None = None
        self.hall: Hall | None = None
        self.bots: BotPool | None = None
        self.codec: SessionCodec | None = None
        self.watchdog: Any = None
        self.started_at = time.time()
        # argon2 hashing (sign-in, registration): a few threads of its own, never the event
        # loop, the database writer or the readers the tables and the lobby wait on
        self.passwords = ThreadPoolExecutor(max_workers=settings.password_workers,
                                            thread_name_prefix="baida-passwords",
                                            initializer=_hashing_thread)
        self.hashing_waiting = 0
        # the operator's words the chat masks (``ChatFilterError`` when the list is unusable)
        self.chat_filter = (ChatWordList(settings.chat_filter, self._now)
                            if settings.chat_filter is not None else None)
        if self.chat_filter is not None:
            log.info("the chat masks %d words of %s", len(self.chat_filter.words),
                     settings.chat_filter, extra=fields("chat_filter", words=len(
                         self.chat_filter.words), path=str(settings.chat_filter)))

    async def start(self) -> None:
        from ..store import Store

        s = self.settings
        s.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.codec = SessionCodec(load_secret(s.secret_path))
        hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1) if (
            s.argon2_fast) else None
        self.store = Store(s.database_url, password_hasher=hasher,
                           starting_balance=s.starting_balance,
                           sqlite_synchronous=s.sqlite_synchronous)
        self.store.migrate()
        warm_skeletons()
        self.bots = BotPool(workers=s.bot_workers, warm=s.warm_up)
        workers = asyncio.ensure_future(self.bots.start())  # they warm while this one does
        if s.warm_up:
            from ...warmup import warm_tables

            self.tables_warm_seconds = warm_tables()
            log.info("evaluator and scorer tables warmed in %.2f s", self.tables_warm_seconds,
                     extra=fields("warm_up", seconds=round(self.tables_warm_seconds, 3)))
        seconds = await workers
        if s.bot_workers:
            log.info("%d bot workers started and warmed in %.2f s", s.bot_workers, seconds,
                     extra=fields("bot_workers", workers=s.bot_workers,
                                  seconds=round(seconds, 3), pids=sorted(self.bots.pids)))
        process = None
        if s.db_process:
            from ..store.db_process import DatabaseProcess

            process = DatabaseProcess(s.database_url, sqlite_synchronous=s.sqlite_synchronous)
            await process.start()
        self.db = StoreWriter(self.store, process=process)
        if s.node is not None:
            self._join_nodes()
        self.hall = Hall(store=self.store, db=self.db, clock=self.clock, bots=self.bots,
                         metrics=self.metrics, directory=self.directory, role=s.node,
                         standing=s.standing, chat_filter=self.chat_filter,
                         unattended_pace=s.unattended_pace, min_bot_time=s.min_bot_time)
        await self.hall.open()
        if s.node is not None:
            self.directory.on_message(s.node.name, self.hall.on_message)
            self.hall.report_quota.shared = self.directory  # reports counted hall-wide
            self.limits.proxies.nodes = self.other_machines
            self.handoffs.start()
            self.node_metrics.start()
        tune_gc()
        stall_ms = os.environ.get("BAIDA_STALL_MS")
        if stall_ms and stall_ms.isdigit():
            from ..ops.watchdog import StallWatchdog

            self.watchdog = StallWatchdog(int(stall_ms) / 1000)
            self.watchdog.start()

    def _join_nodes(self) -> None:
        """One node of several: the shared directory, and a socket for handed connections."""
        from ..directory.contained import ContainedDirectory
        from ..directory.in_redis import RedisDirectory
        from ..nodes.handoff import HandoffListener
        from ..nodes.metrics import NodeMetrics

        role = self.settings.node
        assert role is not None
        directory = ContainedDirectory(
            RedisDirectory(role.redis_url, role.name, prefix=role.prefix))
        self.directory = directory
        # the limits are counted hall-wide
        self.logins.share(directory)
        self.guests.share(directory)
        self.room_limiter.shared = directory
        self.handoffs = HandoffListener(role.folder, role.name, self._adopt)
        self.node_metrics = NodeMetrics(role.name, self.metrics.render, self.directory)

    def _adopt(self, conn: socket.socket, request: bytes) -> None:
        if self.adopt is None:  # no server to serve it
            conn.close()
            return
        self.adopt(conn, request)

    def owner_elsewhere(self, table_id: int) -> str | None:
        """The node that owns ``table_id`` if it is another node (None: here, or nobody)."""
        role = self.settings.node
        if role is None or self.hall is None or table_id in self.hall.tables:
            return None
        ownership = self.hall.ownership
        owner = None
        if ownership is not None:
            owner = ownership.keeper.owner_of(table_id)
        if owner is None:  # a table made or taken within the last second
            try:
                owner = self.directory.owner(table_id)
            except DirectoryUnavailable:  # not known here while Redis is out
                return None
            if ownership is not None and ownership.keeper.moving(table_id) and (
                    owner not in ownership.keeper.alive):
                return None  # nobody held it at the last read: a dead node's claim is not
                # believed (a live node's is: it took the table since)
        return None if owner == role.name else owner

    def address_of(self, node: str) -> str | None:
        """Where another machine's node is reached (None: not known)."""
        ownership = self.hall.ownership if self.hall is not None else None
        return None if ownership is None else ownership.keeper.address_of(node)

    def other_machines(self) -> set[str]:
        """The hosts of the hall's nodes on other machines (they forward sockets here, with
        the client's address in ``X-Forwarded-For``); this machine's own host is not one."""
        ownership = self.hall.ownership if self.hall is not None else None
        if ownership is None:
            return set()
        keeper = ownership.keeper
        own = _host(keeper.role.address)
        hosts = {_host(a) for n, a in keeper.addresses.items() if n != keeper.name}
        return hosts - {own, None}

    def table_moving(self, table_id: int) -> bool:
        """Whether the table is open but not played here, its owner gone or not yet known:
        a connection should try again in a moment."""
        ownership = self.hall.ownership if self.hall is not None else None
        if ownership is None:
            return False
        keeper = ownership.keeper
        return keeper.moving(table_id) or keeper.owner_of(table_id) is not None

    def directory_ok(self) -> bool:
        """Whether the shared directory answers (always, for a hall of one process)."""
        return bool(getattr(self.directory, "available", True))

    async def database_ok(self, timeout: float = DATABASE_SECONDS) -> bool:
        """Whether the database answers a trivial query within ``timeout`` seconds."""
        if self.db is None:
            return False
        try:
            await asyncio.wait_for(self.db.read(_ping), timeout)
        except Exception:
            return False
        return True

    def ready_reasons(self, database: bool) -> list[str]:
        """Why this node should not get new players now (empty: ready)."""
        reasons = []
        if self.hall is None:
            reasons.append("starting")
        if not database:
            reasons.append("database")
        if not self.directory_ok():
            reasons.append("directory")
        ownership = getattr(self.hall, "ownership", None)
        if ownership is not None and ownership.keeper.is_draining:
            reasons.append("draining")  # it gives its tables away: new players go elsewhere
        return reasons

    async def stop(self) -> None:
        if self.handoffs is not None:
            self.handoffs.close()
        if self.node_metrics is not None:
            self.node_metrics.stop()
        if self.watchdog is not None:
            self.watchdog.stop()
        if self.hall is not None:
            await self.hall.close()
        close_directory = getattr(self.directory, "close", None)
        if close_directory is not None:
            close_directory()
        if self.bots is not None:
            self.bots.close()
        if self.db is not None:
            if self.db.process is not None:
                await self.db.process.close()
            self.db.close()
        self.passwords.shutdown(wait=False, cancel_futures=True)
        if self.store is not None:
            self.store.close()

    async def hashing(self, fn: Callable[[Any], T]) -> T:
        """``fn(store)`` for work that hashes a password, in the hashing threads (at most
        ``password_workers`` at once); ``HashingBusy`` when too many already wait."""
        if self.hashing_waiting >= HASHING_QUEUE:
            raise HashingBusy("too many sign-ins at once; try again in a moment")
        self.hashing_waiting += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.passwords, fn, self.store)
        finally:
            self.hashing_waiting -= 1

    def _now(self) -> float:
        return self.clock.now()

    def warmth(self) -> dict[str, Any]:
        """What ``/healthz`` says about the warm-up: this process's tables, the bot workers."""
        bots = self.bots
        return {
            "tables": self.tables_warm_seconds is not None,
            "tables_seconds": self.tables_warm_seconds,
            "bot_workers": self.settings.bot_workers,
            "bots": bool(bots is not None and bots.warm),
            "bots_seconds": None if bots is None else bots.warm_seconds,
        }

    # ---------------------------------------------------------------- sessions

    async def user_of(self, cookie: str | None) -> tuple[User, Any, str] | None:
        """The signed-in, active account of a session cookie: (user, account row, session
        token); None when the cookie is not validly signed or its session is not open."""
        assert self.codec is not None and self.db is not None
        token = self.codec.load(cookie)
        if token is None:
            return None
        try:
            account = await self.db.read(lambda s: s.accounts.by_session(token))
        except Exception:  # the database is away: nobody is signed in until it is back
            log.exception("could not look a session up")
            return None
        if account is None or account.suspended:
            return None
        return User(account.id, account.name, account.role, account.is_guest), account, token

    async def adopt_legacy(self, cookie: str | None) -> tuple[User, Any, str] | None:
        """A session for a signed cookie of the kind made before sessions were kept by the
        hall, once (``auth.SessionCodec.load_legacy``); the caller sets the new cookie."""
        assert self.codec is not None and self.db is not None
        legacy = self.codec.load_legacy(cookie)
        if legacy is None:
            return None
        adopted = await self.db.write(lambda s: s.accounts.adopt_legacy(*legacy))
        if adopted is None:
            return None
        account, token = adopted
        return User(account.id, account.name, account.role, account.is_guest), account, token

    def origin_ok(self, origin: str | None, host: str | None) -> bool:
        """A browser's ``Origin`` must be this hall (or a configured one)."""
        if origin is None:
            return True  # not a browser: no ambient credentials to abuse
        if origin in self.settings.allowed_origins:
            return True
        parts = urlsplit(origin)  # a page of this hall is served over http or https, and a
        # proxy may end TLS, so either scheme goes with the hall's own host
        return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host


def _host(address: str | None) -> str | None:
    """The host of a node's ``host:port`` (None: none or not one)."""
    try:
        return None if not address else split_address(address)[0]
    except ValueError:
        return None
