"""A node's directory that survives its Redis (``ContainedDirectory``): every call answers at
once, from Redis while it answers, else from what this node knows.

It wraps a ``RedisDirectory`` and keeps this node's own share of the directory in memory
(the tables it owns, their listings, descriptions, room codes and admissions, its players'
connections) and the last lobby and descriptions read from Redis. A command that fails or
times out (``REDIS_SECONDS``) marks Redis *down*: from then on no call waits for it, reads
answer from memory (the last lobby with this node's tables up to date; a room code or an
owner not known here: ``DirectoryUnavailable``, which the routes answer with 503) and
writes are kept for later. A thread probes Redis while it is down and, once it answers,
writes this node's share back (``refill``) before calls go to it again. While up, the thread
renews a marker key every few seconds; a marker gone means Redis lost its data (restarted
empty, flushed): the node's share is written back then too.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter, deque
from collections.abc import Callable
from typing import Any, TypeVar

import orjson
import redis
from redis.lock import Lock

from .in_process import DirectoryUnavailable
from .in_redis import RedisDirectory

log = logging.getLogger(__name__)

T = TypeVar("T")
PROBE_SECONDS = 0.5  # how often a down Redis is tried again
MARK_SECONDS = 2.0  # how often the marker key is renewed while Redis is up
MARK_TTL = 60  # seconds: the marker outlives a pause of the node, not a restart of Redis
RELEASES_KEPT = 4096  # releases written again by a refill (those made while Redis was out)

_RAISE_NUMBER = """
local last = redis.call('HGET', KEYS[1], ARGV[1])
if (not last) or tonumber(last) < tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
"""

_HIT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
"""

_UNHIT = """
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then return redis.call('DECR', KEYS[1]) end
return 0
"""


class ContainedDirectory:
    """The directory of one node of several (the ``Directory`` interface), contained."""

    def __init__(self, inner: RedisDirectory, probe_seconds: float = PROBE_SECONDS,
                 mark_seconds: float = MARK_SECONDS) -> None:
        self.inner = inner
        self.node = inner.node
        self.probe_seconds = probe_seconds
        self.mark_seconds = mark_seconds
        self.refills = 0  # times this node's share was written back
        self.outages = 0  # times Redis was found down
        self._up = True
        self._lock = threading.Lock()  # this node's share: changed on the loop, read by refill
        self._owned: set[int] = set()
        self._listed: dict[int, dict[str, Any]] = {}
        self._described: dict[int, dict[str, Any]] = {}
        self._codes: dict[int, str] = {}  # own table -> its room code
        self._admitted: dict[int, set[int]] = {}
        self._online: Counter[int] = Counter()
        self._released: deque[int] = deque(maxlen=RELEASES_KEPT)
        self._owners: dict[int, str] = {}  # other nodes' tables, as last read
        self._lobby: list[dict[str, Any]] = []  # as last read
        self._seen: dict[int, dict[str, Any]] = {}  # descriptions as last read
        self._online_seen = 0
        self._marked = False
        self._write_failures = 0
        self._stop = threading.Event()
        self._raise_number = inner.register_script(_RAISE_NUMBER)
        self._hit = inner.register_script(_HIT)
        self._unhit = inner.register_script(_UNHIT)
        inner.on_write_failed = self._write_failed
        # a restarted node: the connections its earlier process counted are gone
        self._tell(lambda: inner.pipeline().delete(inner.key("online", self.node)).execute())
        self._thread = threading.Thread(target=self._watch, name=f"directory-watch-{self.node}",
                                        daemon=True)
        self._thread.start()

    # ---------------------------------------------------------------- state

    @property
    def available(self) -> bool:
        """Whether Redis answers (as of the last call or probe)."""
        return self._up

    def _down(self, error: BaseException) -> None:
        if self._up:
            self._up = False
            self.outages += 1
            log.warning("directory: Redis is out (%s); this node answers from what it knows",
                        error)

    def _write_failed(self, error: Exception) -> None:
        self._write_failures += 1
        self._down(error)

    def _ask(self, call: Callable[[], T], fallback: Callable[[], T]) -> T:
        """``call()`` while Redis is up; ``fallback()`` if it is down or fails now."""
        if not self._up:
            return fallback()
        try:
            return call()
        except (redis.RedisError, DirectoryUnavailable) as e:
            self._down(e)
            return fallback()

    def _tell(self, call: Callable[[], Any]) -> None:
        """A write: sent while Redis is up, else left to the next refill."""
        if self._up:
            try:
                call()
            except (redis.RedisError, DirectoryUnavailable) as e:
                self._down(e)

    @staticmethod
    def _unknown() -> Any:
        raise DirectoryUnavailable("the hall's directory is out for a moment: try again soon")

    # ---------------------------------------------------------------- the watcher thread

    def _watch(self) -> None:
        while not self._stop.wait(self.probe_seconds if not self._up else self.mark_seconds):
            try:
                if not self._up:
                    self.inner.ping()
                    self._up = True  # this node's writes from now on queue behind the refill
                    self.refill()
                    log.warning("directory: Redis is back; this node's tables are listed again")
                elif not self._mark():
                    log.warning("directory: Redis lost this node's keys (restarted empty?); "
                                "writing them again")
                    self.refill()
            except (redis.RedisError, DirectoryUnavailable) as e:
                self._down(e)
            except Exception:  # the watcher must outlive anything
                log.exception("directory: the watcher failed")

    def _mark(self) -> bool:
        """Renew the marker; False if Redis had lost it (after it was first set)."""
        key = self.inner.key("alive", self.node)
        before = self.inner.pipeline().set(key, "1", ex=MARK_TTL, get=True).execute()[0]
        lost = before is None and self._marked
        self._marked = True
        return not lost

    def refill(self) -> None:
        """Write this node's share of the directory to Redis again. It goes through the
        writer's queue, so that it lands in order with this node's other writes: what it
        holds is read when the writer sends it, and a change made after that follows it."""
        failures = self._write_failures
        self.inner.later(self._refill_into)
        self.inner.flush(timeout=5.0)
        if self._write_failures != failures:
            raise DirectoryUnavailable("writing this node's share to Redis failed")
        owned = sorted(self._owned)
        pipe = self.inner.pipeline()
        for table_id in owned:
            pipe.get(self.inner.key("owner", table_id))
        for table_id, owner in zip(owned, pipe.execute(), strict=True):
            if owner not in (None, self.node):
                log.warning("directory: table %s is claimed by %s", table_id, owner)
        self._marked = True
        self.refills += 1

    def _refill_into(self, pipe: Any) -> None:
        """(In the writer thread.) Queue this node's share on ``pipe``."""
        with self._lock:
            owned = sorted(self._owned)
            listed = dict(self._listed)
            described = dict(self._described)
            codes = dict(self._codes)
            admitted = {t: sorted(users) for t, users in self._admitted.items() if users}
            online = {u: n for u, n in self._online.items() if n > 0}
            released = [t for t in self._released if t not in self._owned]
        key = self.inner.key
        for table_id in released:
            self.inner.release_script(table_id, self.node, pipe)
        for table_id in owned:
            pipe.set(key("owner", table_id), self.node, nx=True)
        if listed:
            pipe.hset(key("lobby"), mapping={str(t): orjson.dumps(s) for t, s in listed.items()})
        if described:
            pipe.hset(key("described"),
                      mapping={str(t): orjson.dumps(s) for t, s in described.items()})
        for table_id, code in codes.items():
            pipe.hset(key("rooms"), code, table_id)
            pipe.hset(key("codes"), table_id, code)
        for table_id, users in admitted.items():
            pipe.sadd(key("admitted", table_id), *users)
        pipe.delete(key("online", self.node))
        if online:
            pipe.hset(key("online", self.node), mapping=online)
            pipe.sadd(key("nodes"), self.node)
        highest: dict[str, int] = {}
        for summary in described.values():
            ruleset, number = summary.get("ruleset"), summary.get("number")
            if isinstance(ruleset, str) and isinstance(number, int):
                highest[ruleset] = max(highest.get(ruleset, 0), number)
        for ruleset, number in highest.items():
            self._raise_number(keys=[key("numbers")], args=[ruleset, number], client=pipe)
        pipe.set(key("alive", self.node), "1", ex=MARK_TTL)

    # ---------------------------------------------------------------- tables

    def claim_table(self, table_id: int, node: str) -> bool:
        mine = self._ask(lambda: self.inner.claim_table(table_id, node), lambda: True)
        if mine:
            with self._lock:
                self._owned.add(table_id)
        return mine

    def release_table(self, table_id: int, node: str) -> None:
        with self._lock:
            self._owned.discard(table_id)
            self._listed.pop(table_id, None)
            self._described.pop(table_id, None)
            self._codes.pop(table_id, None)
            self._admitted.pop(table_id, None)
            self._released.append(table_id)
        self._tell(lambda: self.inner.release_table(table_id, node))

    def owner(self, table_id: int) -> str | None:
        if table_id in self._owned:
            return self.node

        def read() -> str | None:
            found = self.inner.owner(table_id)
            if found is None:
                self._owners.pop(table_id, None)
            else:
                self._owners[table_id] = found
            return found

        return self._ask(read, lambda: self._owners.get(table_id) or self._unknown())

    # ---------------------------------------------------------------- the lobby

    def list_table(self, table_id: int, summary: dict[str, Any]) -> None:
        with self._lock:
            self._listed[table_id] = summary
        self._tell(lambda: self.inner.list_table(table_id, summary))

    def unlist_table(self, table_id: int) -> None:
        with self._lock:
            self._listed.pop(table_id, None)
        self._tell(lambda: self.inner.unlist_table(table_id))

    def lobby(self) -> list[dict[str, Any]]:
        def read() -> list[dict[str, Any]]:
            self._lobby = self.inner.lobby()
            return self._lobby

        return self._ask(read, self._known_lobby)

    def _known_lobby(self) -> list[dict[str, Any]]:
        """The last lobby read, with this node's tables as they are now."""
        tables = [t for t in self._lobby if t.get("id") not in self._owned]
        tables += self._listed.values()
        return sorted(tables, key=lambda t: (t["ruleset"], t["number"], t["id"]))

    def describe_table(self, table_id: int, summary: dict[str, Any]) -> None:
        with self._lock:
            self._described[table_id] = summary
        self._tell(lambda: self.inner.describe_table(table_id, summary))

    def description(self, table_id: int) -> dict[str, Any] | None:
        own = self._described.get(table_id)
        if own is not None:
            return own

        def read() -> dict[str, Any] | None:
            found = self.inner.description(table_id)
            if found is not None:
                self._seen[table_id] = found
            return found

        def known() -> dict[str, Any] | None:
            found = self._seen.get(table_id) or next(
                (t for t in self._lobby if t.get("id") == table_id), None)
            return found if found is not None else self._unknown()

        return self._ask(read, known)

    def descriptions(self) -> list[dict[str, Any]]:
        def read() -> list[dict[str, Any]]:
            found = self.inner.descriptions()
            self._seen = {t["id"]: t for t in found if isinstance(t.get("id"), int)}
            return found

        def known() -> list[dict[str, Any]]:
            every = {**self._seen, **self._described}
            return [every[t] for t in sorted(every)]

        return self._ask(read, known)

    def next_number(self, ruleset: str, floor: int) -> int:
        # while Redis is out, a number above this node's own (another node's may match it)
        return self._ask(lambda: self.inner.next_number(ruleset, floor), lambda: floor + 1)

    # ---------------------------------------------------------------- private tables

    def register_room(self, code: str, table_id: int) -> bool:
        code = code.upper()

        def known() -> bool:
            return all(c != code or t == table_id for t, c in self._codes.items())

        ok = self._ask(lambda: self.inner.register_room(code, table_id), known)
        if ok:
            with self._lock:
                self._codes[table_id] = code
        return ok

    def room(self, code: str) -> int | None:
        code = code.strip().upper()
        own = next((t for t, c in self._codes.items() if c == code), None)
        if own is not None:
            return own
        return self._ask(lambda: self.inner.room(code), self._unknown)

    def admit(self, table_id: int, user_id: int) -> None:
        if table_id in self._owned:
            with self._lock:
                self._admitted.setdefault(table_id, set()).add(user_id)
        self._tell(lambda: self.inner.admit(table_id, user_id))

    def admitted(self, table_id: int, user_id: int) -> bool:
        if user_id in self._admitted.get(table_id, ()):
            return True
        return self._ask(lambda: self.inner.admitted(table_id, user_id), lambda: False)

    # ---------------------------------------------------------------- presence and chat

    def online(self, user_id: int, delta: int) -> None:
        with self._lock:
            self._online[user_id] += delta
            if self._online[user_id] <= 0:
                del self._online[user_id]
        self._tell(lambda: self.inner.online(user_id, delta))

    def online_count(self) -> int:
        def read() -> int:
            self._online_seen = self.inner.online_count()
            return self._online_seen

        return self._ask(read, lambda: max(self._online_seen, len(self._online)))

    def publish(self, table_id: int, message: dict[str, Any]) -> None:
        self.inner.publish(table_id, message)

    def subscribe(self, table_id: int, deliver: Callable[[dict[str, Any]], None]) -> None:
        self.inner.subscribe(table_id, deliver)

    def unsubscribe(self, table_id: int) -> None:
        self.inner.unsubscribe(table_id)

    # ---------------------------------------------------------------- between nodes

    def on_message(self, node: str, handler: Callable[[dict[str, Any]], None]) -> None:
        self.inner.on_message(node, handler)

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Deliver ``message`` to ``node``; ``DirectoryUnavailable`` while Redis is out."""
        self._ask(lambda: self.inner.send(node, message), self._unknown)

    def put_metrics(self, node: str, text: str) -> None:
        self._tell(lambda: self.inner.put_metrics(node, text))

    def node_metrics(self) -> dict[str, str]:
        return self._ask(self.inner.node_metrics, dict)

    # ---------------------------------------------------------------- counting across nodes

    def hit(self, name: str, window: float) -> int | None:
        """Count one more event of ``name`` in the hall (all nodes) for ``window`` seconds
        from its first; the count so far, or None while Redis is out (count locally)."""
        key = self.inner.key("hits", name)
        seconds = max(1, round(window))
        return self._ask(lambda: int(self._hit(keys=[key], args=[seconds])), lambda: None)

    def hits(self, name: str) -> int | None:
        """The count of ``name`` so far (0: none), or None while Redis is out."""
        key = self.inner.key("hits", name)
        return self._ask(lambda: int(self.inner.get(key) or 0), lambda: None)

    def unhit(self, name: str) -> None:
        """Take back one ``hit`` of ``name`` (never below 0; a key gone is left gone)."""
        key = self.inner.key("hits", name)
        self._tell(lambda: self._unhit(keys=[key]))

    # ---------------------------------------------------------------- locks across nodes

    def hall_lock(self, name: str, seconds: float) -> ContainedLock:
        """The hall-wide lock ``name`` (in Redis), good for ``seconds``."""
        return ContainedLock(self, self.inner.lock(name, seconds))

    def __getattr__(self, name: str) -> Any:
        """What is not contained here is the Redis directory's own (uncontained)."""
        inner = self.__dict__.get("inner")
        if inner is None or name.startswith("_"):
            raise AttributeError(name)
        return getattr(inner, name)

    # ---------------------------------------------------------------- lifetime

    def flush(self) -> None:
        self._tell(self.inner.flush)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5.0)
        self.inner.close()


class ContainedLock:
    """A lock in Redis that answers at once while Redis is out (``None``: nobody can tell
    who holds it; the node's own lock is all there is meanwhile)."""

    def __init__(self, directory: ContainedDirectory, lock: Lock) -> None:
        self.directory = directory
        self.lock = lock

    def acquire(self) -> bool | None:
        return self.directory._ask(lambda: bool(self.lock.acquire(blocking=False)),
                                   lambda: None)

    def renew(self) -> None:
        try:
            self.directory._ask(lambda: self.lock.reacquire(), lambda: None)
        except redis.exceptions.LockError:  # it expired before: another may hold it now
            log.warning("directory: the lock %s expired while it was held", self.lock.name)

    def release(self) -> None:
        """This node's queued writes reach Redis first (what the holder made, a table's
        description, is what the next holder counts), then the lock goes."""
        self.directory.flush()
        try:
            self.lock.release()
        except redis.exceptions.LockError:  # it expired meanwhile: nothing of ours to free
            log.warning("directory: the lock %s expired while it was held", self.lock.name)
        except redis.RedisError as e:  # Redis is out: the lock expires by itself
            self.directory._down(e)
