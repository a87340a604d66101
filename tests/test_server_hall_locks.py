"""Hall-wide locks (``HallLocks``): one holder of a key at every node at once, through a lock
in Redis; what a holder wrote reaches Redis before the next holder looks; a holder that died
blocks the key only until its lock expires; while Redis is out each node's own lock is all
there is. Against a redis-server of the test's own (``private_redis``)."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

import pytest

from baida.server.directory.contained import ContainedDirectory
from baida.server.directory.in_process import DirectoryUnavailable, InProcessDirectory
from baida.server.tables.keyed_lock import MAX_NAME, HallLocks

if TYPE_CHECKING:
    from private_redis import PrivateRedis

pytest_plugins = ["private_redis"]
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_one_holder_of_a_key_in_the_whole_hall(nodes: list[ContainedDirectory]) -> None:
    locks = [HallLocks("host", d.hall_lock, poll=0.005) for d in nodes]
    inside: list[int] = []
    most = 0
    order: list[int] = []

    async def hold(i: int) -> None:
        nonlocal most
        async with locks[i % 2].hold(7):
            inside.append(i)
            most = max(most, len(inside))
            await asyncio.sleep(0.01)  # a count and a write, say: others would slip in here
            order.append(i)
            inside.remove(i)

    await asyncio.gather(*(hold(i) for i in range(12)))
    assert most == 1 and sorted(order) == list(range(12))
    assert {i % 2 for i in order[:4]} == {0, 1}  # both nodes took turns, not one after the other
    # another key is not held up by this one
    async with locks[0].hold(7):
        began = time.monotonic()
        async with locks[1].hold(8):
            assert time.monotonic() - began < 1.0
    assert len(locks[0]) == len(locks[1]) == 0


async def test_what_a_holder_wrote_reaches_redis_before_the_next_holder_looks(
    nodes: list[ContainedDirectory], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table's description goes to Redis from a writer thread, later; the host limit of
    another node counts the descriptions in Redis. Here node-0's writes wait until it flushes
    them: the lock must flush before it goes."""
    a, b = nodes
    held: list[Any] = []
    flush = a.inner.flush

    def send_held(timeout: float = 0.5) -> None:
        pipe = a.inner.pipeline()
        for write in held:
            write(pipe)
        pipe.execute()
        held.clear()
        flush(timeout)

    monkeypatch.setattr(a.inner, "_later", held.append)
    monkeypatch.setattr(a.inner, "flush", send_held)
    la, lb = HallLocks("host", a.hall_lock, poll=0.005), HallLocks("host", b.hall_lock, poll=0.005)
    entered = asyncio.Event()
    seen: list[int] = []

    async def first() -> None:
        async with la.hold(5):
            entered.set()
            await asyncio.sleep(0.05)
            a.describe_table(41, {"id": 41, "host": 5, "status": "waiting"})

    async def second() -> None:
        await entered.wait()
        async with lb.hold(5):
            seen.extend(t["id"] for t in b.descriptions() if t.get("host") == 5)

    await asyncio.gather(first(), second())
    assert seen == [41]


async def test_a_holder_that_died_holds_the_key_only_until_its_lock_expires(
    nodes: list[ContainedDirectory],
) -> None:
    a, b = nodes
    dead = a.hall_lock("host:9", 0.4)
    assert dead.acquire() is True  # ... and its node is never heard from again
    began = time.monotonic()
    async with HallLocks("host", b.hall_lock, seconds=0.4, poll=0.01).hold(9):
        waited = time.monotonic() - began
    assert 0.3 <= waited < 2.0


async def test_a_slow_holder_keeps_its_lock_past_its_seconds(
    nodes: list[ContainedDirectory],
) -> None:
    """The store stalled 20 s under a host's request: the lock expired after 15 and the other
    node made a fourth table. A holder renews its lock while it holds it."""
    a, b = nodes
    la = HallLocks("host", a.hall_lock, seconds=0.3, poll=0.01)
    lb = HallLocks("host", b.hall_lock, seconds=0.3, poll=0.01)
    held = asyncio.Event()
    order: list[str] = []

    async def slow() -> None:
        async with la.hold(4):
            held.set()
            await asyncio.sleep(2.0)  # six of its lives
            order.append("slow done")

    async def other() -> None:
        await held.wait()
        with pytest.raises(DirectoryUnavailable):  # waited its 0.3 s + 1, and gave up
            async with lb.hold(4):
                order.append("other in")  # never, while the slow one holds it
        order.append("other gave up")

    await asyncio.gather(slow(), other())
    assert order == ["other gave up", "slow done"]
    async with lb.hold(4):  # let go: free at once
        pass


async def test_while_redis_is_out_each_node_holds_its_own_lock(
    private_redis: PrivateRedis, nodes: list[ContainedDirectory]
) -> None:
    a, b = nodes
    locks = [HallLocks("signing", d.hall_lock) for d in nodes]
    private_redis.stop()
    began = time.monotonic()
    inside = 0
    most = 0

    async def hold(i: int) -> None:
        nonlocal inside, most
        async with locks[i % 2].hold(("address", "1.2.3.4")):
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0.01)
            inside -= 1

    await asyncio.gather(*(hold(i) for i in range(6)))
    assert time.monotonic() - began < 3.0  # no waiting on a Redis that is not there
    assert most <= 2  # one a node: the node's own lock still holds
    assert not a.available and not b.available


class NeverFree:
    """A lock another node holds for good (its expiry aside)."""

    def acquire(self) -> bool:
        return False

    def release(self) -> None:
        raise AssertionError("never taken, never released")

    def renew(self) -> None:
        raise AssertionError("never taken, never renewed")


async def test_waiting_longer_than_a_holder_may_hold_is_a_try_again() -> None:
    clock = [0.0]

    async def sleep(seconds: float) -> None:
        clock[0] += seconds

    names: list[str] = []

    def shared(name: str, seconds: float) -> NeverFree:
        names.append(name)
        return NeverFree()

    locks = HallLocks("host", shared, seconds=15.0, sleep=sleep, now=lambda: clock[0])
    with pytest.raises(DirectoryUnavailable, match="try again"):
        async with locks.hold(3):
            raise AssertionError("held")
    assert 16.0 <= clock[0] < 16.1
    assert names == ["host:3"] and len(locks) == 0


async def test_one_process_and_long_names() -> None:
    single = HallLocks("host", InProcessDirectory().hall_lock)
    async with single.hold(1):
        pass
    names: list[str] = []

    class Free:
        def acquire(self) -> bool:
            return True

        def release(self) -> None:
            pass

        def renew(self) -> None:
            pass

    def shared(name: str, seconds: float) -> Free:
        names.append(name)
        return Free()

    locks = HallLocks("signing", shared)
    async with locks.hold(("name", "x" * 60_000)):
        pass
    async with locks.hold(("address", "2001:db8::/64")):
        pass
    assert len(names[0]) < MAX_NAME and names[0].startswith("signing:#")
    assert names[1] == "signing:address:2001:db8::/64"
