"""The hall's directory in Redis (``RedisDirectory``), so that several hall processes ("nodes",
on one machine or several) share one owner per table, one lobby, one set of room codes and one
count of who is online; it keeps the methods and answers of ``InProcessDirectory``. Every key
lives under ``{prefix}:``: ``owner:{table}`` (a string, the owning node), ``lobby`` and
``described`` (hashes of table id -> the summary as JSON), ``numbers`` (hash of ruleset -> the
highest table number given out), ``rooms`` (hash of code -> table id) and ``codes`` (hash of
table id -> code), ``admitted:{table}`` (a set of user ids), ``online:{node}`` (hash of user id
-> that node's open connections) with ``nodes`` (the set of node names that have such a hash),
``metrics`` (hash of node -> its latest Prometheus text), ``lock:{name}`` (the hall-wide
locks), and the pub/sub channel ``node:{node}`` for the messages between nodes.
Read-modify-write steps are single commands or Lua scripts, so two nodes may call them at
once. Nothing here must outlive the nodes: the supervisor calls ``clear()`` before it starts
them.

The frequent writes (a table's listing and description at every change, presence, releases)
never make the event loop wait for Redis: they go, in order, to a writer thread that sends
whatever has queued up in one pipeline. This node's reads wait for its own queued writes
first (read-your-writes); another node sees them once sent (``flush()`` waits for that).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import orjson
import redis
from redis.backoff import NoBackoff
from redis.client import Pipeline, PubSub, PubSubWorkerThread
from redis.lock import Lock
from redis.retry import Retry

from .in_process import DirectoryUnavailable

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], None]
Write = Callable[[Pipeline], Any]
LOBBY_SECONDS = 1.0  # how stale another node's lobby changes may be when read here
REDIS_SECONDS = 0.5  # the longest one Redis command may take (a hung Redis: a timeout)
FLUSH_SECONDS = 0.5  # the longest a read waits for this node's queued writes

_RELEASE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[4])
redis.call('HDEL', KEYS[2], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[2])
local code = redis.call('HGET', KEYS[5], ARGV[2])
if code then
  redis.call('HDEL', KEYS[5], ARGV[2])
  redis.call('HDEL', KEYS[6], code)
end
return 1
"""

_NEXT_NUMBER = """
local n = tonumber(ARGV[2])
local last = redis.call('HGET', KEYS[1], ARGV[1])
if last and tonumber(last) > n then n = tonumber(last) end
n = n + 1
redis.call('HSET', KEYS[1], ARGV[1], n)
return n
"""

_REGISTER_ROOM = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and current ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
return 1
"""

_ONLINE = """
redis.call('SADD', KEYS[2], ARGV[3])
if redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2]) <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
"""

# reads the hashes named by the node set (keys the script cannot declare: one Redis, no cluster)
_ONLINE_COUNT = """
local seen, n = {}, 0
for _, node in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  for _, user in ipairs(redis.call('HKEYS', ARGV[1] .. node)) do
    if not seen[user] then seen[user] = true; n = n + 1 end
  end
end
return n
"""


def _glob_escape(text: str) -> str:
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


class RedisDirectory:
    """The directory of a hall whose nodes share one Redis.

    Table chat (``publish``, ``subscribe``, ``unsubscribe``) stays in-process, as in
    ``InProcessDirectory``: a table's sockets are all on its owning node, so its chat never
    crosses nodes. Messages between nodes (``send``, ``on_message``) go through Redis pub/sub.
    """

    def __init__(self, url: str, node: str, prefix: str = "baida",
                 timeout: float = REDIS_SECONDS) -> None:
        self.node = node
        self.prefix = prefix
        # a command that gets no answer in ``timeout`` fails at once (no retries: the
        # caller falls back to what it knows, see ``contained``)
        self._redis: redis.Redis = redis.Redis.from_url(
            url, decode_responses=True, socket_connect_timeout=timeout, socket_timeout=timeout,
            retry=Retry(NoBackoff(), 0), retry_on_error=[], retry_on_timeout=False,
        )
        # called (in the writer thread) when queued writes could not be sent
        self.on_write_failed: Callable[[Exception], None] | None = None
        try:
            self._redis.ping()
        except redis.RedisError as e:
            self._redis.close()
            raise DirectoryUnavailable(f"no Redis answers at {url}: {e}") from e
        self._release = self._redis.register_script(_RELEASE)
        self._next_number = self._redis.register_script(_NEXT_NUMBER)
        self._register_room = self._redis.register_script(_REGISTER_ROOM)
        self._online = self._redis.register_script(_ONLINE)
        self._online_count = self._redis.register_script(_ONLINE_COUNT)
        self._subscribers: dict[int, Handler] = {}
        self._handlers: dict[str, tuple[asyncio.AbstractEventLoop, Handler]] = {}
        self._listeners: dict[str, tuple[PubSub, PubSubWorkerThread]] = {}
        self._closing = threading.Event()
        self._listener_said = -60.0  # when the listener's failure was last logged
        self._lobby: tuple[float, list[dict[str, Any]]] | None = None  # (read at, tables)
        self._writes: queue.Queue[Write | None] = queue.Queue()
        self._writer = threading.Thread(target=self._write_loop, name=f"directory-{node}",
                                        daemon=True)
        self._writer.start()

    # ---------------------------------------------------------------- the writer thread

    def _later(self, write: Write) -> None:
        self._writes.put(write)

    def _write_loop(self) -> None:
        """Send the queued writes, everything waiting at once in one pipeline, in order."""
        while True:
            batch = [self._writes.get()]
            while True:
                try:
                    batch.append(self._writes.get_nowait())
                except queue.Empty:
                    break
            writes = [w for w in batch if w is not None]
            if writes:
                pipe = self._redis.pipeline(transaction=False)
                for write in writes:
                    write(pipe)
                try:
                    pipe.execute()
                except redis.RedisError as e:
                    log.warning("directory: %d writes to Redis failed: %s", len(writes), e)
                    if self.on_write_failed is not None:
                        self.on_write_failed(e)
            for _ in batch:
                self._writes.task_done()
            if len(writes) < len(batch):  # close() asked the thread to end
                return

    def flush(self, timeout: float = FLUSH_SECONDS) -> None:
        """Wait until every write queued so far has reached Redis (or failed);
        ``DirectoryUnavailable`` after ``timeout`` seconds."""
        if not self._writer.is_alive():
            return
        done = self._writes.all_tasks_done
        deadline = time.monotonic() + timeout
        with done:
            while self._writes.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DirectoryUnavailable("the writes to Redis are stuck")
                done.wait(left)

    def ping(self) -> None:
        """Whether Redis answers (a ``redis.RedisError`` if not)."""
        self._redis.ping()

    def pipeline(self) -> Pipeline:
        """A pipeline (no transaction) on this directory's Redis, for ``contained``."""
        return self._redis.pipeline(transaction=False)

    def later(self, write: Write) -> None:
        """Queue a write (a function of a pipeline) behind the others."""
        self._later(write)

    def key(self, *parts: object) -> str:
        return self._key(*parts)

    def register_script(self, script: str) -> Any:
        return self._redis.register_script(script)

    def lock(self, name: str, seconds: float) -> Lock:
        """redis-py's lock ``lock:{name}`` (``SET NX PX``, a token, released by a script
        only by its holder), expiring after ``seconds``; never blocks."""
        return self._redis.lock(self._key("lock", name), timeout=seconds, blocking=False,
                                thread_local=False)

    def get(self, key: str) -> str | None:
        return self._redis.get(key)

    def owner_now(self, table_id: int) -> str | None:
        """The owner as Redis says now (not waiting for queued writes)."""
        return self._redis.get(self._key("owner", table_id))

    def release_script(self, table_id: int, node: str, pipe: Pipeline) -> None:
        """Queue ``release_table``'s script on ``pipe``."""
        self._release(keys=self._release_keys(table_id), args=[node, table_id], client=pipe)

    def _release_keys(self, table_id: int) -> list[str]:
        return [self._key("owner", table_id), self._key("lobby"), self._key("described"),
                self._key("admitted", table_id), self._key("codes"), self._key("rooms")]

    def _key(self, *parts: object) -> str:
        return ":".join([self.prefix, *map(str, parts)])

    # ---------------------------------------------------------------- tables

    def claim_table(self, table_id: int, node: str) -> bool:
        """Become the owner of ``table_id``; False if another node owns it."""
        self.flush()  # a release queued before it goes first
        before = self._redis.set(self._key("owner", table_id), node, nx=True, get=True)
        return before is None or before == node

    def release_table(self, table_id: int, node: str) -> None:
        """If ``node`` owns the table: forget its owner, listing, description, admissions and
        room code."""
        keys = self._release_keys(table_id)
        self._lobby = None
        self._later(lambda pipe: self._release(keys=keys, args=[node, table_id], client=pipe))

    def owner(self, table_id: int) -> str | None:
        self.flush()
        return self._redis.get(self._key("owner", table_id))

    # ---------------------------------------------------------------- the lobby

    def list_table(self, table_id: int, summary: dict[str, Any]) -> None:
        self._lobby = None
        data = orjson.dumps(summary)
        self._later(lambda pipe: pipe.hset(self._key("lobby"), str(table_id), data))

    def unlist_table(self, table_id: int) -> None:
        self._lobby = None
        self._later(lambda pipe: pipe.hdel(self._key("lobby"), str(table_id)))

    def lobby(self) -> list[dict[str, Any]]:
        """Every listed table's summary, by ruleset, number and id: read again at most once
        every ``LOBBY_SECONDS`` (every open browser lobby asks every few seconds, and a
        large hall's list is megabytes), and at once after this node changed it."""
        now = time.monotonic()
        cached = self._lobby
        if cached is not None and now - cached[0] < LOBBY_SECONDS:
            return cached[1]
        self.flush()
        tables = [orjson.loads(s) for s in self._redis.hvals(self._key("lobby"))]
        tables.sort(key=lambda t: (t["ruleset"], t["number"], t["id"]))
        self._lobby = (now, tables)
        return tables

    def describe_table(self, table_id: int, summary: dict[str, Any]) -> None:
        data = orjson.dumps(summary)
        self._later(lambda pipe: pipe.hset(self._key("described"), str(table_id), data))

    def description(self, table_id: int) -> dict[str, Any] | None:
        self.flush()
        found = self._redis.hget(self._key("described"), str(table_id))
        return None if found is None else orjson.loads(found)

    def descriptions(self) -> list[dict[str, Any]]:
        """Every described table's summary, by id."""
        self.flush()
        found: dict[str, str] = self._redis.hgetall(self._key("described"))
        return [orjson.loads(found[t]) for t in sorted(found, key=int)]

    def next_number(self, ruleset: str, floor: int) -> int:
        """One more than ``floor`` or than the highest number given out for ``ruleset``."""
        return int(self._next_number(keys=[self._key("numbers")], args=[ruleset, floor]))

    # ---------------------------------------------------------------- private tables

    def register_room(self, code: str, table_id: int) -> bool:
        """Give ``table_id`` the room code ``code``; False if the code is another table's."""
        keys = [self._key("rooms"), self._key("codes")]
        self.flush()
        return bool(self._register_room(keys=keys, args=[code.upper(), table_id]))

    def room(self, code: str) -> int | None:
        self.flush()
        found = self._redis.hget(self._key("rooms"), code.strip().upper())
        return None if found is None else int(found)

    def admit(self, table_id: int, user_id: int) -> None:
        self._redis.sadd(self._key("admitted", table_id), user_id)

    def admitted(self, table_id: int, user_id: int) -> bool:
        self.flush()
        return bool(self._redis.sismember(self._key("admitted", table_id), str(user_id)))

    # ---------------------------------------------------------------- presence and chat

    def online(self, user_id: int, delta: int) -> None:
        """A connection of ``user_id`` opened (+1) or closed (-1) on this node."""
        keys = [self._key("online", self.node), self._key("nodes")]
        args = [user_id, delta, self.node]
        self._later(lambda pipe: self._online(keys=keys, args=args, client=pipe))

    def online_count(self) -> int:
        """How many distinct users have a connection open on any node."""
        keys = [self._key("nodes")]
        self.flush()
        return int(self._online_count(keys=keys, args=[self._key("online", "")]))

    def publish(self, table_id: int, message: dict[str, Any]) -> None:
        """Deliver a chat message to the table's subscriber (in this process)."""
        deliver = self._subscribers.get(table_id)
        if deliver is not None:
            deliver(message)

    def subscribe(self, table_id: int, deliver: Handler) -> None:
        self._subscribers[table_id] = deliver

    def unsubscribe(self, table_id: int) -> None:
        self._subscribers.pop(table_id, None)

    # ---------------------------------------------------------------- between nodes

    def on_message(self, node: str, handler: Handler) -> None:
        """Call ``handler`` on the running event loop with every message sent to ``node``
        (subscribed before this returns; a second call replaces the handler)."""
        self._handlers[node] = (asyncio.get_running_loop(), handler)
        if node in self._listeners:
            return
        channel = self._key("node", node)
        pubsub = self._redis.pubsub()
        pubsub.subscribe(**{channel: lambda m: self._received(node, m["data"])})
        while True:  # wait for the confirmation: from now on nothing sent to node is lost
            reply = pubsub.get_message(timeout=5.0)
            if reply is None:
                pubsub.close()
                raise DirectoryUnavailable(f"Redis did not confirm the subscription to {channel}")
            if reply["type"] == "subscribe":
                break
        thread = pubsub.run_in_thread(
            sleep_time=0.05, daemon=True, exception_handler=self._listener_failed
        )
        self._listeners[node] = (pubsub, thread)

    def _received(self, node: str, data: str) -> None:
        """(In the listener thread.) Hand a message over to its handler's loop."""
        try:
            message = orjson.loads(data)
        except orjson.JSONDecodeError:
            log.warning("dropped a message to node %s that is not JSON: %.200r", node, data)
            return
        loop, _ = self._handlers[node]
        try:
            loop.call_soon_threadsafe(self._deliver, node, message)
        except RuntimeError:  # the loop is closed: nobody is left to hear it
            log.info("dropped a message to node %s: its event loop is closed", node)

    def _deliver(self, node: str, message: dict[str, Any]) -> None:
        self._handlers[node][1](message)

    def _listener_failed(
        self, error: BaseException, pubsub: PubSub, thread: PubSubWorkerThread
    ) -> None:
        if self._closing.is_set():
            thread.stop()
            return
        now = time.monotonic()
        if now - self._listener_said >= 30.0:  # once per outage, not every second of it
            log.warning("node messages: Redis pub/sub failed (%s); retrying", error)
            self._listener_said = now
        self._closing.wait(1.0)  # redis-py subscribes again when it reconnects

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Deliver ``message`` to ``node``'s handler; nothing happens if it has none."""
        self._redis.publish(self._key("node", node), orjson.dumps(message))

    # ---------------------------------------------------------------- metrics

    def put_metrics(self, node: str, text: str) -> None:
        """Keep ``text`` as node ``node``'s latest Prometheus metrics (``node_metrics``)."""
        self._later(lambda pipe: pipe.hset(self._key("metrics"), node, text))

    def node_metrics(self) -> dict[str, str]:
        """Every node's latest metrics text, by node."""
        return dict(self._redis.hgetall(self._key("metrics")))

    # ---------------------------------------------------------------- lifetime

    def close(self) -> None:
        """Stop listening, forget this node's connections, close the connections to Redis."""
        if self._closing.is_set():
            return
        self._closing.set()
        self._writes.put(None)
        self._writer.join(timeout=10.0)
        for _, thread in self._listeners.values():
            thread.stop()
        for _, thread in self._listeners.values():
            thread.join(timeout=2.0)
        self._listeners.clear()
        try:
            self._redis.pipeline().delete(self._key("online", self.node)).srem(
                self._key("nodes"), self.node
            ).hdel(self._key("metrics"), self.node).execute()
        except redis.RedisError as e:
            log.warning("could not remove node %s's presence: %s", self.node, e)
        self._redis.close()

    def clear(self) -> None:
        """Delete every key under the prefix (before the nodes start)."""
        batch: list[str] = []
        for key in self._redis.scan_iter(match=_glob_escape(self.prefix) + ":*", count=500):
            batch.append(key)
            if len(batch) == 500:
                self._redis.delete(*batch)
                batch.clear()
        if batch:
            self._redis.delete(*batch)
