"""A node's directory when its Redis fails (``ContainedDirectory``): hung (SIGSTOP), gone,
and back empty; and the limits counted for every node at once. Against a redis-server of the
test's own (``private_redis``), never the machine's."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from baida.server.directory.contained import ContainedDirectory
from baida.server.directory.in_process import DirectoryUnavailable
from baida.server.directory.in_redis import REDIS_SECONDS, RedisDirectory
from baida.server.web.auth import ROOM_FAILURES, RoomCodeLimiter
from baida.server.web.limits import NAME_FAILURES, LoginGate, Refusal

if TYPE_CHECKING:
    from private_redis import PrivateRedis

pytest_plugins = ["private_redis"]


def summary(table_id: int, number: int, ruleset: str = "jiaxing") -> dict[str, Any]:
    return {"id": table_id, "number": number, "ruleset": ruleset, "host": None,
            "status": "waiting"}


def eventually(what: str, cond: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    began = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - began


def fill(a: ContainedDirectory, b: ContainedDirectory) -> None:
    """Node a owns tables 1 (public, listed) and 3 (private, code ABCDEF); node b owns 2."""
    assert a.claim_table(1, a.node) and a.claim_table(3, a.node) and b.claim_table(2, b.node)
    a.list_table(1, summary(1, 1))
    a.describe_table(1, summary(1, 1))
    b.list_table(2, summary(2, 2))
    b.describe_table(2, summary(2, 2))
    a.describe_table(3, summary(3, 3))
    assert a.register_room("abcdef", 3)
    a.admit(3, 77)
    a.online(5, +1)
    b.online(6, +1)
    a.inner.flush()
    b.inner.flush()


def test_a_hung_redis_never_holds_a_call_for_long(
    private_redis: PrivateRedis, nodes: list[ContainedDirectory]
) -> None:
    a, b = nodes
    fill(a, b)
    assert [t["id"] for t in a.lobby()] == [1, 2] and a.available
    assert a.owner(2) == "node-1" and a.description(2) == summary(2, 2)
    private_redis.pause()
    try:
        time.sleep(1.1)  # a's lobby cache is stale: the next read asks Redis
        lobby, first = timed(a.lobby)
        assert first < 1.6  # one timeout, then Redis is known to be out
        assert not a.available
        assert [t["id"] for t in lobby] == [1, 2]  # the last lobby read, with a's own
        took = [timed(lambda: (a.lobby(), a.owner(2), a.description(2), a.admitted(3, 77),
                               a.room("ABCDEF"), a.online_count()))[1] for _ in range(50)]
        # and from now on nothing waits for Redis (a timeout is REDIS_SECONDS)
        assert max(took) < REDIS_SECONDS / 2 and statistics.median(took) < 0.005, took
        assert a.owner(2) == "node-1" and a.room("abcdef") == 3 and a.admitted(3, 77)
        with pytest.raises(DirectoryUnavailable):  # another node's code: not known here
            a.room("ZZZZZZ")
        # this node's tables change while Redis is out: its lobby shows them as they are
        a.list_table(1, {**summary(1, 1), "status": "playing"})
        assert {t["id"]: t["status"] for t in a.lobby()} == {1: "playing", 2: "waiting"}
        assert a.claim_table(4, a.node)  # a new table of its own
        a.list_table(4, summary(4, 4))
        a.describe_table(4, summary(4, 4))
    finally:
        private_redis.resume()
    eventually("Redis back", lambda: a.available)
    # what a did while Redis was out reached it: b sees it
    eventually("a's new table in b's lobby", lambda: 4 in {t["id"] for t in b.lobby()})
    assert b.owner(4) == "node-0"
    assert {t["id"]: t["status"] for t in b.lobby()}[1] == "playing"


def test_a_redis_back_empty_is_filled_again(
    private_redis: PrivateRedis, nodes: list[ContainedDirectory]
) -> None:
    a, b = nodes
    fill(a, b)
    a.release_table(1, a.node)  # released just before: it must not come back
    a.inner.flush()
    time.sleep(1.1)  # (the lobby a read last is a second old at most)
    assert {t["id"] for t in a.lobby()} == {2}
    private_redis.stop()
    assert a.online_count() >= 1  # (what a knows)
    assert not a.available
    assert {t["id"] for t in a.lobby()} == {2}  # degraded: the last lobby read, no error
    a.release_table(3, a.node)  # released while Redis is out
    b.list_table(2, {**summary(2, 2), "status": "playing"})
    private_redis.start()  # empty
    eventually("both nodes back", lambda: a.available and b.available)
    r = private_redis.client()
    eventually("the lobby refilled", lambda: r.hlen("t:lobby") == 1)
    assert b.lobby()[0]["status"] == "playing"
    assert r.get("t:owner:2") == "node-1" and r.get("t:owner:1") is None
    assert r.get("t:owner:3") is None and r.hget("t:rooms", "ABCDEF") is None
    assert a.online_count() == 2
    assert a.next_number("jiaxing", 0) == 3  # above the numbers the nodes hold


def test_a_flush_while_up_is_noticed(
    private_redis: PrivateRedis, nodes: list[ContainedDirectory]
) -> None:
    a, b = nodes
    fill(a, b)
    time.sleep(0.5)  # the markers are set
    r = private_redis.client()
    r.flushall()
    eventually("the lobby refilled", lambda: r.hlen("t:lobby") == 2)
    assert r.get("t:owner:3") == "node-0" and r.hget("t:rooms", "ABCDEF") == "3"
    assert r.sismember("t:admitted:3", "77")
    assert a.refills >= 1 and b.refills >= 1


def test_a_lost_claim_is_not_taken_back(
    private_redis: PrivateRedis, nodes: list[ContainedDirectory]
) -> None:
    a, b = nodes
    fill(a, b)
    private_redis.stop()
    assert a.lobby()  # notices
    private_redis.start()
    private_redis.client().set("t:owner:1", "node-1")  # another node got there first
    eventually("a back", lambda: a.available)
    assert private_redis.client().get("t:owner:1") == "node-1"


def test_wrong_room_codes_count_for_every_node(
    private_redis: PrivateRedis, nodes: list[ContainedDirectory]
) -> None:
    clock = [0.0]
    limiters = [RoomCodeLimiter(lambda: clock[0]) for _ in nodes]
    for limiter, node in zip(limiters, nodes, strict=True):
        limiter.shared = node
    for i in range(ROOM_FAILURES):
        limiter = limiters[i % 2]  # alternately at each node
        assert not limiter.blocked("1.2.3.4", 9)
        limiter.failed("1.2.3.4", 9)
    assert all(lim.blocked("1.2.3.4", 9) for lim in limiters)
    assert all(lim.blocked("5.6.7.8", 9) for lim in limiters)  # the account too
    assert not limiters[0].blocked("5.6.7.8", 10)
    # Redis out: each node counts its own (and still remembers its own failures)
    private_redis.stop()
    assert limiters[0].blocked("1.2.3.4", 9) is False  # 5 here, of 10
    logins = LoginGate(lambda: clock[0])
    logins.share(nodes[0])
    for _ in range(NAME_FAILURES):
        taken = logins.attempt("1.1.1.1", "alice")
        assert not isinstance(taken, Refusal)
        taken.keep()  # a wrong password
    refusal = logins.attempt("2.2.2.2", "alice")  # this node's own count closes the name
    assert refusal is not None and refusal.code == "name_limited"
    assert not isinstance(logins.attempt("2.2.2.2", "bob"), Refusal)


def test_a_node_without_redis_at_start_is_a_clear_error(private_redis: PrivateRedis) -> None:
    private_redis.stop()
    with pytest.raises(DirectoryUnavailable, match="no Redis answers"):
        RedisDirectory(private_redis.url, "node-0", "t")


def test_a_guess_is_counted_at_every_node_before_its_password_is_checked(
    nodes: list[ContainedDirectory],
) -> None:
    """Each guess takes its place in the hall's count (Redis's answer to the increment)
    before the password is checked, and gives it back if the password was right: guesses
    sent at once to both nodes get exactly the name's ten checks."""
    clock = [0.0]
    gates = [LoginGate(lambda: clock[0], attempts=0) for _ in nodes]
    for gate, node in zip(gates, nodes, strict=True):
        gate.share(node)
    taken = [gates[i % 2].attempt(f"10.0.{i}.1", "alice") for i in range(30)]
    let_through = [t for t in taken if not isinstance(t, Refusal)]
    assert len(let_through) == NAME_FAILURES
    assert {t.code for t in taken if isinstance(t, Refusal)} == {"name_limited"}
    let_through[0].give_back()  # that one's password was right: its place is free again
    let_through[0].give_back()  # (once)
    assert not isinstance(gates[1].attempt("10.9.9.1", "alice"), Refusal)
    assert isinstance(gates[0].attempt("10.9.9.2", "alice"), Refusal)
    assert nodes[0].hits("login-name:alice") == NAME_FAILURES
    # given back after its window ended, a count is not taken below nothing
    nodes[0].inner.flush()
    gone = gates[0].attempt("10.9.9.3", "bob")
    assert not isinstance(gone, Refusal)
    nodes[0].inner._redis.delete(nodes[0].inner.key("hits", "login-name:bob"))
    gone.give_back()
    assert nodes[0].hits("login-name:bob") == 0
