"""Requests (a hint, a record's check, a review) share the bot workers with the tables' bots,
but hold at most two places a worker in their queue at once: a flood of requests queued
without bound, and every bot decision waited behind it."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from baida.server.tables.botpool import REQUESTS_PER_WORKER, BotPool

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_requests_hold_at_most_their_places_in_the_workers_queue() -> None:
    pool = BotPool(workers=0, timeout=30.0)
    pool._executor = ThreadPoolExecutor(8)  # room for every job: only the bound holds them
    gate = threading.Event()
    running: list[int] = []
    most = [0]
    lock = threading.Lock()

    def job(i: int) -> int:
        with lock:
            running.append(i)
            most[0] = max(most[0], len(running))
        gate.wait(10)
        with lock:
            running.remove(i)
        return i

    jobs = [asyncio.ensure_future(pool.run(job, i)) for i in range(10)]
    for _ in range(200):  # until the first ones are in the workers
        await asyncio.sleep(0.005)
        if len(running) == REQUESTS_PER_WORKER:
            break
    await asyncio.sleep(0.05)
    assert len(running) == REQUESTS_PER_WORKER  # the other eight wait outside the queue
    gate.set()
    assert sorted(await asyncio.gather(*jobs)) == list(range(10))
    assert most[0] == REQUESTS_PER_WORKER
    pool._executor.shutdown()


async def test_a_request_that_cannot_start_in_time_is_a_timeout() -> None:
    pool = BotPool(workers=0, timeout=0.2)
    pool._executor = ThreadPoolExecutor(4)
    for _ in range(REQUESTS_PER_WORKER):  # every place held (by requests still running)
        await pool._requests.acquire()
    with pytest.raises(TimeoutError):
        await pool.run(sum, [1, 2])
    pool._requests.release()
    assert await pool.run(sum, [1, 2]) == 3  # a place is free again
    pool._executor.shutdown()


async def test_a_request_given_up_on_keeps_its_place_until_its_work_ends() -> None:
    """The answer is given up on after ``timeout``, but a job that has begun runs on in its
    worker: its place is free only once it ends (it was freed at the timeout, so a flood of
    slow requests could fill the workers beyond the bound)."""
    pool = BotPool(workers=0, timeout=0.2)
    pool._executor = ThreadPoolExecutor(8)
    gate = threading.Event()
    running = threading.Semaphore(0)

    def slow(i: int) -> int:
        running.release()
        gate.wait(10)
        return i

    for i in range(REQUESTS_PER_WORKER):
        with pytest.raises(TimeoutError):
            await pool.run(slow, i)
    assert running.acquire(timeout=5) and running.acquire(timeout=5)  # both still running
    with pytest.raises(TimeoutError):  # no place: the slow ones hold them
        await pool.run(sum, [1, 2])
    gate.set()
    for _ in range(200):
        if not pool._requests.locked():
            break
        await asyncio.sleep(0.01)
    assert await pool.run(sum, [1, 2]) == 3
    pool._executor.shutdown()
